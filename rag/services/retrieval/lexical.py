"""The lexical channel: full-text matches of the query's words, scored by BM25 (or PostgreSQL's ``ts_rank``).

Also the whole-file BM25 ranking drawn from the same postings, the statistics
of an index version's layer group that BM25 and the priors need, with its
item table, and the query's words as PostgreSQL lexemes. Statistics, each
word's postings and the counts of common words are kept per process (versions
never change): a search asks the database only for what no earlier search of
the version asked. The counts of common words are read as the version wrote
them (``stored_word_counts``) when it did.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import Any, NamedTuple

import numpy as np
import psycopg
from cachetools import LRUCache
from django.db import connection

from rag.models import CODE_LAYERS, DOC_LAYERS, IndexRun
from rag.query_analysis import QueryHints, lexical_words
from rag.services.retrieval.fusion import AUXILIARY_FOLDERS
from rag.services.retrieval.params import DEFAULT_PARAMS, RankingParams, item_filter
from rag.services.retrieval.results import WholeFiles
from rag.storage import has_common_word_counts, vector_connection, version_filter


def query_terms(
    query: str, max_words: int = DEFAULT_PARAMS.max_query_words, *, words: Sequence[str] | None = None
) -> dict[str, QueryTerm]:
    """The query's lexemes in query order, each with how often the query uses it and whether its title does.

    The title is the first line of a query of several lines (an issue's title). ``words``: the query's
    ``lexical_words(query, limit=max_words, repeats=True)`` when the caller has them already.
    """
    if words is None:
        words = lexical_words(query, limit=max_words, repeats=True)
    if not words:
        return {}
    lines = query.strip().splitlines()
    title_words = lexical_words(lines[0], limit=max_words) if len(lines) > 1 else []
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT lexeme, array_length(positions, 1), "
            "lexeme = ANY(SELECT lexeme FROM unnest(to_tsvector('english', %s))) "
            "FROM unnest(to_tsvector('english', %s)) ORDER BY positions[1]",
            [" ".join(title_words), " ".join(words)],
        )
        return {lexeme: QueryTerm(count or 1, bool(in_title)) for lexeme, count, in_title in cursor.fetchall()}


@dataclass(frozen=True)
class QueryTerm:
    count: int
    in_title: bool


class FileColumn(NamedTuple):
    """One word's column of the whole-file ranking: its weight, the files that have it (numbers in the
    version's ``ItemTable``) and its frequency in each (items of the file that have it)."""

    weight: float
    files: np.ndarray
    frequencies: np.ndarray
    in_title: bool


def lexical_ts_rank(
    cursor, run: IndexRun, layers, path_regex, docs: bool, lexemes: Sequence[str], params: RankingParams
) -> list[tuple[int, str, bool]]:
    """Items matching any distinctive word of the query, by ``ts_rank``.

    One OR query rather than AND: long queries (issue texts, tracebacks)
    rarely have every word in one item. Words common in this index are left
    out, which keeps the match set, and so the ranking work, small.
    """
    if not lexemes:
        return []
    where, args = item_filter(run, layers, path_regex, docs)
    common = set(run.common_words or ())
    distinctive = [lexeme for lexeme in lexemes if lexeme not in common]
    if distinctive:
        tsquery = " | ".join(_quote_lexeme(lexeme) for lexeme in distinctive)
    else:
        # Only common words: all of them together is the one selective reading.
        tsquery = " & ".join(_quote_lexeme(lexeme) for lexeme in lexemes[: params.common_fallback_words])
    if not tsquery:
        return []
    key = (run.pk, tuple(sorted(layers)), path_regex, docs, tsquery, params.max_ranked, params.candidates)
    with _RANKED_LOCK:
        cached = _RANKED.get(key)
    if cached is not None:
        return list(cached)
    # Ranking reads every matching item's tsvector, so at most ``max_ranked``
    # matches are ranked: a bound on the cost of a query of unselective words.
    cursor.execute(
        "SELECT id, layer, is_test FROM ("
        f"  SELECT id, layer, is_test, search FROM rag_item WHERE {where} AND search @@ CAST(%s AS tsquery) LIMIT %s"
        ") m ORDER BY ts_rank(search, CAST(%s AS tsquery)) DESC, id LIMIT %s",
        [*args, tsquery, params.max_ranked, tsquery, params.candidates],
    )
    rows = cursor.fetchall()
    with _RANKED_LOCK:
        _RANKED[key] = tuple(rows)
    return rows


# Per index version, item filter and full-text query: the best items by ``ts_rank`` (a few
# kilobytes each). Queries of common words only rank thousands of items, and their
# readings recur (``contrib & admin & static & js``); versions never change.
_RANKED: LRUCache[tuple, tuple[tuple[int, str, bool], ...]] = LRUCache(maxsize=512)
_RANKED_LOCK = threading.Lock()


def lexical_bm25(
    cursor, run: IndexRun, layers, path_regex, docs: bool, terms: Mapping[str, QueryTerm], params: RankingParams,
    hints: QueryHints,
) -> tuple[list[tuple[int, str, bool]], WholeFiles]:
    """Items, and whole files, scored by BM25 over the query's distinctive words.

    Each distinctive word is looked up on its own (the GIN index, at most
    ``max_postings`` items a word; see ``_postings``); a word's weight is its inverse document
    frequency in this index, so one rare identifier outweighs several
    everyday words, which ``ts_rank`` cannot tell apart. A word's weight in an
    item is PostgreSQL's rank of the item for that word alone (see
    ``bm25_tf``), and scores are normalised by item length. A file's score
    counts a word once per item of the file that has it, normalised by the
    file's length: the whole-file ranking of BM25 baselines, from the same postings.
    """
    common = set() if params.bm25_common_words else set(run.common_words or ())
    distinctive = [lexeme for lexeme in terms if lexeme not in common]
    where, args = item_filter(run, layers, path_regex, docs)
    # The counts written with the version serve searches of a whole layer group.
    whole_group = path_regex is None and sorted(layers) == sorted(DOC_LAYERS if docs else CODE_LAYERS)
    # A query of one line (no word in a title) is its own title.
    titled = any(term.in_title for term in terms.values())

    def common_columns(words: list[str], statistics: GroupStatistics) -> list[FileColumn]:
        stored = stored_word_counts(run, docs, statistics.table) if whole_group else None
        counts_key = (run.pk, tuple(layers), path_regex, docs)
        return _common_word_columns(
            cursor, terms, words, counts_key, where, args, statistics.items, statistics.table, params, stored
        )

    if not distinctive:
        rows = lexical_ts_rank(cursor, run, layers, path_regex, docs, list(terms), params)
        if not params.file_common_words:
            return rows, WholeFiles()
        # Items need every common word ("hyperlinks in the output formatted" finds none of
        # ``hyperlink/mod.rs``); files are still ranked by all of them, as by an issue's common words.
        statistics = group_statistics(cursor, run, tuple(layers), docs)
        file_columns = common_columns(list(terms), statistics)
        return rows, _whole_files(file_columns, statistics, hints, params, titled) if file_columns else WholeFiles()
    statistics = group_statistics(cursor, run, tuple(layers), docs)
    key = (run.pk, tuple(sorted(layers)), path_regex, docs)
    postings = _postings(cursor, key, distinctive, where, args, params)
    # Few items have a distinctive word ("which tests cover widgets?" where one comment says "cover"):
    # after them come the items of the query's common words together, as in a query of common words alone.
    common_reading = [lexeme for lexeme in terms if lexeme in common]
    if not any(len(ids) for ids, _ in postings):
        return _after(cursor, [], run, layers, path_regex, docs, common_reading, params), WholeFiles()
    total, table = statistics.items, statistics.table
    # A column per word with postings, in query order, its weight (inverse document frequency) and
    # whether the title has it.
    columns: list[tuple[int, float, bool]] = []
    for o, (ids, _) in enumerate(postings, 1):
        if not len(ids):
            continue
        df = len(ids)
        term = terms[distinctive[o - 1]]
        boost = (1 + params.query_repeat_boost * math.log(term.count)) * (1 + params.query_title_boost * term.in_title)
        columns.append((o, math.log(1 + (total - df + 0.5) / (df + 0.5)) * boost, term.in_title))
    # A row per item that has any of the words, by id: the word's weight in the item (see bm25_tf) in each column.
    item_ids, row_of = np.unique(np.concatenate([postings[o - 1][0] for o, _, _ in columns]), return_inverse=True)
    at = table.positions(item_ids)
    weights = np.zeros((len(item_ids), len(columns)))
    item_files = table.path_index[at]
    # Per word and file: the weights of the file's items that have the word (the file's term frequency,
    # in chunks), added item by item in the order the database returned them.
    file_weights: list[tuple[np.ndarray, np.ndarray]] = []
    start = 0
    for column, (o, _, _) in enumerate(columns):
        ids, values = postings[o - 1]
        rows = row_of[start : start + len(ids)]
        start += len(ids)
        weights[rows, column] = values
        # Summed in order, item by item, as adding to a dict of files would (``bincount`` adds in order).
        files_of = item_files[rows]
        found = np.flatnonzero(np.bincount(files_of, minlength=len(table.paths)))
        file_weights.append((found, np.bincount(files_of, weights=values, minlength=len(table.paths))[found]))
    k1, b = params.bm25_k1, params.bm25_b
    k1_plus_1 = k1 + 1
    # Item scores, element by element with the operations (in their order) of scoring one item at a
    # time, so to the same bits: a word the item lacks adds 0.0, which leaves a sum of positive terms as it is.
    lengths = table.lengths[at]
    floor = max(int(lengths.sum()) / len(lengths), 1.0)
    sums = np.zeros(len(item_ids))
    for column, (_, weight, _) in enumerate(columns):
        sums = sums + weight * weights[:, column]
    scores = sums * (k1_plus_1 / (1 + k1 * ((1 - b) + b * lengths / floor)))
    # The best ``candidates`` by score (descending), then id.
    best = _best(scores, item_ids, params.candidates)
    items = [
        (item_id, table.layers[layer], is_test)
        for item_id, layer, is_test in zip(
            item_ids[best].tolist(), table.layer_index[at[best]].tolist(), table.tests[at[best]].tolist()
        )
    ]
    file_columns = [
        FileColumn(weight, found, frequencies, in_title)
        for (_, weight, in_title), (found, frequencies) in zip(columns, file_weights)
    ]
    if params.file_common_words:
        common_words = [lexeme for lexeme in terms if lexeme in common]
        if common_words:
            file_columns += common_columns(common_words, statistics)
    items = _after(cursor, items, run, layers, path_regex, docs, common_reading, params)
    return items, _whole_files(file_columns, statistics, hints, params, titled)


def _after(
    cursor, items: list[tuple[int, str, bool]], run: IndexRun, layers, path_regex, docs: bool, common_words: list[str],
    params: RankingParams,
) -> list[tuple[int, str, bool]]:
    """``items``, then, when they are fewer than ``params.candidates``, the items that have every one of
    ``common_words`` (by ``ts_rank``) up to that many."""
    if len(items) >= params.candidates or not common_words:
        return items
    seen = {item_id for item_id, _, _ in items}
    more = [row for row in lexical_ts_rank(cursor, run, layers, path_regex, docs, common_words, params) if row[0] not in seen]
    return items + more[: params.candidates - len(items)]


def _whole_files(
    file_columns: Sequence[FileColumn], statistics: GroupStatistics, hints: QueryHints, params: RankingParams,
    titled: bool,
) -> WholeFiles:
    """The first ``candidates`` files by whole-file BM25 over the words' columns, and their title scores
    (over the columns of the title's words; over every column when the query is not ``titled``).

    Element by element the operations, in their order, of scoring one file at a time.
    """
    table, file_lengths = statistics.table, statistics.file_lengths
    files = np.unique(np.concatenate([column.files for column in file_columns]))
    frequencies = np.zeros((len(files), len(file_columns)))
    present = np.zeros((len(files), len(file_columns)), dtype=bool)
    for column, (_, found, values, _) in enumerate(file_columns):
        rows = np.searchsorted(files, found)
        frequencies[rows, column] = values
        present[rows, column] = True
    k1, fb = params.bm25_k1, params.file_bm25_b
    k1_plus_1 = k1 + 1
    file_average = sum(file_lengths.values()) / max(len(file_lengths), 1)
    shape = k1 * ((1 - fb) + fb * table.file_words[files] / file_average)
    scores = np.zeros(len(files))
    title = np.zeros(len(files)) if titled else None
    # Only the words a file has are added, as one file at a time would add them.
    for column, (weight, _, _, in_title) in enumerate(file_columns):
        rows = present[:, column]
        tf = frequencies[rows, column]
        added = weight * tf * k1_plus_1 / (tf + shape[rows])
        scores[rows] = scores[rows] + added
        if title is not None and in_title:
            title[rows] = title[rows] + added
    if title is None:  # every column is the title's: the scores before the priors
        title = scores.copy()
    best_title = _best(title, files, params.candidates)
    title_scores = {
        table.paths[file]: score for file, score in zip(files[best_title].tolist(), title[best_title].tolist()) if score > 0
    }
    test_prior = params.test_penalty_about_tests if hints.about_tests else params.test_penalty
    tests, auxiliary = statistics.file_kinds(files)
    scores = scores * np.where(tests, test_prior, 1.0)
    # ``path_prior`` of every file at once: the same factors, multiplied in the same order.
    priors = np.where(statistics.file_windows[files], params.window_weight, 1.0)
    if params.example_penalty != 1.0 and not hints.about_examples:
        priors = np.where(auxiliary, priors * params.example_penalty, priors)
    scores = scores * priors
    # Best score first, then path: files are numbered in path order, and ``files`` is sorted.
    best = _best(scores, files, params.candidates)
    return WholeFiles([table.paths[file] for file in files[best].tolist()], title_scores)


def _best(values: np.ndarray, keys: np.ndarray, limit: int) -> np.ndarray:
    """Positions of the ``limit`` highest values, highest first, ties by key: a full sort's first ``limit``,
    sorting only the values at or above the ``limit``-th highest."""
    if limit <= 0:
        return np.zeros(0, dtype=np.intp)
    if len(values) > limit:
        cut = len(values) - limit
        among = np.flatnonzero(values >= np.partition(values, cut)[cut])
    else:
        among = np.arange(len(values))
    return among[np.lexsort((keys[among], -values[among]))][:limit]


def _common_word_columns(
    cursor, terms: Mapping[str, QueryTerm], common: Sequence[str], key: tuple, where: str, args: list[Any], total: int,
    table: ItemTable, params: RankingParams, stored: Mapping[str, WordCounts] | None = None,
) -> list[FileColumn]:
    """Per common word of the query found in any file: its weight, and how many items of each file have it.

    A word in thousands of items says little about an item, but a file that
    has it in most of its items is about it (``delete`` and ``deletion.py``).
    The counts are ``stored`` (``stored_word_counts``) when the version has them for the
    searched items, else counted in SQL.
    """
    if not common:
        return []
    if stored is not None:
        counts = {lexeme: stored.get(lexeme, _NO_FILES) for lexeme in common}
    else:
        counts = _common_word_counts(cursor, common, key, where, args, table)
    columns = []
    for lexeme in common:
        counted = counts[lexeme]
        if not len(counted.files):
            continue
        df = counted.items
        term = terms[lexeme]
        boost = (1 + params.query_repeat_boost * math.log(term.count)) * (1 + params.query_title_boost * term.in_title)
        columns.append(
            FileColumn(math.log(1 + (total - df + 0.5) / (df + 0.5)) * boost, counted.files, counted.counts, term.in_title)
        )
    return columns


@dataclass(frozen=True, eq=False)
class WordCounts:
    """How many items of each file (by its number in the version's ``ItemTable``) have a word, as floats, and of all files."""

    files: np.ndarray
    counts: np.ndarray
    items: int


_NO_FILES = WordCounts(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64), 0)


# Per index version and layer group: the counts of its common words written with the version
# (``rag.storage.count_common_words``), or None for a version built before they were kept.
# Read once per process and version (16 bytes a file and word: about 3 MB for 40,000 items);
# versions never change. Least recently used out first once they hold about 64 MiB.
_STORED_COUNTS: LRUCache[tuple[int, bool], dict[str, WordCounts] | None] = LRUCache(
    maxsize=64 * 2**20,
    getsizeof=lambda counts: 512 + sum(c.files.nbytes + c.counts.nbytes + 128 for c in (counts or {}).values()),
)
_STORED_COUNTS_LOCK = threading.Lock()


def stored_word_counts(run: IndexRun, docs: bool, table: ItemTable) -> dict[str, WordCounts] | None:
    """Per common word of version ``run``: how many items of each file of the layer group have it, as written with the version.

    None when the version has no counts (built before they were kept) or they are too many to keep:
    then they are counted per search.
    ``table``: the group's item table (``group_statistics``), whose file numbers the counts use.
    """
    key = (run.pk, docs)
    with _STORED_COUNTS_LOCK:
        if key in _STORED_COUNTS:
            return _STORED_COUNTS[key]
    counts: dict[str, WordCounts] | None = None
    if has_common_word_counts(run):
        version, version_args = version_filter(run)
        # Binary results (a server-side-binding cursor on the same connection): the arrays arrive
        # as numbers, about a fifth of the time of parsing them from text.
        with psycopg.Cursor(vector_connection()) as binary:
            binary.execute(
                f"SELECT path, words, items FROM rag_file_common_words WHERE {version} AND is_doc = %s AND path <> ''",
                [*version_args, docs],
                binary=True,
            )
            rows = binary.fetchall()
        # Every (file, word) pair, ordered by word (a word's files in any order: each adds to its own entry).
        per_file = np.fromiter((len(words) for _, words, _ in rows), dtype=np.int64, count=len(rows))
        pairs = int(per_file.sum())
        files = np.repeat(np.array([table.path_numbers[path] for path, _, _ in rows], dtype=np.int64), per_file)
        words = np.fromiter(chain.from_iterable(words for _, words, _ in rows), dtype=np.int64, count=pairs)
        items = np.fromiter(chain.from_iterable(items for _, _, items in rows), dtype=np.int64, count=pairs)
        order = np.argsort(words, kind="stable")
        words, files, items = words[order], files[order], items[order]
        common = list(run.common_words or ())
        bounds = np.searchsorted(words, np.arange(len(common) + 1)).tolist()
        counts = {
            lexeme: WordCounts(files[lo:hi], items[lo:hi].astype(np.float64), int(items[lo:hi].sum()))
            for lexeme, lo, hi in zip(common, bounds, bounds[1:])
        }
        if _STORED_COUNTS.getsizeof(counts) > _STORED_COUNTS.maxsize:
            # Too large to keep (millions of items): counted per search, each word's counts kept.
            counts = None
    with _STORED_COUNTS_LOCK:
        _STORED_COUNTS[key] = counts
    return counts


# Per index version, item filter and common word: how many items of each file have the word, when
# the version has no stored counts or a search reads part of a group. The grouped count is the dearest statement of a search (thousands of items a word), and
# common words are by nature the ones queries share; versions never change, so neither do counts.
# Words kept per process, least recently used out first (a few kilobytes to a few hundred each).
_COMMON_COUNTS: LRUCache[tuple, WordCounts] = LRUCache(maxsize=512)
_COMMON_COUNTS_LOCK = threading.Lock()


def _common_word_counts(
    cursor, common: Sequence[str], key: tuple, where: str, args: list[Any], table: ItemTable
) -> dict[str, WordCounts]:
    found: dict[str, WordCounts] = {}
    with _COMMON_COUNTS_LOCK:
        for lexeme in common:
            cached = _COMMON_COUNTS.get((*key, lexeme))
            if cached is not None:
                found[lexeme] = cached
    missing = [lexeme for lexeme in common if lexeme not in found]
    if not missing:
        return found
    cursor.execute(
        "SELECT q.ord, i.path, count(*) FROM unnest(CAST(%s AS text[])) WITH ORDINALITY AS q(lex, ord) "
        f"CROSS JOIN LATERAL (SELECT path FROM rag_item WHERE {where} AND search @@ CAST(q.lex AS tsquery)) i "
        # In no order: a file's count goes to its own entry, whatever the order files come in.
        "GROUP BY q.ord, i.path",
        [[_quote_lexeme(lexeme) for lexeme in missing], *args],
    )
    per_word: dict[str, list[tuple[str, int]]] = {lexeme: [] for lexeme in missing}
    for ord_, path, count in cursor.fetchall():
        per_word[missing[ord_ - 1]].append((path, count))
    with _COMMON_COUNTS_LOCK:
        for lexeme, pairs in per_word.items():
            counted = WordCounts(
                np.array([table.path_numbers[path] for path, _ in pairs], dtype=np.int64),
                np.array([float(count) for _, count in pairs], dtype=np.float64),
                sum(count for _, count in pairs),
            )
            found[lexeme] = _COMMON_COUNTS[(*key, lexeme)] = counted
    return found


# Per index version, item filter, weighting and word: the word's items (ids, in the order the
# database finds them, at most ``max_postings``) and its weight in each. Ranking an item for a
# word reads the item's whole tsvector, which makes this the dearest statement of a search; a
# version never changes, so neither do its postings, and the words of one repository's queries
# recur. Kept per process as two arrays a word (16 bytes a posting), least recently used out
# first once they hold about 32 MiB (a word's arrays and key count about 512 bytes more).
_POSTINGS: LRUCache[tuple, tuple[np.ndarray, np.ndarray]] = LRUCache(
    maxsize=32 * 2**20, getsizeof=lambda value: value[0].nbytes + value[1].nbytes + 512
)
_POSTINGS_LOCK = threading.Lock()


def _postings(
    cursor, key: tuple, lexemes: Sequence[str], where: str, args: list[Any], params: RankingParams
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per word of ``lexemes``, in order: the ids of the items that have it and its weight in each (see ``bm25_tf``).

    The words not kept from earlier searches are looked up together, one statement for all of them.
    """
    weighting = ("tf", _SINGLE_BODY_RANK) if params.bm25_tf else ("title", params.title_boost)
    keys = [(*key, weighting, params.max_postings, lexeme) for lexeme in lexemes]
    found: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    with _POSTINGS_LOCK:
        for lexeme, cache_key in zip(lexemes, keys):
            cached = _POSTINGS.get(cache_key)
            if cached is not None:
                found[lexeme] = cached
    missing = [lexeme for lexeme in dict.fromkeys(lexemes) if lexeme not in found]
    if missing:
        # The lengths BM25 needs come from the version's item table (``group_statistics``):
        # only the word's rank reads an item's tsvector here.
        cursor.execute(
            "SELECT q.ord, i.id, "
            + (
                "CAST(ts_rank(i.search, CAST(q.lex AS tsquery)) / %s AS float8) "
                if params.bm25_tf
                else "CAST(1 + %s * (i.search @@ CAST(q.lex || ':A' AS tsquery))::int AS float8) "
            )
            + "FROM unnest(CAST(%s AS text[])) WITH ORDINALITY AS q(lex, ord) "
            f"CROSS JOIN LATERAL (SELECT id, search FROM rag_item WHERE {where} "
            "AND search @@ CAST(q.lex AS tsquery) LIMIT %s) i",
            [weighting[1], [_quote_lexeme(lexeme) for lexeme in missing], *args, params.max_postings],
        )
        ids: dict[int, list[int]] = {}
        weights: dict[int, list[float]] = {}
        for ord_, item_id, weight in cursor.fetchall():
            ids.setdefault(ord_, []).append(item_id)
            weights.setdefault(ord_, []).append(weight)
        with _POSTINGS_LOCK:
            for ord_, lexeme in enumerate(missing, 1):
                value = (np.array(ids.get(ord_, ()), dtype=np.int64), np.array(weights.get(ord_, ()), dtype=np.float64))
                found[lexeme] = value
                _POSTINGS[(*key, weighting, params.max_postings, lexeme)] = value
    return [found[lexeme] for lexeme in lexemes]


# ts_rank of an item with one occurrence of a word in its body (weight B 0.4 over its 1.645 normaliser).
_SINGLE_BODY_RANK = 0.4 / 1.64493406685


@dataclass(frozen=True, eq=False)
class ItemTable:
    """The items of a layer group of an index version by id (sorted), as columns: length, path, layer, test file."""

    ids: np.ndarray
    lengths: np.ndarray
    path_index: np.ndarray
    layer_index: np.ndarray
    tests: np.ndarray
    paths: tuple[str, ...]
    layers: tuple[str, ...]
    # Per file (by its number, its place in ``paths``): the words of its items.
    file_words: np.ndarray
    path_numbers: dict[str, int]

    def positions(self, ids: Sequence[int] | np.ndarray) -> np.ndarray:
        """Where each of ``ids`` is in the table's columns."""
        wanted = np.asarray(ids, dtype=np.int64)
        at = np.minimum(np.searchsorted(self.ids, wanted), max(len(self.ids) - 1, 0))
        if len(wanted) and (not len(self.ids) or not np.array_equal(self.ids[at], wanted)):
            raise LookupError("an item is not in its version's item table")
        return at

    def rows(self, ids: Sequence[int]) -> list[tuple[int, str, str, bool]]:
        """Per id of ``ids``, in order: its item's length (words of its tsvector), path, layer and whether it is in a test file."""
        at = self.positions(ids)
        paths, layers = self.paths, self.layers
        return [
            (length, paths[path], layers[layer], test)
            for length, path, layer, test in zip(
                self.lengths[at].tolist(), self.path_index[at].tolist(), self.layer_index[at].tolist(), self.tests[at].tolist()
            )
        ]

    def path_of(self, ids: Sequence[int]) -> list[str]:
        return [path for _, path, _, _ in self.rows(ids)]


@dataclass(frozen=True)
class GroupStatistics:
    """What BM25 and the priors need to know about a layer group of an index version as a whole."""

    items: int
    # A file's length: its items' words, matched or not.
    file_lengths: dict[str, int]
    # Files that weigh as plain windows of lines: read as windows (no parser knew their
    # language), or vendored or generated (``rag.services.index_items.chunk_items``), decided once
    # per version rather than per query.
    window_files: frozenset[str]
    # Every item of the group, so a search reads only ids and ranks from the database.
    table: ItemTable = field(compare=False, repr=False)
    # Per file (by its number in ``table``): whether it is in ``window_files``.
    file_windows: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool), compare=False, repr=False)
    # Per file, once asked: whether it is under examples, docs ... (``AUXILIARY_FOLDERS``), a question of
    # the path alone, asked of the same files by search after search.
    _auxiliary: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)
    # Per file number: whether it is a test file (known from the start: its items say so) and whether it is
    # auxiliary (as above): 1 yes, 0 no, -1 not asked yet.
    _file_kinds: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), dtype=np.int8), compare=False, repr=False)

    def is_auxiliary(self, path: str) -> bool:
        known = self._auxiliary.get(path)
        if known is None:
            known = self._auxiliary[path] = bool(AUXILIARY_FOLDERS.search(path))
        return known

    def file_kinds(self, files: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per file number of ``files``: whether it is a test file, and whether it is auxiliary (see above)."""
        kinds = self._file_kinds[files]
        unknown = files[kinds[:, 1] < 0]
        if len(unknown):
            # Two searches may answer the same file at once: both write the same answer.
            for file in unknown.tolist():
                self._file_kinds[file, 1] = self.is_auxiliary(self.table.paths[file])
            kinds = self._file_kinds[files]
        return kinds[:, 0] == 1, kinds[:, 1] == 1


# Index versions whose statistics a process keeps (about a megabyte each at 40,000 items; versions never change).
_STATISTICS: LRUCache[tuple[int, tuple[str, ...], bool], GroupStatistics] = LRUCache(maxsize=16)
_STATISTICS_LOCK = threading.Lock()


def group_statistics(cursor, run, layers: tuple[str, ...], docs: bool) -> GroupStatistics:
    """The statistics of a layer group of an index version, computed once per process and version.

    A long vendored script or changelog matches many words only because it
    is long: BM25 needs the lengths to tell.
    """
    key = (run.pk, tuple(sorted(layers)), docs)
    with _STATISTICS_LOCK:
        cached = _STATISTICS.get(key)
        if cached is not None:
            return cached
    version, version_args = version_filter(run)
    cursor.execute(
        "SELECT id, path, layer, is_test, length(search), "
        "metadata->>'chunk_type' = 'window' OR metadata ? 'vendored' FROM rag_item "
        f"WHERE {version} AND is_doc = %s AND layer = ANY(%s)",
        [*version_args, docs, list(layers)],
    )
    rows = cursor.fetchall()
    ids, paths, layer_names, tests, words, windowed = zip(*rows) if rows else ((),) * 6
    # Files numbered in path order, the same numbers however often the table is built (kept counts use them).
    path_numbers = {path: number for number, path in enumerate(sorted(set(paths)))}
    path_index = np.array([path_numbers[path] for path in paths], dtype=np.int32)
    layer_numbers: dict[str, int] = {}
    layer_index = np.array([layer_numbers.setdefault(layer, len(layer_numbers)) for layer in layer_names], dtype=np.int16)
    item_lengths = np.array([count or 0 for count in words], dtype=np.int64)
    per_file = np.zeros(len(path_numbers), dtype=np.int64)
    np.add.at(per_file, path_index, item_lengths)
    lengths = dict(zip(path_numbers, per_file.tolist()))
    windows = {path for path, window in zip(paths, windowed) if window}
    order = np.argsort(np.array(ids, dtype=np.int64), kind="stable")
    table = ItemTable(
        ids=np.array(ids, dtype=np.int64)[order],
        lengths=item_lengths[order],
        path_index=path_index[order],
        layer_index=layer_index[order],
        tests=np.array(tests, dtype=bool)[order],
        paths=tuple(path_numbers),
        layers=tuple(layer_numbers),
        file_words=per_file,
        path_numbers=path_numbers,
    )
    file_windows = np.zeros(len(path_numbers), dtype=bool)
    file_windows[np.array([path_numbers[path] for path in windows], dtype=np.int64)] = True
    # A file is a test file when its items are: each item holds ``looks_like_test_path`` of its path, as
    # indexed; so no search asks it of a path again.
    file_kinds = np.full((len(path_numbers), 2), -1, dtype=np.int8)
    file_kinds[:, 0] = 0
    file_kinds[path_index[np.array(tests, dtype=bool)], 0] = 1
    statistics = GroupStatistics(
        items=len(rows), file_lengths=lengths, window_files=frozenset(windows), table=table, file_windows=file_windows,
        _file_kinds=file_kinds,
    )
    with _STATISTICS_LOCK:
        _STATISTICS[key] = statistics
    return statistics


def _quote_lexeme(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"

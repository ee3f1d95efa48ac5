"""The lexical channel: full-text matches of the query's words, scored by BM25 (or PostgreSQL's ``ts_rank``).

Also the whole-file BM25 ranking drawn from the same postings, the statistics
of an index version's layer group that BM25 and the priors need (kept per
process: versions never change), and the query's words as PostgreSQL lexemes.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from django.db import connection

from rag.models import IndexRun
from rag.query_analysis import QueryHints, lexical_words
from rag.services.retrieval.fusion import is_vendored, path_prior
from rag.services.retrieval.params import DEFAULT_PARAMS, RankingParams, item_filter
from rag.storage import version_filter
from rag.terms import looks_like_test_path


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
    # Ranking reads every matching item's tsvector, so at most ``max_ranked``
    # matches are ranked: a bound on the cost of a query of unselective words.
    cursor.execute(
        "SELECT id, layer, is_test FROM ("
        f"  SELECT id, layer, is_test, search FROM rag_item WHERE {where} AND search @@ CAST(%s AS tsquery) LIMIT %s"
        ") m ORDER BY ts_rank(search, CAST(%s AS tsquery)) DESC, id LIMIT %s",
        [*args, tsquery, params.max_ranked, tsquery, params.candidates],
    )
    return cursor.fetchall()


def lexical_bm25(
    cursor, run: IndexRun, layers, path_regex, docs: bool, terms: Mapping[str, QueryTerm], params: RankingParams,
    hints: QueryHints,
) -> tuple[list[tuple[int, str, bool]], list[str]]:
    """Items, and whole files, scored by BM25 over the query's distinctive words.

    Each distinctive word is looked up on its own (the GIN index, at most
    ``max_postings`` items a word); a word's weight is its inverse document
    frequency in this index, so one rare identifier outweighs several
    everyday words, which ``ts_rank`` cannot tell apart. A word's weight in an
    item is PostgreSQL's rank of the item for that word alone (see
    ``bm25_tf``), and scores are normalised by item length. A file's score
    counts a word once per item of the file that has it, normalised by the
    file's length: the whole-file ranking of BM25 baselines, from the same postings.
    """
    common = set() if params.bm25_common_words else set(run.common_words or ())
    distinctive = [lexeme for lexeme in terms if lexeme not in common]
    if not distinctive:
        rows = lexical_ts_rank(cursor, run, layers, path_regex, docs, list(terms), params)
        return rows, []
    where, args = item_filter(run, layers, path_regex, docs)
    quoted = [_quote_lexeme(lexeme) for lexeme in distinctive]
    cursor.execute(
        "SELECT q.ord, i.id, i.layer, i.is_test, i.path, length(i.search), "
        + (
            "CAST(ts_rank(i.search, CAST(q.lex AS tsquery)) / %s AS float8) "
            if params.bm25_tf
            else "CAST(1 + %s * (i.search @@ CAST(q.lex || ':A' AS tsquery))::int AS float8) "
        )
        + "FROM unnest(CAST(%s AS text[])) WITH ORDINALITY AS q(lex, ord) "
        f"CROSS JOIN LATERAL (SELECT id, layer, is_test, path, search FROM rag_item WHERE {where} "
        "AND search @@ CAST(q.lex AS tsquery) LIMIT %s) i",
        [_SINGLE_BODY_RANK if params.bm25_tf else params.title_boost, quoted, *args, params.max_postings],
    )
    postings = cursor.fetchall()
    if not postings:
        return [], []
    statistics = group_statistics(cursor, run, tuple(layers), docs)
    total, file_lengths = statistics.items, statistics.file_lengths
    frequency: dict[int, int] = {}
    for ord_, *_ in postings:
        frequency[ord_] = frequency.get(ord_, 0) + 1
    idf = {}
    for o, df in frequency.items():
        term = terms[distinctive[o - 1]]
        boost = (1 + params.query_repeat_boost * math.log(term.count)) * (1 + params.query_title_boost * term.in_title)
        idf[o] = math.log(1 + (total - df + 0.5) / (df + 0.5)) * boost
    lengths: dict[int, int] = {}
    info: dict[int, tuple[int, str, bool]] = {}
    # Per item and word: the word's weight in the item (see bm25_tf).
    item_terms: dict[int, dict[int, float]] = {}
    # Per file and word: how many of the file's items have it (the file's term frequency, in chunks).
    file_terms: dict[str, dict[int, float]] = {}
    for ord_, item_id, layer, is_test, path, length, weight in postings:
        info[item_id] = (item_id, layer, is_test)
        lengths[item_id] = length
        item_terms.setdefault(item_id, {})[ord_] = weight
        in_file = file_terms.setdefault(path, {})
        in_file[ord_] = in_file.get(ord_, 0.0) + weight
    k1, b = params.bm25_k1, params.bm25_b

    def bm25(weights: dict[int, float], length: float, average: float) -> float:
        norm = (k1 + 1) / (1 + k1 * (1 - b + b * length / max(average, 1.0)))
        return sum(idf[o] * weight for o, weight in weights.items()) * norm

    average = sum(lengths.values()) / len(lengths)
    scored = sorted(((bm25(weights, lengths[i], average), i) for i, weights in item_terms.items()), key=lambda p: (-p[0], p[1]))
    file_average = sum(file_lengths.values()) / max(len(file_lengths), 1)
    test_prior = params.test_penalty_about_tests if hints.about_tests else params.test_penalty
    fb = params.file_bm25_b

    def file_bm25(path: str) -> float:
        shape = k1 * (1 - fb + fb * file_lengths.get(path, file_average) / file_average)
        score = sum(idf[o] * tf * (k1 + 1) / (tf + shape) for o, tf in file_terms[path].items())
        score *= test_prior if looks_like_test_path(path) else 1.0
        return score * path_prior(path, path in statistics.window_files, hints, params)

    if params.file_common_words:
        key = (run.pk, tuple(layers), path_regex, docs)
        _add_common_words(cursor, terms, [lexeme for lexeme in terms if lexeme in common], key, where, args, total, idf, file_terms, params)
    files = sorted(((file_bm25(path), path) for path in file_terms), key=lambda p: (-p[0], p[1]))
    return [info[i] for _, i in scored[: params.candidates]], [path for _, path in files[: params.candidates]]


def _add_common_words(cursor, terms, common: Sequence[str], key: tuple, where: str, args: list[Any], total: int, idf, file_terms, params) -> None:
    """Count, per file, the items that have each of the query's common words (in SQL: no row leaves the server).

    A word in thousands of items says little about an item, but a file that
    has it in most of its items is about it (``delete`` and ``deletion.py``).
    """
    if not common:
        return
    offset = max(idf, default=0)
    counts = _common_word_counts(cursor, common, key, where, args)
    for ord_, lexeme in enumerate(common, 1):
        per_file = counts[lexeme]
        if not per_file:
            continue
        df = sum(count for _, count in per_file)
        term = terms[lexeme]
        boost = (1 + params.query_repeat_boost * math.log(term.count)) * (1 + params.query_title_boost * term.in_title)
        idf[offset + ord_] = math.log(1 + (total - df + 0.5) / (df + 0.5)) * boost
        for path, count in per_file:
            file_terms.setdefault(path, {})[offset + ord_] = float(count)


# Per index version, item filter and common word: how many items of each file have the word.
# The grouped count is the dearest statement of a search (thousands of items a word), and
# common words are by nature the ones queries share; versions never change, so neither do counts.
# Words kept per process, least recently used out first (a few kilobytes to a few hundred each).
_COMMON_COUNTS: LRUCache[tuple, tuple[tuple[str, int], ...]] = LRUCache(maxsize=512)
_COMMON_COUNTS_LOCK = threading.Lock()


def _common_word_counts(cursor, common: Sequence[str], key: tuple, where: str, args: list[Any]) -> dict[str, tuple[tuple[str, int], ...]]:
    found: dict[str, tuple[tuple[str, int], ...]] = {}
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
        "GROUP BY q.ord, i.path ORDER BY q.ord, i.path",
        [[_quote_lexeme(lexeme) for lexeme in missing], *args],
    )
    per_word: dict[str, list[tuple[str, int]]] = {lexeme: [] for lexeme in missing}
    for ord_, path, count in cursor.fetchall():
        per_word[missing[ord_ - 1]].append((path, count))
    with _COMMON_COUNTS_LOCK:
        for lexeme, pairs in per_word.items():
            found[lexeme] = _COMMON_COUNTS[(*key, lexeme)] = tuple(pairs)
    return found


# ts_rank of an item with one occurrence of a word in its body (weight B 0.4 over its 1.645 normaliser).
_SINGLE_BODY_RANK = 0.4 / 1.64493406685


@dataclass(frozen=True)
class GroupStatistics:
    """What BM25 and the priors need to know about a layer group of an index version as a whole."""

    items: int
    # A file's length: its items' words, matched or not.
    file_lengths: dict[str, int]
    # Files that weigh as plain windows of lines: read as windows (no parser knew their
    # language), or vendored (``VENDORED``), decided once per version rather than per query.
    window_files: frozenset[str]


# Index versions whose statistics a process keeps (a few hundred kilobytes each at most; versions never change).
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
        "SELECT path, count(*), sum(length(search)), bool_or(metadata->>'chunk_type' = 'window') FROM rag_item "
        f"WHERE {version} AND is_doc = %s AND layer = ANY(%s) GROUP BY path",
        [*version_args, docs, list(layers)],
    )
    total = 0
    lengths: dict[str, int] = {}
    windows: set[str] = set()
    for path, items, words, window in cursor.fetchall():
        total += items
        lengths[path] = int(words or 0)
        if window or is_vendored(path):
            windows.add(path)
    statistics = GroupStatistics(items=total, file_lengths=lengths, window_files=frozenset(windows))
    with _STATISTICS_LOCK:
        _STATISTICS[key] = statistics
    return statistics


def _quote_lexeme(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"

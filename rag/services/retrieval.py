"""Hybrid retrieval over a repository's active index version.

Three channels find candidates: full-text search (``websearch_to_tsquery``,
falling back to an OR of the query's words), vector similarity (HNSW, with
the embedder that built the index) and symbol/path matching of the code hints
in the query (identifiers, dotted names, file paths, traceback frames). Their
rankings are fused by weighted reciprocal rank fusion, then adjusted by a
layer prior and a test-file penalty. Every weight is in ``RankingParams`` so
an evaluation can tune them without touching this code.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from django.conf import settings
from django.db import connection

from rag.embeddings import embedder_for_index
from rag.models import CODE_LAYERS, DOC_LAYERS, LAYERS, IndexRun, Repository
from rag.query_analysis import QueryHints, lexical_words, query_hints, without_boilerplate
from rag.terms import looks_like_test_path

Mode = Literal["code", "docs", "auto"]
DEFAULT_LIMIT = 8


@dataclass(frozen=True)
class RankingParams:
    """Every knob of the ranking, in one place."""

    rrf_k: float = 60.0
    weight_lexical: float = 1.0
    weight_vector: float = 0.7
    weight_symbol: float = 1.2
    # Candidates each channel contributes before fusion.
    candidates: int = 60
    # Multipliers per layer (the replaced system ranked C3 > C1 > C2 > C0).
    layer_weights: Mapping[str, float] = field(
        default_factory=lambda: {
            "C3_ENTRYPOINTS": 1.15,
            "C1_SYMBOL_CATALOG": 1.05,
            "C2_DEPENDENCY_GRAPH": 0.85,
            "C0_SOURCE_CHUNKS": 1.0,
            "D0_DOCS": 1.0,
        }
    )
    # Multiplier for items of files read as plain windows of lines (no parser knew their language:
    # configuration, data, shell scripts) and of vendored files (``VENDORED``) when searching code.
    window_weight: float = 0.3
    # Multiplier for items under examples/, tutorials/, docs/, benchmarks/ ... when the query names none of them.
    example_penalty: float = 0.5
    # Multiplier for items in test files when the query is not about tests.
    test_penalty: float = 0.4
    # ... and when it is (an issue often names the test it adds; test files still rarely hold the answer).
    test_penalty_about_tests: float = 0.6
    # Symbol-channel tiers (higher is stronger evidence).
    frame_tier: float = 4.0
    dotted_tier: float = 3.0
    name_tier: float = 2.0
    path_tier: float = 1.0
    # Leave reports, interpreter banners and console prompts pasted into a query out of matching.
    strip_boilerplate: bool = True
    # Distinct words of a query used for full text (long issue texts are cut here;
    # SWE-bench Lite, 118 instances: 48 -> 64 words moved Acc@5 from 72.0 to 73.7%,
    # 96 gave 74.6% at three times the cost of a search).
    max_query_words: int = 64
    # When every word of a query is common in the index, this many of them are searched together (AND).
    common_fallback_words: int = 4
    # Full-text scoring of items: "bm25" (each distinctive query word weighted by
    # its rarity in the index, length-normalised) or "ts_rank" (PostgreSQL's
    # ranking, which has no notion of a word's rarity).
    lexical_scoring: str = "bm25"
    bm25_k1: float = 1.2
    bm25_b: float = 0.75
    # Also score the index's common words (those in more than 2% of its items); slower, and they weigh little.
    bm25_common_words: bool = False
    # A word's weight in an item: 1, plus title_boost when the item's title or qualified name
    # (weight A) has it; or, with bm25_tf, PostgreSQL's rank of the item for that word alone,
    # which also grows (and saturates) with the word's occurrences.
    title_boost: float = 1.0
    bm25_tf: bool = True
    # Query words: extra weight per log of how often the query repeats a word, and for a word of its title.
    query_repeat_boost: float = 0.5
    query_title_boost: float = 1.0
    # Items read per query word (bounds the cost of a word found in many items).
    max_postings: int = 5000
    # With "ts_rank", at most this many full-text matches are ranked. Matches past the cap are
    # dropped in table order, not by relevance, so a low cap loses the best
    # items of long queries on large repositories (SWE-bench Lite, 53 instances:
    # 3000 -> 20000 moved file Acc@1 from 39.6 to 54.7%, MRR 0.524 to 0.624).
    max_ranked: int = 20000
    # Files: a file's score is the sum of its items' scores, the i-th best (0-based) weighted file_decay**i ...
    file_decay: float = 0.3
    # ... plus weight_file_lexical / (file_rrf_k + rank) for its rank in the whole-file BM25 ranking
    # (each word counted once per item of the file, normalised by the file's length with file_bm25_b).
    weight_file_lexical: float = 0.3
    file_rrf_k: float = 10.0
    file_bm25_b: float = 0.75
    # Files this deep in the whole-file ranking are ranked even when no retrieved item is theirs.
    file_only_depth: int = 10
    # Count the query's common words per file too (in SQL) for the whole-file ranking.
    file_common_words: bool = True
    # How files are ranked from a search: "fusion" (``rank_files``: item scores and the whole-file rank,
    # weighted as above) or "learned" (``rag.services.file_ranker``: a model over each candidate file's
    # features re-orders the fused ranking's first ``learned_depth`` files).
    file_ranker: str = "learned"
    learned_depth: int = 30


DEFAULT_PARAMS = RankingParams()


@dataclass(frozen=True)
class SearchResult:
    """One retrieved item. Lines are 1-based and inclusive."""

    id: int
    path: str
    layer: str
    title: str
    content: str
    metadata: dict[str, Any]
    score: float
    start_line: int
    end_line: int
    # Rank (1-based) of the item in each channel that found it: lexical, vector, symbol.
    channels: dict[str, int] = field(default_factory=dict)

    @property
    def citation(self) -> str:
        return f"{self.path}:{self.start_line}-{self.end_line}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "path": self.path, "layer": self.layer, "title": self.title, "content": self.content,
            "metadata": self.metadata, "score": round(self.score, 6), "start_line": self.start_line,
            "end_line": self.end_line,
        }


@dataclass
class SearchResponse:
    """Results plus what was searched; iterating yields the results."""

    items: list[SearchResult]
    mode: str
    layers: tuple[str, ...]
    vector_used: bool
    notes: list[str] = field(default_factory=list)
    # Whole files ranked by full text (BM25 scoring only), best first; ``rank_files`` fuses it in.
    file_ranking: list[str] = field(default_factory=list)
    # What the query's text named (for the file ranking's features) and the index version searched.
    hints: QueryHints | None = None
    run_id: int | None = None
    # The query's distinct words (identifiers split, stop words out), lower-case and unstemmed.
    words: frozenset[str] = frozenset()

    def __iter__(self) -> Iterator[SearchResult]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, index: int) -> SearchResult:
        return self.items[index]


@dataclass(frozen=True)
class FileScore:
    path: str
    score: float
    # The file's best retrieved item; None for a file found by the whole-file ranking alone.
    best: SearchResult | None


class SearchError(ValueError):
    """Bad search input; the message is for the caller."""


def glob_to_regex(pattern: str) -> str:
    """A PostgreSQL regex for a path glob: ``*`` within a folder, ``**`` across folders.

    A pattern without ``/`` matches the file name anywhere (``*.md``), as in .gitignore.
    """
    pattern = pattern.strip().lstrip("/")
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if ch == "*":
            out.append("[^/]*")
        elif ch == "?":
            out.append("[^/]")
        else:
            out.append(re.escape(ch))
        i += 1
    body = "".join(out)
    prefix = "^(.*/)?" if "/" not in pattern else "^"
    # A folder pattern (``rag/``) matches everything under it.
    suffix = ".*$" if pattern.endswith("/") else "(/.*)?$"
    return prefix + body + suffix


def _layers_for(mode: str, layers: Sequence[str] | None) -> tuple[str, ...]:
    if layers:
        unknown = [layer for layer in layers if layer not in LAYERS]
        if unknown:
            raise SearchError(f"unknown layer(s): {', '.join(unknown)}; known: {', '.join(LAYERS)}")
        return tuple(layers)
    return DOC_LAYERS if mode == "docs" else CODE_LAYERS


def _filters(run_id: int, layers: Sequence[str], path_regex: str | None, docs: bool) -> tuple[str, list[Any]]:
    sql = "run_id = %s AND is_doc = %s AND layer = ANY(%s)"
    params: list[Any] = [run_id, docs, list(layers)]
    if path_regex:
        sql += " AND path ~ %s"
        params.append(path_regex)
    return sql, params


def query_lexemes(query: str, max_words: int = DEFAULT_PARAMS.max_query_words) -> list[str]:
    """The query's words as PostgreSQL lexemes (stemmed like the index), in query order."""
    return list(query_terms(query, max_words))


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


def _lexical(
    cursor, run: IndexRun, layers, path_regex, docs: bool, lexemes: Sequence[str], params: RankingParams
) -> list[tuple[int, str, bool]]:
    """Items matching any distinctive word of the query, by ``ts_rank``.

    One OR query rather than AND: long queries (issue texts, tracebacks)
    rarely have every word in one item. Words common in this index are left
    out, which keeps the match set, and so the ranking work, small.
    """
    if not lexemes:
        return []
    where, args = _filters(run.pk, layers, path_regex, docs)
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


def _lexical_bm25(
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
        rows = _lexical(cursor, run, layers, path_regex, docs, list(terms), params)
        return rows, []
    where, args = _filters(run.pk, layers, path_regex, docs)
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
    statistics = group_statistics(cursor, run.pk, tuple(layers), docs)
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
        return score * _path_prior(path, path in statistics.window_files, hints, params)

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
_COMMON_COUNTS: OrderedDict[tuple, tuple[tuple[str, int], ...]] = OrderedDict()
_COMMON_COUNTS_LOCK = threading.Lock()
# Words kept per process, least recently used out first (a few kilobytes to a few hundred each).
_COMMON_COUNTS_KEPT = 512


def _common_word_counts(cursor, common: Sequence[str], key: tuple, where: str, args: list[Any]) -> dict[str, tuple[tuple[str, int], ...]]:
    found: dict[str, tuple[tuple[str, int], ...]] = {}
    with _COMMON_COUNTS_LOCK:
        for lexeme in common:
            cached = _COMMON_COUNTS.get((*key, lexeme))
            if cached is not None:
                _COMMON_COUNTS.move_to_end((*key, lexeme))
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
        while len(_COMMON_COUNTS) > _COMMON_COUNTS_KEPT:
            _COMMON_COUNTS.popitem(last=False)
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


_STATISTICS: OrderedDict[tuple[int, tuple[str, ...], bool], GroupStatistics] = OrderedDict()
_STATISTICS_LOCK = threading.Lock()
# Index versions whose statistics a process keeps (a few hundred kilobytes each at most; versions never change).
_STATISTICS_KEPT = 16


def group_statistics(cursor, run_id: int, layers: tuple[str, ...], docs: bool) -> GroupStatistics:
    """The statistics of a layer group of an index version, computed once per process and version.

    A long vendored script or changelog matches many words only because it
    is long: BM25 needs the lengths to tell.
    """
    key = (run_id, tuple(sorted(layers)), docs)
    with _STATISTICS_LOCK:
        cached = _STATISTICS.get(key)
        if cached is not None:
            _STATISTICS.move_to_end(key)
            return cached
    cursor.execute(
        "SELECT path, count(*), sum(length(search)), bool_or(metadata->>'chunk_type' = 'window') FROM rag_item "
        "WHERE run_id = %s AND is_doc = %s AND layer = ANY(%s) GROUP BY path",
        [run_id, docs, list(layers)],
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
        while len(_STATISTICS) > _STATISTICS_KEPT:
            _STATISTICS.popitem(last=False)
    return statistics


def _quote_lexeme(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def _vector(
    cursor, run: IndexRun, layers, path_regex, docs: bool, vector, params: RankingParams
) -> list[tuple[int, str, bool]]:
    dim = int(run.embedding_dimension)
    where, args = _filters(run.pk, layers, path_regex, docs)
    ef_search = max(settings.RAG["HNSW_EF_SEARCH"], params.candidates)
    # A session setting: set once per database connection, not per query.
    if getattr(connection.connection, "_rag_ef_search", None) != ef_search:
        cursor.execute("SET hnsw.ef_search = %s", [ef_search])
        connection.connection._rag_ef_search = ef_search
    literal = "[" + ",".join(f"{x:.6g}" for x in vector) + "]"
    cursor.execute(
        f"SELECT id, layer, is_test FROM rag_item WHERE {where} AND embedding IS NOT NULL "
        f"ORDER BY embedding::vector({dim}) <=> %s::vector({dim}) LIMIT %s",
        [*args, literal, params.candidates],
    )
    return cursor.fetchall()


_LAYER_ORDER = {layer: i for i, layer in enumerate(("C1_SYMBOL_CATALOG", "C0_SOURCE_CHUNKS", "C3_ENTRYPOINTS", "C2_DEPENDENCY_GRAPH", "D0_DOCS"))}


def _symbol(
    cursor, run_id: int, layers, path_regex, docs: bool, hints: QueryHints, params: RankingParams
) -> list[tuple[int, str, bool]]:
    if not hints.has_code:
        return []
    where, args = _filters(run_id, layers, path_regex, docs)
    tiers: dict[int, tuple[float, int, int]] = {}
    found: dict[int, tuple[int, str, bool]] = {}

    def add(rows, tier: float) -> None:
        for row in rows:
            item_id, layer = row[0], row[1]
            found[item_id] = row[:3]
            current = tiers.get(item_id)
            # Within a tier, a name shared by fewer items is the stronger evidence.
            key = (tier, -(row[3] if len(row) > 3 else 0), -_LAYER_ORDER.get(layer, 9))
            if current is None or key > current:
                tiers[item_id] = key

    names = sorted({n.lower() for n in hints.names})
    if names:
        # Rarest names first: ``clean`` or ``get`` name hundreds of items, a
        # class named in an issue usually one or two.
        cursor.execute(
            "SELECT id, layer, is_test, sharing FROM ("
            f"  SELECT id, layer, is_test, count(*) OVER (PARTITION BY name) AS sharing FROM rag_item WHERE {where} AND name = ANY(%s)"
            ") named ORDER BY sharing, id LIMIT 500",
            [*args, names],
        )
        add(cursor.fetchall(), params.name_tier)
    for dotted in sorted(hints.dotted)[:20]:
        last = dotted.rsplit(".", 1)[-1].lower()
        cursor.execute(
            f"SELECT id, layer, is_test FROM rag_item WHERE {where} AND name = %s AND (qname = %s OR qname LIKE %s) LIMIT 100",
            [*args, last, dotted, "%." + _like_escape(dotted)],
        )
        add(cursor.fetchall(), params.dotted_tier)
        # A dotted module path (``django.db.models.query``) names a file.
        module_path = dotted.replace(".", "/")
        for wanted in (f"{module_path}.py", f"{module_path}/__init__.py"):
            paths = _matching_paths(cursor, run_id, wanted, min_parts=2)
            if paths:
                cursor.execute(f"SELECT id, layer, is_test FROM rag_item WHERE {where} AND path = ANY(%s) LIMIT 200", [*args, paths])
                add(cursor.fetchall(), params.path_tier)
    for path in sorted(hints.paths)[:20]:
        paths = _matching_paths(cursor, run_id, path, min_parts=1)
        if paths:
            cursor.execute(f"SELECT id, layer, is_test FROM rag_item WHERE {where} AND path = ANY(%s) LIMIT 200", [*args, paths])
            add(cursor.fetchall(), params.path_tier)
    for route in sorted(hints.routes)[:10]:
        # Entrypoints whose route contains the path the query names.
        cursor.execute(
            f"SELECT id, layer, is_test FROM rag_item WHERE {where} AND layer = 'C3_ENTRYPOINTS' "
            "AND metadata->>'route_or_command' LIKE %s LIMIT 50",
            [*args, "%" + _like_escape(route) + "%"],
        )
        add(cursor.fetchall(), params.dotted_tier)
    for frame in hints.frames[:20]:
        # Traceback paths are absolute on someone else's machine: the files
        # sharing the longest path suffix with it are the ones meant. Below an
        # installation folder the path is a module path, which must match whole
        # (numpy's ``testing/utils.py`` is not this repository's ``utils.py``).
        installed = _INSTALLED.split(frame.path.replace("\\", "/"))
        wanted = installed[-1]
        required = len([p for p in wanted.split("/") if p]) if len(installed) > 1 else 1
        paths = _matching_paths(cursor, run_id, wanted, min_parts=required)
        if paths:
            cursor.execute(
                f"SELECT id, layer, is_test FROM rag_item WHERE {where} AND path = ANY(%s) AND start_line <= %s AND end_line >= %s "
                "LIMIT 50",
                [*args, paths, frame.line, frame.line],
            )
            add(cursor.fetchall(), params.frame_tier)
    ranked = sorted(tiers.items(), key=lambda kv: (-kv[1][0], -kv[1][1], kv[0]))
    return [found[item_id] for item_id, _ in ranked[: params.candidates]]


# Folders of examples, tutorials, documentation and benchmarks: code, but not the project's own.
AUXILIARY_FOLDERS = re.compile(r"(?:^|/)(?:examples?|tutorials?|galler(?:y|ies)|docs?|benchmarks?|asv_bench)/", re.IGNORECASE)


# Code the project carries but did not write (GitHub Linguist's "vendored" files): folders of
# other projects' code, minified assets and versioned copies of libraries (``jquery-3.5.1.js``).
# Now that their languages are parsed, they would otherwise rank as the project's own code.
VENDORED = re.compile(
    r"(?:^|/)(?:vendor(?:ed|s)?|third[_-]?party|node_modules|bower_components)/"
    r"|\.min\.(?:js|css|mjs)$"
    r"|(?:^|/)[^/]*?[-.]v?\d+\.\d+(?:\.\d+)*(?:[-.][a-z0-9]+)?(?:\.min)?\.(?:js|mjs|css)$",
    re.IGNORECASE,
)


def is_vendored(path: str) -> bool:
    return bool(VENDORED.search(path))


def _path_prior(path: str, window: bool, hints: QueryHints, params: RankingParams) -> float:
    """Multiplier for an item or file by what kind of file it is (see ``window_weight`` and ``example_penalty``).

    ``window``: the file weighs as plain windows (``GroupStatistics.window_files``, vendored files included).
    """
    prior = params.window_weight if window else 1.0
    if params.example_penalty != 1.0 and AUXILIARY_FOLDERS.search(path) and not hints.about_examples:
        prior *= params.example_penalty
    return prior


_INSTALLED = re.compile(r"/(?:site|dist)-packages/")


def _like_escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _matching_paths(cursor, run_id: int, wanted: str, *, min_parts: int) -> list[str]:
    """Indexed paths sharing the longest trailing run of components with ``wanted`` (at least ``min_parts``)."""
    parts = [p for p in wanted.replace("\\", "/").split("/") if p and p != "."]
    if len(parts) < min_parts or not parts:
        return []
    cursor.execute(
        "SELECT DISTINCT path FROM rag_item WHERE run_id = %s AND (path = %s OR reverse(path) LIKE %s) LIMIT 500",
        [run_id, parts[-1], _like_escape(("/" + parts[-1])[::-1]) + "%"],
    )
    best: list[str] = []
    best_score = 0
    for (path,) in cursor.fetchall():
        candidate = path.split("/")
        score = 0
        while score < min(len(candidate), len(parts)) and candidate[-1 - score] == parts[-1 - score]:
            score += 1
        if score > best_score:
            best, best_score = [path], score
        elif score == best_score:
            best.append(path)
    return best if best_score >= min_parts else []


def _fetch(cursor, run_id: int, ids: Sequence[int]) -> dict[int, tuple]:
    if not ids:
        return {}
    cursor.execute(
        "SELECT id, path, title, content, metadata, start_line, end_line FROM rag_item "
        "WHERE run_id = %s AND id = ANY(%s)",
        [run_id, list(ids)],
    )
    return {row[0]: row for row in cursor.fetchall()}


def _query_vector(run: IndexRun, query: str, notes: list[str]):
    if not run.embedder or not run.embedding_dimension:
        if run.embedding_error:
            notes.append("this index has no vectors (embedding failed when it was built)")
        return None
    embedder = embedder_for_index(run.embedder, run.embedding_dimension)
    if embedder is None:
        notes.append(f"the embedder that built this index ({run.embedder}) is not available; lexical search only")
        return None
    try:
        return embedder.embed([query])[0]
    except Exception as exc:
        notes.append(f"query embedding failed ({exc}); lexical search only")
        return None


def _search_group(
    run: IndexRun, terms: Mapping[str, QueryTerm], hints: QueryHints, layers: Sequence[str], path_regex: str | None, docs: bool,
    vector, limit: int, params: RankingParams,
) -> tuple[list[SearchResult], bool, list[str]]:
    """Fused results of one layer group, whether any lexical or symbol match was among them, and the whole-file ranking."""
    with connection.cursor() as cursor:
        file_ranking: list[str] = []
        if params.lexical_scoring == "bm25":
            lexical, file_ranking = _lexical_bm25(cursor, run, layers, path_regex, docs, terms, params, hints)
        else:
            lexical = _lexical(cursor, run, layers, path_regex, docs, list(terms), params)
        channels: dict[str, list[tuple[int, str, bool]]] = {
            "lexical": lexical,
            "symbol": _symbol(cursor, run.pk, layers, path_regex, docs, hints, params),
        }
        if vector is not None:
            channels["vector"] = _vector(cursor, run, layers, path_regex, docs, vector, params)
        weights = {"lexical": params.weight_lexical, "vector": params.weight_vector, "symbol": params.weight_symbol}
        fused: dict[int, float] = {}
        ranks: dict[int, dict[str, int]] = {}
        for channel, rows in channels.items():
            for rank, (item_id, layer, is_test) in enumerate(rows, start=1):
                if item_id not in fused:
                    prior = params.layer_weights.get(layer, 1.0)
                    if is_test:
                        prior *= params.test_penalty_about_tests if hints.about_tests else params.test_penalty
                    fused[item_id] = 0.0
                    ranks[item_id] = {"_prior": prior}
                fused[item_id] += weights[channel] / (params.rrf_k + rank)
                ranks[item_id][channel] = rank
        if (params.window_weight != 1.0 or params.example_penalty != 1.0) and fused and not docs:
            windows = group_statistics(cursor, run.pk, tuple(layers), docs).window_files
            cursor.execute("SELECT id, path FROM rag_item WHERE run_id = %s AND id = ANY(%s)", [run.pk, list(fused)])
            for item_id, path in cursor.fetchall():
                ranks[item_id]["_prior"] *= _path_prior(path, path in windows, hints, params)
        scored = sorted(((score * ranks[i].pop("_prior"), i) for i, score in fused.items()), key=lambda p: (-p[0], p[1]))
        top = scored[:limit]
        # Only the items that make the cut are read in full (their content can be large).
        rows = _fetch(cursor, run.pk, [item_id for _, item_id in top])
    results: list[SearchResult] = []
    for score, item_id in top:
        row = rows.get(item_id)
        if row is None:
            continue
        _, path, title, content, metadata, start, end = row
        layer = next(layer for rows_ in channels.values() for (i, layer, _) in rows_ if i == item_id)
        results.append(
            SearchResult(
                id=item_id, path=path, layer=layer, title=title, content=content,
                # Django's connections load jsonb as text (JSONField decodes it); raw SQL decodes here.
                metadata=json.loads(metadata) if isinstance(metadata, str) else metadata,
                score=score, start_line=start, end_line=end, channels=ranks[item_id],
            )
        )
    results.sort(key=lambda r: (-r.score, r.path, r.start_line))
    return results, bool(channels["lexical"] or channels["symbol"]), file_ranking


def search(
    repository: Repository,
    query: str,
    *,
    mode: Mode = "auto",
    layers: Sequence[str] | None = None,
    path_glob: str | None = None,
    limit: int = DEFAULT_LIMIT,
    params: RankingParams = DEFAULT_PARAMS,
    run: IndexRun | None = None,
) -> SearchResponse:
    """Hybrid search of the repository's active index (or ``run``).

    ``mode``: ``code`` searches C0-C3, ``docs`` D0, ``auto`` picks code when
    the query has code hints and docs otherwise, falling back to the other
    when the first finds nothing. ``layers`` overrides the mode's layers.
    ``path_glob`` keeps items whose path matches (``rag/**/*.py``, ``*.md``).
    Raises ``SearchError`` on bad input.
    """
    query = (query or "").strip()
    if not query:
        raise SearchError("the query is empty")
    if mode not in ("code", "docs", "auto"):
        raise SearchError("mode must be code, docs or auto")
    if not 1 <= int(limit) <= 200:
        raise SearchError("limit must be between 1 and 200")
    run = run or repository.active_run
    if run is None:
        return SearchResponse([], mode, (), False, ["the repository has no ready index yet"])
    # Version and environment reports pasted into issues say nothing about where the problem is.
    matched_text = (without_boilerplate(query) or query) if params.strip_boilerplate else query
    hints = query_hints(matched_text)
    occurrences = lexical_words(matched_text, limit=params.max_query_words, repeats=True)
    terms = query_terms(matched_text, params.max_query_words, words=occurrences)
    path_regex = glob_to_regex(path_glob) if path_glob else None
    notes: list[str] = []
    vector = _query_vector(run, matched_text, notes)

    results: list[SearchResult] = []
    used: tuple[str, ...] = ()
    file_ranking: list[str] = []
    if layers:
        chosen = _layers_for(mode, layers)
        for docs, group in ((True, [l for l in chosen if l in DOC_LAYERS]), (False, [l for l in chosen if l in CODE_LAYERS])):
            if group:
                results.extend(_search_group(run, terms, hints, group, path_regex, docs, vector, limit, params)[0])
        results.sort(key=lambda r: (-r.score, r.path, r.start_line))
        results, used = results[:limit], tuple(chosen)
    else:
        # Vector search always returns neighbours, so "found nothing" means no
        # full-text or symbol match: then the other group is tried, and kept
        # when it does match.
        if mode == "auto":
            plans = [CODE_LAYERS, DOC_LAYERS] if hints.has_code else [DOC_LAYERS, CODE_LAYERS]
        else:
            plans = [_layers_for(mode, None)]
        fallback: tuple[list[SearchResult], tuple[str, ...]] | None = None
        for i, plan in enumerate(plans):
            found, matched, files = _search_group(run, terms, hints, plan, path_regex, plan == DOC_LAYERS, vector, limit, params)
            if matched or (i + 1 == len(plans) and fallback is None):
                results, used, file_ranking = found, tuple(plan), files
                break
            if fallback is None and found:
                fallback = (found, tuple(plan), files)
            if i + 1 < len(plans):
                notes.append("no match in the " + ("code" if plan == CODE_LAYERS else "docs") + "; searched the other layers")
        else:
            if fallback is not None:
                results, used, file_ranking = fallback
    resolved_mode = mode if mode != "auto" else ("docs" if used == DOC_LAYERS else "code")
    return SearchResponse(
        results, resolved_mode, used, vector is not None, notes, file_ranking, hints, run.pk, frozenset(occurrences)
    )


def rank_files(
    items: Sequence[SearchResult],
    *,
    limit: int = 10,
    params: RankingParams = DEFAULT_PARAMS,
    file_ranking: Sequence[str] = (),
) -> list[FileScore]:
    """Files ranked from retrieved items: item scores summed with geometrically decaying weights.

    ``file_ranking`` (a search's whole-file full-text ranking) adds
    ``weight_file_lexical / (file_rrf_k + rank)`` to the files that have a retrieved item.
    """
    by_path: dict[str, list[SearchResult]] = {}
    for item in items:
        by_path.setdefault(item.path, []).append(item)
    file_rank = {path: rank for rank, path in enumerate(file_ranking, start=1)} if params.weight_file_lexical else {}
    scored = []
    for path, group in by_path.items():
        group.sort(key=lambda r: -r.score)
        score = sum(r.score * params.file_decay**i for i, r in enumerate(group))
        if path in file_rank:
            score += params.weight_file_lexical / (params.file_rrf_k + file_rank[path])
        scored.append(FileScore(path=path, score=score, best=group[0]))
    for path, rank in file_rank.items():
        if path not in by_path and rank <= params.file_only_depth:
            scored.append(FileScore(path=path, score=params.weight_file_lexical / (params.file_rrf_k + rank), best=None))
    scored.sort(key=lambda f: (-f.score, f.path))
    return scored[:limit]

"""A search: the query read once, its layer groups searched through the three channels, fused, read in full.

``search`` reads the query's hints and words, embeds it, and searches the
code or docs layers (falling back to the other group when the first has no
full-text or symbol match); each group's channels are fused
(``rag.services.retrieval.fusion``) and only the items that make the cut are
read in full.
"""

from __future__ import annotations

import json
from dataclasses import replace
from collections.abc import Mapping, Sequence

from django.db import connection

from database_pool import beside_pays, run_beside
from rag.models import CODE_LAYERS, DOC_LAYERS, IndexRun, Repository
from rag.query_analysis import QueryHints, lexical_words, query_hints, without_boilerplate
from rag.services.retrieval.fusion import fuse, path_prior
from rag.services.retrieval.lexical import QueryTerm, group_statistics, lexical_bm25, lexical_ts_rank, query_terms
from rag.services.retrieval.params import (
    DEFAULT_LIMIT,
    DEFAULT_PARAMS,
    Mode,
    RankingParams,
    SearchError,
    glob_to_regex,
    layers_for,
)
from rag.services.retrieval.results import SearchResponse, SearchResult, WholeFiles
from rag.services.retrieval.symbols import symbol_matches
from rag.services.retrieval.templates import issue_template_lines
from rag.services.retrieval.vector import nearest_items, query_vector


def _fetch(cursor, run, ids: Sequence[int]) -> dict[int, tuple]:
    if not ids:
        return {}
    cursor.execute(
        "SELECT id, path, title, content, metadata, start_line, end_line FROM rag_item "
        "WHERE store_id = %s AND id = ANY(%s)",
        [run.store_id, list(ids)],
    )
    return {row[0]: row for row in cursor.fetchall()}


def _search_group(
    run: IndexRun, terms: Mapping[str, QueryTerm], hints: QueryHints, layers: Sequence[str], path_regex: str | None, docs: bool,
    vector, limit: int, params: RankingParams, *, only_matched: bool = False,
) -> tuple[list[SearchResult], bool, WholeFiles] | None:
    """Fused results of one layer group, whether any lexical or symbol match was among them, and the whole-file ranking.

    ``only_matched``: None when nothing matched, without reading the items, and without the vector
    search unless it already runs beside the others (its result is then left unread).
    """
    # The vector and symbol channels need nothing of the lexical one: where that pays, their
    # statements run on other connections meanwhile.
    nearest = named = None
    if beside_pays():
        if vector is not None:
            nearest = run_beside(nearest_items, run, layers, path_regex, docs, vector, params)
        if hints.has_code:
            named = run_beside(symbol_matches, run, layers, path_regex, docs, hints, params)
    with connection.cursor() as cursor:
        whole_files = WholeFiles()
        if params.lexical_scoring == "bm25":
            lexical, whole_files = lexical_bm25(cursor, run, layers, path_regex, docs, terms, params, hints)
        else:
            lexical = lexical_ts_rank(cursor, run, layers, path_regex, docs, list(terms), params)
        channels: dict[str, list[tuple[int, str, bool]]] = {
            "lexical": lexical,
            "symbol": named.result() if named else symbol_matches(run, layers, path_regex, docs, hints, params),
        }
        if only_matched and not (channels["lexical"] or channels["symbol"]):
            return None
        if vector is not None:
            channels["vector"] = nearest.result() if nearest else nearest_items(run, layers, path_regex, docs, vector, params)
        fused, priors, ranks = fuse(channels, hints, params)
        if (params.window_weight != 1.0 or params.example_penalty != 1.0) and fused and not docs:
            statistics = group_statistics(cursor, run, tuple(layers), docs)
            windows = statistics.window_files
            for item_id, path in zip(fused, statistics.table.path_of(list(fused))):
                priors[item_id] *= path_prior(path, path in windows, hints, params, auxiliary=statistics.is_auxiliary(path))
        scored = sorted(((score * priors[i], i) for i, score in fused.items()), key=lambda p: (-p[0], p[1]))
        top = scored[:limit]
        # Only the items that make the cut are read in full (their content can be large).
        rows = _fetch(cursor, run, [item_id for _, item_id in top])
    # Each result's layer, as the first channel that found it gives it.
    layers_of: dict[int, str] = {}
    for channel_rows in channels.values():
        for item_id, layer, _ in channel_rows:
            if item_id in rows:
                layers_of.setdefault(item_id, layer)
    results: list[SearchResult] = []
    for score, item_id in top:
        row = rows.get(item_id)
        if row is None:
            continue
        _, path, title, content, metadata, start, end = row
        layer = layers_of[item_id]
        results.append(
            SearchResult(
                id=item_id, path=path, layer=layer, title=title, content=content,
                # Django's connections load jsonb as text (JSONField decodes it); raw SQL decodes here.
                metadata=json.loads(metadata) if isinstance(metadata, str) else metadata,
                score=score, start_line=start, end_line=end, channels=ranks[item_id],
            )
        )
    results.sort(key=lambda r: (-r.score, r.path, r.start_line))
    return results, bool(channels["lexical"] or channels["symbol"]), whole_files


def _other_searched(plan: Sequence[str]) -> str:
    return "no match in the " + ("code" if tuple(plan) == CODE_LAYERS else "docs") + "; searched the other layers"


def _merged(groups: Sequence[list[SearchResult]], limit: int) -> list[SearchResult]:
    """Two layer groups' results as one list: each result scored by its share of its group's best score (their
    channels rank each group apart, so raw scores do not compare), the first group's first on a tie."""
    keyed = []
    for order, results in enumerate(groups):
        best = max((result.score for result in results), default=0.0) or 1.0
        keyed.extend(((-result.score / best, order, position), result) for position, result in enumerate(results))
    keyed.sort(key=lambda pair: pair[0])
    return [replace(result, score=-key[0]) for key, result in keyed[:limit]]


def _unmatched(search_plan, plans: Sequence[Sequence[str]], notes: list[str]) -> tuple[list[SearchResult], tuple[str, ...], WholeFiles]:
    """Neither group matched a word or a name: the first group's vector neighbours, else the other's."""
    notes.append(_other_searched(plans[0]))
    for plan in plans:
        found, _, files = search_plan(plan)
        if found:
            return found, tuple(plan), files
    return [], tuple(plans[-1]), WholeFiles()


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
    # Version and environment reports pasted into issues, and the lines of the repository's issue templates,
    # say nothing about where the problem is.
    matched_text = (without_boilerplate(query, issue_template_lines(run)) or query) if params.strip_boilerplate else query
    hints = query_hints(matched_text)
    occurrences = lexical_words(matched_text, limit=params.max_query_words, repeats=True)
    terms = query_terms(matched_text, params.max_query_words, words=occurrences)
    path_regex = glob_to_regex(path_glob) if path_glob else None
    notes: list[str] = []
    vector = query_vector(run, matched_text, notes)

    results: list[SearchResult] = []
    used: tuple[str, ...] = ()
    whole_files = WholeFiles()
    if layers:
        chosen = layers_for(mode, layers)
        for docs, group in ((True, [l for l in chosen if l in DOC_LAYERS]), (False, [l for l in chosen if l in CODE_LAYERS])):
            if group:
                results.extend(_search_group(run, terms, hints, group, path_regex, docs, vector, limit, params)[0])
        results.sort(key=lambda r: (-r.score, r.path, r.start_line))
        results, used = results[:limit], tuple(chosen)
    else:
        def search_plan(plan, only_matched: bool = False):
            return _search_group(
                run, terms, hints, plan, path_regex, plan == DOC_LAYERS, vector, limit, params, only_matched=only_matched
            )

        if mode == "auto" and not hints.has_code:
            # A question in words may be about the code or its docs: both are searched, and merged when both match.
            code, docs = search_plan(CODE_LAYERS, only_matched=True), search_plan(DOC_LAYERS, only_matched=True)
            if code and docs:
                # The code's first on a tie: a repository's changelog matches every word of a question about its code.
                results, used, whole_files = _merged([code[0], docs[0]], limit), (*CODE_LAYERS, *DOC_LAYERS), code[2]
            elif code or docs:
                results, _, whole_files = code or docs
                used = CODE_LAYERS if code else DOC_LAYERS
                notes.append(_other_searched(DOC_LAYERS if code else CODE_LAYERS))
            else:
                results, used, whole_files = _unmatched(search_plan, (DOC_LAYERS, CODE_LAYERS), notes)
        else:
            # Names and paths are the code's: in ``auto`` a query with code hints searches the docs only when
            # the code has no match. Vector search always returns neighbours, so "found nothing" means no
            # full-text or symbol match: then the other group is tried, and kept when it does match. A group
            # without a match is the answer only when the other has none either and its own vector neighbours
            # are not empty: until then its vector search waits.
            plans = [CODE_LAYERS, DOC_LAYERS] if mode == "auto" else [layers_for(mode, None)]
            unmatched: list[tuple[str, ...]] = []
            for i, plan in enumerate(plans):
                last = i + 1 == len(plans)
                searched = search_plan(plan, only_matched=not last)
                if searched is not None:
                    found_items, matched_any, files = searched
                    if matched_any or not unmatched:
                        results, used, whole_files = found_items, tuple(plan), files
                        break
                    earlier, _, earlier_files = search_plan(unmatched[0])
                    if earlier:
                        results, used, whole_files = earlier, tuple(unmatched[0]), earlier_files
                    else:
                        results, used, whole_files = found_items, tuple(plan), files
                    break
                unmatched.append(plan)
                notes.append(_other_searched(plan))
    resolved_mode = mode if mode != "auto" else ("docs" if used == DOC_LAYERS else "code" if used == CODE_LAYERS else "auto")
    return SearchResponse(
        results, resolved_mode, used, vector is not None, notes, whole_files.paths, hints, run, frozenset(occurrences),
        whole_files.title_scores,
    )

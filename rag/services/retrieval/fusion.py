"""How the channels' rankings become one: weighted reciprocal rank fusion with priors, and files ranked from items.

An item's fused score is the sum over the channels that found it of
``weight / (rrf_k + rank)``, times its priors: its layer's weight, the
test-file penalty, and the kind of file it is in (``path_prior``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from rag.query_analysis import AUXILIARY_FOLDER_NAMES, QueryHints
from rag.services.retrieval.params import DEFAULT_PARAMS, RankingParams
from rag.services.retrieval.results import FileScore, SearchResult

# One channel's ranking: (item id, layer, is_test) rows, best first.
ChannelRows = Sequence[tuple[int, str, bool]]


# Files in folders of examples, tutorials, documentation and benchmarks: code, but not the project's own.
AUXILIARY_FOLDERS = re.compile(rf"(?:^|/)(?:{AUXILIARY_FOLDER_NAMES})/", re.IGNORECASE)


def path_prior(path: str, window: bool, hints: QueryHints, params: RankingParams, *, auxiliary: bool | None = None) -> float:
    """Multiplier for an item or file by what kind of file it is (see ``window_weight`` and ``example_penalty``).

    ``window``: the file weighs as plain windows (``GroupStatistics.window_files``, vendored files included).
    ``auxiliary``: whether ``AUXILIARY_FOLDERS`` matches the path, when the caller knows (``GroupStatistics.is_auxiliary``).
    """
    prior = params.window_weight if window else 1.0
    if params.example_penalty != 1.0 and not hints.about_examples:
        if AUXILIARY_FOLDERS.search(path) if auxiliary is None else auxiliary:
            prior *= params.example_penalty
    return prior


def fuse(
    channels: Mapping[str, ChannelRows], hints: QueryHints, params: RankingParams
) -> tuple[dict[int, float], dict[int, float], dict[int, dict[str, int]]]:
    """Per item: its summed reciprocal ranks, its prior (layer and test file), and its rank in each channel."""
    weights = {"lexical": params.weight_lexical, "vector": params.weight_vector, "symbol": params.weight_symbol}
    fused: dict[int, float] = {}
    priors: dict[int, float] = {}
    ranks: dict[int, dict[str, int]] = {}
    for channel, rows in channels.items():
        for rank, (item_id, layer, is_test) in enumerate(rows, start=1):
            if item_id not in fused:
                prior = params.layer_weights.get(layer, 1.0)
                if is_test:
                    prior *= params.test_penalty_about_tests if hints.about_tests else params.test_penalty
                fused[item_id] = 0.0
                priors[item_id] = prior
                ranks[item_id] = {}
            fused[item_id] += weights[channel] / (params.rrf_k + rank)
            ranks[item_id][channel] = rank
    return fused, priors, ranks


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

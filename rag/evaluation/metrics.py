"""File-level localization metrics.

An instance is a hit at k only when ALL of its gold files are among the first
k distinct files; MRR uses the rank of the first gold file found (0 when none is).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

CUTOFFS = (1, 3, 5, 10)


@dataclass(frozen=True)
class Ranked:
    """One instance's ranking reduced to what the metrics need."""

    repo: str
    gold_ranks: dict[str, int | None]
    language: str = ""
    # Whether the instance's fix edits an existing function or class (``Instance.edits_function``); None: not known.
    edits_function: bool | None = None

    @property
    def all_gold_rank(self) -> int | None:
        """Rank by which every gold file has appeared, or None when one never does."""
        ranks = list(self.gold_ranks.values())
        if not ranks or any(rank is None for rank in ranks):
            return None
        return max(rank for rank in ranks if rank is not None)

    @property
    def first_gold_rank(self) -> int | None:
        found = [rank for rank in self.gold_ranks.values() if rank is not None]
        return min(found) if found else None


def editing_functions(ranked: Iterable[Ranked]) -> list[Ranked]:
    """The rankings of instances whose fix edits an existing function or class: the subset SweRank and
    LocAgent report SWE-bench Lite on."""
    return [r for r in ranked if r.edits_function]


@dataclass(frozen=True)
class Scores:
    count: int
    accuracy: dict[int, float]
    mrr: float


def gold_ranks(ranked_files: Sequence[str], gold_files: Iterable[str]) -> dict[str, int | None]:
    """1-based rank of each gold file among the distinct files of ``ranked_files``."""
    positions: dict[str, int] = {}
    for path in ranked_files:
        if path not in positions:
            positions[path] = len(positions) + 1
    return {path: positions.get(path) for path in gold_files}


def score(rankings: Sequence[Ranked], cutoffs: Sequence[int] = CUTOFFS) -> Scores:
    count = len(rankings)
    if not count:
        return Scores(count=0, accuracy={k: 0.0 for k in cutoffs}, mrr=0.0)
    accuracy = {}
    for k in cutoffs:
        hits = sum(1 for ranked in rankings if ranked.all_gold_rank is not None and ranked.all_gold_rank <= k)
        accuracy[k] = hits / count
    reciprocal = sum(1.0 / ranked.first_gold_rank for ranked in rankings if ranked.first_gold_rank)
    return Scores(count=count, accuracy=accuracy, mrr=reciprocal / count)


def score_by(
    rankings: Sequence[Ranked], key: Callable[[Ranked], str], cutoffs: Sequence[int] = CUTOFFS
) -> dict[str, Scores]:
    """Scores per value of ``key`` (a repository, a language), in name order."""
    groups: dict[str, list[Ranked]] = {}
    for ranked in rankings:
        groups.setdefault(key(ranked), []).append(ranked)
    return {name: score(groups[name], cutoffs) for name in sorted(groups)}


def score_by_repository(rankings: Sequence[Ranked], cutoffs: Sequence[int] = CUTOFFS) -> dict[str, Scores]:
    """Scores per repository, in repository-name order."""
    return score_by(rankings, lambda ranked: ranked.repo, cutoffs)


def score_by_language(rankings: Sequence[Ranked], cutoffs: Sequence[int] = CUTOFFS) -> dict[str, Scores]:
    """Scores per language, in language-name order."""
    return score_by(rankings, lambda ranked: ranked.language, cutoffs)

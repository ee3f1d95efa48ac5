"""Cross-validation grouped by repository: parameters chosen on some repositories, reported on the others.

Issues of one repository share its vocabulary and layout, so a configuration
tuned on some of a repository's issues is not tested by others of the same
repository. Folds are therefore whole repositories: in each fold the
candidate with the best training score is chosen on the other folds'
repositories only, and its rankings of the held-out repositories are the
figures reported. Pooled over the folds, every instance is scored by a
configuration chosen without its repository.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from rag.evaluation.metrics import Ranked, Scores, score
from rag.evaluation.runner import InstanceResult

# How a training score is read: MRR first (it moves with every rank, not only at a cutoff),
# then the two targets' cutoffs; a tie keeps the earlier candidate (the defaults come first).
SELECTION_CRITERION = "MRR, then Acc@1, then Acc@5"


class CrossValidationError(ValueError):
    """The folds cannot be made as asked; the message says why."""


@dataclass(frozen=True)
class Fold:
    number: int
    held_out: tuple[str, ...]
    chosen: str
    # The chosen candidate's score on the training repositories (what it was chosen by).
    train_scores: Scores
    held_out_rankings: tuple[Ranked, ...]
    # BM25 on the same held-out instances, when it ran.
    baseline_rankings: tuple[Ranked, ...] | None


def assign_folds(repository_sizes: Mapping[str, int], folds: int | None) -> list[tuple[str, ...]]:
    """Repositories split into ``folds`` groups (``None``: one repository per fold), each in exactly one.

    Largest repositories first, each to the group with the fewest instances so far (ties: the
    lower group), so the groups are about even in instances and the split is the same every run.
    """
    repositories = sorted(repository_sizes, key=lambda repo: (-repository_sizes[repo], repo))
    count = len(repositories) if folds is None else folds
    if len(repositories) < 2:
        raise CrossValidationError("cross-validation by repository needs instances of at least two repositories")
    if not 2 <= count <= len(repositories):
        raise CrossValidationError(
            f"{count} folds cannot be made from {len(repositories)} repositories (2 to {len(repositories)})"
        )
    groups: list[list[str]] = [[] for _ in range(count)]
    sizes = [0] * count
    for repo in repositories:
        target = min(range(count), key=lambda index: (sizes[index], index))
        groups[target].append(repo)
        sizes[target] += repository_sizes[repo]
    return [tuple(sorted(group)) for group in groups]


def choose_candidate(rankings: Mapping[str, Sequence[Ranked]]) -> tuple[str, Scores]:
    """The candidate (in the mapping's order) with the best training score, and that score."""
    best: tuple[str, Scores] | None = None
    for name, ranked in rankings.items():
        scores = score(ranked)
        if best is None or _criterion(scores) > _criterion(best[1]):
            best = (name, scores)
    if best is None:
        raise CrossValidationError("no candidate to choose from")
    return best


def _criterion(scores: Scores) -> tuple[float, float, float]:
    return (scores.mrr, scores.accuracy[1], scores.accuracy[5])


def cross_validate(results: Sequence[InstanceResult], candidates: Sequence[str], folds: int | None) -> list[Fold]:
    """Per fold: the candidate chosen on the other folds' repositories, scored on the fold's own."""
    if not candidates:
        raise CrossValidationError("no candidate to choose from")
    sizes: dict[str, int] = {}
    for result in results:
        sizes[result.instance.repo] = sizes.get(result.instance.repo, 0) + 1
    with_baseline = bool(results) and all(result.baseline_top_files is not None for result in results)
    report: list[Fold] = []
    for number, held_out in enumerate(assign_folds(sizes, folds), start=1):
        test = [result for result in results if result.instance.repo in held_out]
        train = [result for result in results if result.instance.repo not in held_out]
        training = {name: [result.ranked(name) for result in train] for name in candidates}
        chosen, train_scores = choose_candidate(training)
        baseline = None
        if with_baseline:
            baseline = tuple(ranked for ranked in (result.baseline_ranked() for result in test) if ranked is not None)
        report.append(
            Fold(
                number=number,
                held_out=held_out,
                chosen=chosen,
                train_scores=train_scores,
                held_out_rankings=tuple(result.ranked(chosen) for result in test),
                baseline_rankings=baseline,
            )
        )
    return report


def fold_count(text: str) -> int | None:
    """``--cv`` as given: a number of folds, or ``loo`` for one repository per fold (``None``)."""
    if text.strip().lower() == "loo":
        return None
    try:
        count = int(text)
    except ValueError:
        raise CrossValidationError(f"--cv takes a number of folds or loo, not {text!r}") from None
    if count < 2:
        raise CrossValidationError("--cv needs at least 2 folds")
    return count

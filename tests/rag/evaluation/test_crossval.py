"""Folds by repository and the choice of a candidate on training folds, over hand-made rankings."""

from __future__ import annotations

import pytest

from rag.evaluation.crossval import (
    CrossValidationError,
    assign_folds,
    choose_candidate,
    cross_validate,
    fold_count,
)
from rag.evaluation.dataset import Instance
from rag.evaluation.metrics import Ranked
from rag.evaluation.report import cross_validation_table
from rag.evaluation.runner import InstanceResult

SIZES = {"o/alpha": 9, "o/beta": 5, "o/gamma": 4, "o/delta": 3, "o/eps": 1}


def test_each_repository_lands_in_exactly_one_fold_and_folds_are_about_even():
    folds = assign_folds(SIZES, 2)
    assert sorted(repo for fold in folds for repo in fold) == sorted(SIZES)
    assert set(folds[0]).isdisjoint(folds[1])
    # Largest first into the lighter fold: alpha | beta, gamma; then delta joins alpha, eps the other.
    assert folds == [("o/alpha", "o/delta"), ("o/beta", "o/eps", "o/gamma")]
    assert assign_folds(SIZES, 2) == folds


def test_leave_one_out_gives_one_repository_per_fold():
    folds = assign_folds(SIZES, None)
    assert sorted(folds) == sorted((repo,) for repo in SIZES)


@pytest.mark.parametrize(("sizes", "folds", "message"), [
    ({"o/alpha": 3}, 2, "at least two repositories"),
    (SIZES, 6, "6 folds cannot be made from 5 repositories"),
])
def test_impossible_folds_are_refused(sizes, folds, message):
    with pytest.raises(CrossValidationError, match=message):
        assign_folds(sizes, folds)


def test_the_fold_count_is_a_number_of_at_least_two_or_loo():
    assert fold_count("5") == 5
    assert fold_count("LOO") is None
    for bad in ("1", "five"):
        with pytest.raises(CrossValidationError):
            fold_count(bad)


def test_the_best_training_mrr_wins_and_a_tie_keeps_the_earlier_candidate():
    first = [Ranked("o/a", {"x.py": 2})]
    better = [Ranked("o/a", {"x.py": 1})]
    assert choose_candidate({"defaults": first, "other": better})[0] == "other"
    assert choose_candidate({"defaults": better, "other": list(better)})[0] == "defaults"


def _result(repo: str, number: int, ranks: dict[str, int]) -> InstanceResult:
    """An instance whose gold file ``gold.py`` each candidate ranks at the given position."""
    instance = Instance(f"{repo}-{number}", repo, "0" * 40, "query", ("gold.py",), repo.replace("/", "+"), language="Go")
    files = {name: [f"other{i}.py" for i in range(1, rank)] + ["gold.py"] for name, rank in ranks.items()}
    first = next(iter(files.values()))
    return InstanceResult(instance, top_files=first, candidate_files=files, baseline_top_files=["gold.py"])


def test_the_candidate_is_chosen_on_the_training_repositories_only():
    # "wide" is better on alpha and beta, "narrow" only on gamma: held out, gamma must get "wide"
    # (what the other repositories chose) and report its worse figures there.
    results = [
        *(_result("o/alpha", n, {"defaults": 3, "wide": 1, "narrow": 4}) for n in range(3)),
        *(_result("o/beta", n, {"defaults": 3, "wide": 1, "narrow": 4}) for n in range(2)),
        *(_result("o/gamma", n, {"defaults": 3, "wide": 5, "narrow": 1}) for n in range(4)),
    ]
    folds = cross_validate(results, ["defaults", "wide", "narrow"], None)
    by_held_out = {fold.held_out: fold for fold in folds}
    assert set(by_held_out) == {("o/alpha",), ("o/beta",), ("o/gamma",)}
    gamma = by_held_out[("o/gamma",)]
    assert gamma.chosen == "wide"
    assert [ranked.all_gold_rank for ranked in gamma.held_out_rankings] == [5, 5, 5, 5]
    assert gamma.train_scores.count == 5 and gamma.train_scores.mrr == 1.0
    # Held out, alpha gets what beta and gamma together prefer: narrow (MRR 0.75 against wide's 0.47).
    alpha = by_held_out[("o/alpha",)]
    assert alpha.chosen == "narrow"
    assert alpha.train_scores.count == 6
    assert all(ranked.repo == "o/alpha" for ranked in alpha.held_out_rankings)
    assert [ranked.all_gold_rank for ranked in alpha.baseline_rankings] == [1, 1, 1]

    table = cross_validation_table(folds, 3)
    assert "| 1 | o/gamma | wide (1.000) | 4 | 0.0 / 0.0 / 100.0 / 100.0 | 0.200 |" in table
    assert "| **held out** | all |  | 9 |" in table
    assert "| Go | 9 |" in table

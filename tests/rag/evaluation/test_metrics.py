from __future__ import annotations

import pytest

from rag.evaluation.metrics import Ranked, gold_ranks, score, score_by_language, score_by_repository


def test_gold_ranks_count_distinct_files_only():
    ranked = ["a.py", "a.py", "b.py", "c.py", "b.py", "d.py"]
    assert gold_ranks(ranked, ["c.py", "d.py", "zz.py"]) == {"c.py": 3, "d.py": 4, "zz.py": None}


def test_an_instance_hits_only_when_all_gold_files_are_in_the_top_k():
    both = Ranked("o/r", {"a.py": 1, "b.py": 4})
    assert both.all_gold_rank == 4
    assert both.first_gold_rank == 1
    scores = score([both])
    assert scores.accuracy == {1: 0.0, 3: 0.0, 5: 1.0, 10: 1.0}
    assert scores.mrr == 1.0


def test_a_missing_gold_file_is_never_a_hit_but_still_counts_for_mrr():
    partial = Ranked("o/r", {"a.py": 2, "b.py": None})
    scores = score([partial])
    assert scores.accuracy == {1: 0.0, 3: 0.0, 5: 0.0, 10: 0.0}
    assert scores.mrr == pytest.approx(0.5)


def test_accuracy_and_mrr_average_over_instances_and_repositories():
    rankings = [
        Ranked("o/x", {"a.py": 1}),
        Ranked("o/x", {"a.py": 3}),
        Ranked("o/y", {"a.py": 6}),
        Ranked("o/y", {"a.py": None}),
    ]
    overall = score(rankings)
    assert overall.count == 4
    assert overall.accuracy == {1: 0.25, 3: 0.5, 5: 0.5, 10: 0.75}
    assert overall.mrr == pytest.approx((1 + 1 / 3 + 1 / 6) / 4)
    per_repo = score_by_repository(rankings)
    assert list(per_repo) == ["o/x", "o/y"]
    assert per_repo["o/x"].accuracy[3] == 1.0
    assert per_repo["o/y"].mrr == pytest.approx(1 / 12)


def test_scoring_nothing_gives_zeros():
    assert score([]).count == 0
    assert score([]).mrr == 0.0


def test_scores_group_by_language_as_well_as_repository():
    rankings = [
        Ranked("o/gears", {"a.go": 1}, "Go"),
        Ranked("o/cogs", {"a.go": None}, "Go"),
        Ranked("o/bolts", {"A.java": 2}, "Java"),
    ]
    per_language = score_by_language(rankings)
    assert list(per_language) == ["Go", "Java"]
    assert per_language["Go"].count == 2
    assert per_language["Go"].accuracy[1] == 0.5
    assert per_language["Java"].mrr == pytest.approx(0.5)
    assert list(score_by_repository(rankings)) == ["o/bolts", "o/cogs", "o/gears"]

"""The learned file ranking: fitted on rows of candidate files, chosen and scored by folds of whole repositories."""

from __future__ import annotations

import json

import numpy as np
import pytest
from django.core.management import call_command

from rag.evaluation.learning import LearningError, Query, cross_validate, fit, learned_order, load_queries
from rag.services.file_ranker import FEATURES, FileRankerError, FileRankerModel

DEFINES = FEATURES.index("defines_name")
WHOLE_FILE = FEATURES.index("whole_file_rank")


def _query(instance_id: str, repo: str, gold_position: int, candidates: int = 6) -> Query:
    """Candidates in fused order; only the gold file defines a name the query uses, and it sits at ``gold_position``."""
    rows = np.zeros((candidates, len(FEATURES)))
    rows[:, WHOLE_FILE] = [1 / (rank + 1) for rank in range(candidates)]
    rows[gold_position, DEFINES] = 1.0
    paths = tuple(f"{repo}/file{n}.go" for n in range(candidates))
    return Query(instance_id, repo, "Go", (paths[gold_position],), paths, rows)


QUERIES = [_query(f"{repo}-{n}", repo, gold_position=2 + n % 3) for repo in ("a/one", "b/two", "c/three") for n in range(4)]


def test_the_model_learns_what_tells_gold_files_apart_and_ranks_them_first():
    model = fit(QUERIES)

    assert model.weights[DEFINES] > 0
    for query in QUERIES:
        assert learned_order(model, query)[0] == query.paths.index(query.gold_files[0])


def test_fitting_the_same_rows_twice_gives_the_same_weights():
    assert fit(QUERIES).as_json() == fit(list(reversed(QUERIES))).as_json()


def test_rows_without_a_gold_candidate_teach_nothing():
    nothing = Query("x", "a/one", "Go", ("elsewhere.go",), ("a.go", "b.go"), np.zeros((2, len(FEATURES))))
    with pytest.raises(LearningError, match="no instance has both a gold file"):
        fit([nothing])


def test_each_fold_is_ranked_by_a_model_fitted_without_its_repository():
    folds = cross_validate(QUERIES, None)

    assert sorted(fold.held_out for fold in folds) == [("a/one",), ("b/two",), ("c/three",)]
    for fold in folds:
        assert all(ranked.repo in fold.held_out for ranked in fold.learned)
        assert all(ranked.all_gold_rank == 1 for ranked in fold.learned)
        # The fused order put every gold file third to fifth.
        assert all(ranked.all_gold_rank > 1 for ranked in fold.fused)


def test_a_model_of_other_features_is_refused():
    model = fit(QUERIES).as_json()
    model["features"] = model["features"][:-1]
    with pytest.raises(FileRankerError, match="not this ranker's"):
        FileRankerModel.from_json(model)


def test_the_command_prints_held_out_figures_and_writes_a_model_the_product_reads(tmp_path, capsys):
    rows = tmp_path / "features.jsonl"
    rows.write_text("".join(
        json.dumps({"instance_id": q.instance_id, "repo": q.repo, "language": q.language, "gold_files": list(q.gold_files),
                    "candidates": [[p, list(r)] for p, r in zip(q.paths, q.rows.tolist())]}) + "\n"
        for q in QUERIES
    ))
    out = tmp_path / "model.json"

    call_command("rag_train_ranker", str(rows), "--cv", "loo", "--out", str(out))

    printed = capsys.readouterr().out
    assert "| **held out** | all | 12 | 100.0 / 100.0 / 100.0 / 100.0 | 1.000 |" in printed
    assert "| Go | 12 |" in printed
    model = FileRankerModel.from_json(json.loads(out.read_text()))
    assert model.trained_on.startswith("12 instances of 3 repositories")
    assert len(load_queries([rows])) == 12


def test_a_files_name_and_folders_count_by_the_share_of_their_words_the_query_uses():
    from rag.services import SearchResponse
    from rag.services.file_ranker import candidate_features
    from rag.query_analysis import query_hints

    query = "the utc plugin breaks parseZone"
    response = SearchResponse(
        [], "code", (), False, file_ranking=["src/plugin/utc/index.js", "src/parseZone.js", "src/index.js"],
        hints=query_hints(query), words=frozenset({"utc", "plugin", "breaks", "parse", "zone"}),
    )

    rows = {c.path: dict(zip(FEATURES, c.features)) for c in candidate_features(response)}

    assert rows["src/plugin/utc/index.js"]["folder_words"] == pytest.approx(2 / 3)
    assert rows["src/plugin/utc/index.js"]["name_words"] == 0.0
    assert rows["src/parseZone.js"]["name_words"] == 1.0
    assert rows["src/parseZone.js"]["named_in_query"] == 1.0
    assert rows["src/index.js"]["folder_words"] == 0.0
    # Of the first three other files, src/parseZone.js shares src/index.js's folder; none shares utc's.
    assert rows["src/index.js"]["near_top"] == pytest.approx(1 / 3)
    assert rows["src/plugin/utc/index.js"]["near_top"] == 0.0

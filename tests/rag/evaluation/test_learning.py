"""The learned file ranking: fitted on rows of candidate files, chosen and scored by folds of whole repositories."""

from __future__ import annotations

import json

import lightgbm
import numpy as np
import pytest
from django.core.management import call_command

from rag.evaluation.learning import (
    DEFAULT_ROWS,
    TREE_PARAMS,
    LearningError,
    Method,
    Query,
    choose_method,
    cross_validate,
    fit,
    learned_order,
    load_queries,
)
from rag.services.file_ranker import FEATURES, FileRankerError, FileRankerModel, best_first, model_rows

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


def _rows_file(folder, queries: list[Query]):
    """``queries`` as rag_eval --features writes them."""
    rows = folder / "features.jsonl"
    rows.write_text("".join(
        json.dumps({"instance_id": q.instance_id, "repo": q.repo, "language": q.language, "gold_files": list(q.gold_files),
                    "edits_function": q.edits_function,
                    "candidates": [[p, list(r)] for p, r in zip(q.paths, q.rows.tolist())]}) + "\n"
        for q in queries
    ))
    return rows


def test_the_command_prints_held_out_figures_and_writes_a_model_the_product_reads(tmp_path, capsys):
    rows = _rows_file(tmp_path, QUERIES)
    out = tmp_path / "model.json"

    call_command("rag_train_ranker", str(rows), "--cv", "loo", "--l2", "0.05", "--out", str(out))

    printed = capsys.readouterr().out
    assert "| **held out** | all | 12 | 100.0 / 100.0 / 100.0 / 100.0 | 1.000 |" in printed
    assert "| Go | 12 |" in printed
    model = FileRankerModel.from_json(json.loads(out.read_text()))
    assert model.trained_on.startswith("12 instances of 3 repositories; pointwise, relative none, L2 0.05 (given)")
    assert len(load_queries([rows])) == 12


def test_the_held_out_figures_of_instances_whose_fix_edits_a_function_are_printed_apart(tmp_path, capsys):
    # The first instance of each repository is known to add code only: it is left out of the subset's line.
    queries = [
        Query(q.instance_id, q.repo, q.language, q.gold_files, q.paths, q.rows, not q.instance_id.endswith("-0"))
        for q in QUERIES
    ]
    rows = _rows_file(tmp_path, queries)

    call_command("rag_train_ranker", str(rows), "--cv", "loo")

    assert "| **held out** | fix edits an existing function | 9 | 100.0 / 100.0 / 100.0 / 100.0 | 1.000 |" in capsys.readouterr().out
    assert [q.edits_function for q in load_queries([rows])].count(False) == 3


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

    # An index file is called by its folder: "utc" is its name, src/plugin its folders.
    assert rows["src/plugin/utc/index.js"]["name_words"] == 1.0
    assert rows["src/plugin/utc/index.js"]["folder_words"] == pytest.approx(1 / 2)
    assert rows["src/parseZone.js"]["name_words"] == 1.0
    assert rows["src/parseZone.js"]["named_in_query"] == 1.0
    assert rows["src/index.js"]["name_words"] == rows["src/index.js"]["folder_words"] == 0.0
    # Of the first three other files, src/parseZone.js shares src/index.js's folder; none shares utc's.
    assert rows["src/index.js"]["near_top"] == pytest.approx(1 / 3)
    assert rows["src/plugin/utc/index.js"]["near_top"] == 0.0


TIGHT = [Method("pointwise", "none", 0.05), Method("listwise", "rank", 0.05), Method("pairwise", "share_of_max", 0.2)]


@pytest.mark.parametrize("method", TIGHT, ids=str)
def test_every_loss_learns_what_tells_gold_files_apart_and_fits_the_same_weights_twice(method):
    model = fit(QUERIES, method)

    assert model.relative == method.relative
    assert all(learned_order(model, query)[0] == query.paths.index(query.gold_files[0]) for query in QUERIES)
    assert model.as_json() == fit(list(reversed(QUERIES)), method).as_json()


def _scaled_query(instance_id: str, repo: str, gold_position: int, scale: float) -> Query:
    """Only the gold file has the highest whole-file value of its query; a repository's values are all ``scale`` times."""
    rows = np.zeros((5, len(FEATURES)))
    rows[:, WHOLE_FILE] = scale * np.array([0.2, 0.3, 0.1, 0.25, 0.15])
    rows[gold_position, WHOLE_FILE] = scale * 0.5
    paths = tuple(f"{repo}/f{n}.rs" for n in range(5))
    return Query(instance_id, repo, "Rust", (paths[gold_position],), paths, rows)


def test_a_relative_view_compares_candidates_of_one_query_whatever_the_repositorys_values():
    # Only in "small" is 0.4 the best value of a query; in "large" it is the worst.
    small = [_scaled_query(f"small-{n}", "small", n % 5, 0.8) for n in range(6)]
    large = [_scaled_query(f"large-{n}", "large", n % 5, 4.0) for n in range(6)]
    model = fit(small + large, Method("pointwise", "rank", 0.05))

    for query in small + large:
        assert learned_order(model, query)[0] == query.paths.index(query.gold_files[0])


def test_a_model_file_of_a_relative_view_round_trips_and_ranks_as_its_weights_say():
    width = 2 * len(FEATURES)
    weights = [0.0] * width
    weights[len(FEATURES) + WHOLE_FILE] = 1.0  # only the rank of the whole-file value among the query's candidates
    model = FileRankerModel(FEATURES, tuple(weights), (0.0,) * width, (1.0,) * width, relative="rank", trained_on="by hand")
    rows = np.zeros((4, len(FEATURES)))
    rows[:, WHOLE_FILE] = [0.2, 0.0, 0.9, 0.5]

    read = FileRankerModel.from_json(json.loads(json.dumps(model.as_json())))

    assert read == model
    # 1 / (1 + candidates above), 0 where the feature is 0: 1/3, 0, 1, 1/2.
    assert read.scores(rows) == pytest.approx([1 / 3, 0.0, 1.0, 0.5])
    assert best_first(read.scores(rows)) == [2, 3, 0, 1]
    assert model_rows(rows, "rank").shape == (4, width)


def test_a_model_file_of_the_first_form_still_reads_its_features_alone():
    first_form = {
        "features": list(FEATURES), "weights": [0.0] * WHOLE_FILE + [2.0] + [0.0] * (len(FEATURES) - WHOLE_FILE - 1),
        "means": [0.5] * len(FEATURES), "scales": [0.25] * len(FEATURES), "bias": -1.0, "trained_on": "old",
    }
    rows = np.zeros((2, len(FEATURES)))
    rows[:, WHOLE_FILE] = [1.0, 0.25]

    model = FileRankerModel.from_json(first_form)

    assert model.relative == "none"
    assert model.scores(rows) == pytest.approx([-1.0 + 2.0 * (1.0 - 0.5) / 0.25, -1.0 + 2.0 * (0.25 - 0.5) / 0.25])


def test_a_model_file_of_an_unknown_view_or_the_wrong_width_is_refused():
    model = fit(QUERIES, Method("listwise", "rank", 0.05)).as_json()
    with pytest.raises(FileRankerError, match="relative view 'median'"):
        FileRankerModel.from_json({**model, "relative": "median"})
    with pytest.raises(FileRankerError, match=f"needs {2 * len(FEATURES)} weights"):
        FileRankerModel.from_json({**model, "weights": model["weights"][: len(FEATURES)]})


def _poisoned(query: Query) -> Query:
    """The same instance with its gold file moved to a file that defines no name the query uses."""
    wrong = (query.paths.index(query.gold_files[0]) + 1) % len(query.paths)
    return Query(query.instance_id, query.repo, query.language, (query.paths[wrong],), query.paths, query.rows)


def test_nested_cross_validation_chooses_each_folds_method_without_its_repository():
    good = [q for q in QUERIES if q.repo != "c/three"]
    # Many instances of c/three teach the opposite of a/one and b/two: seen in training they would change every fit.
    poisoned = [_poisoned(_query(f"c/three-{n}", "c/three", gold_position=2 + n % 3)) for n in range(16)]
    grid = [Method("pointwise", "none", 1.0), Method("listwise", "none", 0.05), Method("pairwise", "rank", 0.2)]

    folds = {fold.held_out: fold for fold in cross_validate(good + poisoned, None, grid=grid)}

    held_out_c = folds[("c/three",)]
    alone = choose_method(good, grid)
    assert (held_out_c.method, held_out_c.train_scores) == alone
    assert held_out_c.train_scores.mrr == 1.0
    # c/three's instances are ranked by a model that learnt a/one and b/two: every gold file it moved is missed first.
    assert all(ranked.first_gold_rank != 1 for ranked in held_out_c.learned)
    # Folds that train on c/three choose on it, and do worse there.
    assert folds[("a/one",)].train_scores.mrr < 1.0


def _blind(query: Query) -> Query:
    """The same instance as a search that tells nothing of its gold file would row it: the name is defined elsewhere."""
    rows = query.rows.copy()
    rows[:, DEFINES] = np.roll(rows[:, DEFINES], 1)
    return Query(query.instance_id, query.repo, query.language, query.gold_files, query.paths, rows)


def test_each_fold_chooses_the_rows_of_the_search_configuration_that_ranks_its_training_repositories_best():
    # The default search finds the same candidates but tells nothing about them: the name a gold file
    # defines is found in another file. The wider search's rows say which file defines it.
    blind = [_blind(q) for q in QUERIES]
    blind_alone = cross_validate(blind, None, Method())

    folds = cross_validate(blind, None, Method(), alternatives={"wide": QUERIES})

    assert [fold.rows for fold in folds] == ["wide"] * 3
    assert all(ranked.all_gold_rank == 1 for fold in folds for ranked in fold.learned)
    assert not all(ranked.all_gold_rank == 1 for fold in blind_alone for ranked in fold.learned)
    assert [fold.rows for fold in blind_alone] == [DEFAULT_ROWS] * 3


def test_rows_of_other_instances_cannot_be_an_alternative():
    with pytest.raises(LearningError, match="not of the same instances"):
        cross_validate(QUERIES, None, Method(), alternatives={"fewer": QUERIES[:-1]})


def test_the_command_chooses_among_the_rows_given_and_fits_the_model_on_the_chosen_ones(tmp_path, capsys):
    blind = [_blind(q) for q in QUERIES]
    (tmp_path / "blind").mkdir()
    (tmp_path / "wide").mkdir()
    default_rows, wide_rows = _rows_file(tmp_path / "blind", blind), _rows_file(tmp_path / "wide", QUERIES)
    out = tmp_path / "model.json"

    call_command(
        "rag_train_ranker", str(default_rows), "--alternative", f"candidates=120={wide_rows}", "--l2", "0.05",
        "--out", str(out),
    )

    printed = capsys.readouterr().out
    assert "| **held out** | all | 12 | 100.0 / 100.0 / 100.0 / 100.0 | 1.000 |" in printed
    assert "- fold 1 (a/one): candidates=120" in printed
    model = FileRankerModel.from_json(json.loads(out.read_text()))
    assert model.trained_on.endswith("the rows candidates=120, chosen from 2 by cross-validation by repository")
    assert all(best_first(model.scores(q.rows))[0] == q.paths.index(q.gold_files[0]) for q in QUERIES)


TITLE = FEATURES.index("title_match")


def _middle_query(instance_id: str, repo: str, gold_position: int) -> Query:
    """The gold file's title value is the middle one of its query's; the others' lie on both sides of it."""
    rows = np.zeros((6, len(FEATURES)))
    rows[:, WHOLE_FILE] = [1 / (rank + 1) for rank in range(6)]
    others = iter([0.05, 0.15, 0.85, 0.95, 0.1])
    rows[:, TITLE] = [0.5 if position == gold_position else next(others) for position in range(6)]
    paths = tuple(f"{repo}/file{n}.ts" for n in range(6))
    return Query(instance_id, repo, "TypeScript", (paths[gold_position],), paths, rows)


MIDDLE = [_middle_query(f"{repo}-{n}", repo, gold_position=n % 6) for repo in ("a/one", "b/two", "c/three") for n in range(12)]


def test_boosted_trees_rank_first_what_no_weighted_sum_of_the_features_can():
    def first(method: Method) -> int:
        return sum(r.first_gold_rank == 1 for fold in cross_validate(MIDDLE, None, method) for r in fold.learned)

    # A weight on the title value puts one of its ends first; trees split it on both sides of the gold file's.
    assert first(Method(trees=150)) == len(MIDDLE)
    assert first(Method()) < len(MIDDLE) / 2


def test_a_model_with_trees_fits_the_same_twice_round_trips_and_blends_the_two_scores():
    model = fit(MIDDLE, Method(trees=150))
    rows = MIDDLE[0].rows

    read = FileRankerModel.from_json(json.loads(json.dumps(model.as_json())))

    assert model.as_json() == fit(list(reversed(MIDDLE)), Method(trees=150)).as_json()
    # The file keeps six decimals of the linear part, and the trees as LightGBM wrote them.
    assert read.trees == model.trees and read.scores(rows) == pytest.approx(model.scores(rows), abs=1e-4)
    linear = FileRankerModel(FEATURES, model.weights, model.means, model.scales, bias=model.bias)
    scores, linear_scores = np.array(model.scores(rows)), np.array(linear.scores(rows))
    # The mean of two standardised scores: mean 0, and the linear part's share is what is left.
    assert scores.mean() == pytest.approx(0.0, abs=1e-9)
    linear_part = (linear_scores - linear_scores.mean()) / linear_scores.std() / 2
    trees_part = scores - linear_part
    assert trees_part.std() == pytest.approx(0.5)
    assert int(np.argmax(trees_part)) == 0  # the gold file of MIDDLE[0]


def test_a_model_whose_trees_cannot_be_read_or_read_other_features_is_refused():
    model = fit(MIDDLE, Method(trees=150)).as_json()
    with pytest.raises(FileRankerError, match="trees cannot be read"):
        FileRankerModel.from_json({**model, "trees": "not a model"})
    rows = np.vstack([q.rows[:, :-1] for q in MIDDLE])
    labels = np.concatenate([q.labels for q in MIDDLE])
    fewer = lightgbm.train(TREE_PARAMS, lightgbm.Dataset(rows, labels, group=[6] * len(MIDDLE)), 20).model_to_string()
    with pytest.raises(FileRankerError, match=f"not this ranker's {len(FEATURES)}"):
        FileRankerModel.from_json({**model, "trees": fewer})


def test_the_command_fits_trees_when_asked_and_the_product_reads_them(tmp_path, capsys):
    rows = _rows_file(tmp_path, MIDDLE)
    out = tmp_path / "model.json"

    call_command("rag_train_ranker", str(rows), "--trees", "150", "--out", str(out))

    assert "| **held out** | all | 36 | 100.0 / 100.0 / 100.0 / 100.0 | 1.000 |" in capsys.readouterr().out
    model = FileRankerModel.from_json(json.loads(out.read_text()))
    assert model.trained_on.endswith("L2 0.05, 150 rounds of trees (given)")
    assert all(best_first(model.scores(q.rows))[0] == q.paths.index(q.gold_files[0]) for q in MIDDLE)

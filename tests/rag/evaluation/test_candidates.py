from __future__ import annotations

import json

import pytest

from rag.evaluation.candidates import CandidateError, load_candidates, parse_candidates, ranking_params
from rag.services import DEFAULT_PARAMS


def test_a_grid_gives_every_combination_after_the_defaults_without_repeating_them():
    candidates = parse_candidates({"weight_file_lexical": [0.3, 0.5], "test_penalty": [0.4, 1]})
    assert [candidate.name for candidate in candidates] == [
        "defaults",
        "weight_file_lexical=0.3,test_penalty=1",
        "weight_file_lexical=0.5,test_penalty=0.4",
        "weight_file_lexical=0.5,test_penalty=1",
    ]
    assert candidates[0].params == DEFAULT_PARAMS
    assert candidates[3].params.weight_file_lexical == 0.5
    assert candidates[3].params.test_penalty == 1.0


def test_a_list_names_its_candidates_and_a_mapping_field_is_laid_over_the_default(tmp_path):
    path = tmp_path / "candidates.json"
    path.write_text(json.dumps([{"name": "docs up", "layer_weights": {"D0_DOCS": 2}}, {"bm25_tf": False}]))
    defaults, docs_up, binary = load_candidates(path)
    assert defaults.name == "defaults"
    assert docs_up.name == "docs up"
    assert docs_up.params.layer_weights == {**DEFAULT_PARAMS.layer_weights, "D0_DOCS": 2.0}
    assert binary.name == "bm25_tf=false"
    assert binary.params.bm25_tf is False


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"no_such_knob": 1}, "no_such_knob is not a ranking parameter"),
        ({"candidates": 1.5}, "candidates takes a whole number"),
        ({"test_penalty": "high"}, "test_penalty takes a number"),
        ({"bm25_tf": 1}, "bm25_tf takes true or false"),
        ({"layer_weights": {"C9": 1}}, "layer_weights takes an object"),
    ],
)
def test_wrong_fields_and_types_are_refused(overrides, message):
    with pytest.raises(CandidateError, match=message):
        ranking_params(overrides)


def test_malformed_files_are_refused(tmp_path):
    for text, message in [("{", "not JSON"), ('"grid"', "a grid object"), ('{"file_decay": []}', "non-empty list")]:
        path = tmp_path / "bad.json"
        path.write_text(text)
        with pytest.raises(CandidateError, match=message):
            load_candidates(path)
    with pytest.raises(CandidateError, match="two candidates are named x"):
        parse_candidates([{"name": "x", "file_decay": 0.2}, {"name": "x", "file_decay": 0.4}])

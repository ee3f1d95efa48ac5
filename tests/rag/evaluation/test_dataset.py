from __future__ import annotations

import json

import pytest

from rag.evaluation.dataset import DatasetError, load_dataset, select_instances


def _record(instance_id: str, repo: str = "octo/widgets", **extra) -> dict:
    return {
        "instance_id": instance_id,
        "repo": repo,
        "base_commit": "0" * 40,
        "query": "Widget.render crashes",
        "gold_files": ["widgets/render.py"],
        "mirror": repo.replace("/", "+"),
        **extra,
    }


def _write(tmp_path, records) -> str:
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(json.dumps(record) for record in records) + "\n\n")
    return str(path)


def test_it_loads_instances_and_selects_slices_in_id_order(tmp_path):
    path = _write(
        tmp_path,
        [_record("widgets-3"), _record("gears-1", repo="octo/gears"), _record("widgets-1"), _record("widgets-2")],
    )
    instances = load_dataset(path)
    assert [instance.instance_id for instance in instances] == ["widgets-3", "gears-1", "widgets-1", "widgets-2"]
    assert instances[0].gold_files == ("widgets/render.py",)
    assert instances[1].mirror == "octo+gears"

    by_short_name = select_instances(instances, repos=["widgets"], limit=2)
    assert [instance.instance_id for instance in by_short_name] == ["widgets-1", "widgets-2"]
    by_full_name = select_instances(instances, repos=["octo/gears"])
    assert [instance.instance_id for instance in by_full_name] == ["gears-1"]
    by_id = select_instances(instances, instance_ids=["widgets-3", "gears-1"])
    assert [instance.instance_id for instance in by_id] == ["gears-1", "widgets-3"]


def test_it_names_unknown_instances(tmp_path):
    instances = load_dataset(_write(tmp_path, [_record("widgets-1")]))
    with pytest.raises(DatasetError, match="nope-7"):
        select_instances(instances, instance_ids=["nope-7"])


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "line 1: not JSON"),
        ("[1, 2]", "line 1: expected a JSON object"),
        (json.dumps({"instance_id": "x"}), "line 1: missing repo, base_commit, query, gold_files, mirror"),
        (json.dumps(_record("x", gold_files="a.py")), "gold_files must be a non-empty list"),
    ],
)
def test_it_rejects_malformed_lines_with_the_line_number(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(line + "\n")
    with pytest.raises(DatasetError, match=message):
        load_dataset(path)


def test_it_rejects_duplicate_instance_ids(tmp_path):
    with pytest.raises(DatasetError, match="line 2: duplicate instance_id widgets-1"):
        load_dataset(_write(tmp_path, [_record("widgets-1"), _record("widgets-1")]))


def test_it_reports_a_missing_file(tmp_path):
    with pytest.raises(DatasetError, match="cannot read dataset"):
        load_dataset(tmp_path / "absent.jsonl")


def test_the_language_is_the_datasets_or_else_that_of_the_gold_files(tmp_path):
    instances = load_dataset(
        _write(
            tmp_path,
            [
                _record("gears-1", repo="octo/gears", language="Go", gold_files=["pkg/gear.go"]),
                _record("widgets-1"),
                _record("widgets-2", gold_files=["widgets/render.py", "widgets/render.js"]),
            ],
        )
    )
    assert [instance.language_name for instance in instances] == ["Go", "python", "mixed"]


def test_it_rejects_a_language_that_is_not_a_string(tmp_path):
    with pytest.raises(DatasetError, match="line 1: language must be a string"):
        load_dataset(_write(tmp_path, [_record("widgets-1", language=["Go"])]))


def test_whether_the_fix_edits_an_existing_function_is_read_from_the_gold_symbols(tmp_path):
    instances = load_dataset(
        _write(
            tmp_path,
            [
                _record("widgets-1", gold_symbols=["widgets/render.py:Widget.render"]),
                _record("widgets-2", gold_symbols=[]),
                _record("widgets-3"),
            ],
        )
    )
    assert [instance.edits_function for instance in instances] == [True, False, None]
    with pytest.raises(DatasetError, match="line 1: gold_symbols must be a list"):
        load_dataset(_write(tmp_path, [_record("widgets-1", gold_symbols="Widget.render")]))

"""Evaluations over small real git repositories in several languages, indexed into the test database."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from rag.evaluation.candidates import parse_candidates
from rag.evaluation.dataset import Instance
from rag.evaluation.indexing import EVALUATION_USERNAME, repository_name
from rag.evaluation.report import summary_table
from rag.evaluation.runner import EvaluationError, evaluate
from rag.models import IndexRun, Repository
from tests.rag.evaluation.gitrepos import bare_clone, commit_files, init_repository

GEAR_GO = (
    "package gear\n\n"
    "// Ratio of a gear train; a zero tooth count panics today.\n"
    "func TrainRatio(driverTeeth int, drivenTeeth int) float64 {\n"
    "\treturn float64(drivenTeeth) / float64(driverTeeth)\n}\n"
)
CLUTCH_GO = "package gear\n\nfunc EngageClutch(pressure float64) bool {\n\treturn pressure > 0.5\n}\n"
ROASTER_JAVA = (
    "package com.octo.beans;\n\n"
    "public class BeanRoaster {\n"
    "    public Roast roastBatch(Batch batch, int temperatureCelsius) {\n"
    "        return new Roast(batch.origin(), temperatureCelsius);\n"
    "    }\n}\n"
)
GRINDER_JAVA = (
    "package com.octo.beans;\n\n"
    "public class Grinder {\n    public Grounds grindCoarse(Roast roast) { return new Grounds(roast); }\n}\n"
)
ROASTER_TEST_JAVA = (
    "package com.octo.beans;\n\n"
    "class BeanRoasterTest {\n    void roastBatchTemperatureCelsius() { new BeanRoaster().roastBatch(null, 200); }\n}\n"
)
# Okapi BM25's word rarity needs a few documents: with two, a word in one of them weighs nothing.
FILLER_GO = {
    f"gear/{name}.go": f"package gear\n\nfunc {name.title()}Load(rpm int) int {{\n\treturn rpm * 2\n}}\n"
    for name in ("bearing", "shaft", "chain", "sprocket")
}
FILLER_JAVA = {
    f"src/main/java/com/octo/beans/{name}.java":
        f"package com.octo.beans;\n\npublic class {name} {{\n    int cups() {{ return 1; }}\n}}\n"
    for name in ("Kettle", "Filter", "Scale", "Mug")
}
LEDGER_PY = "def post_ledger_entry(ledger, amount, currency):\n    ledger.entries.append((amount, currency))\n"


@pytest.fixture
def mirrors(tmp_path):
    root = tmp_path / "mirrors"
    commits: dict[str, list[str]] = {}
    histories = {
        "octo+gears": [{"go.mod": "module example.com/gears\n", "gear/ratio.go": GEAR_GO, "gear/clutch.go": CLUTCH_GO,
                        "README.md": "# Gears\n", **FILLER_GO}],
        "octo+beans": [
            {"src/main/java/com/octo/beans/BeanRoaster.java": ROASTER_JAVA,
             "src/main/java/com/octo/beans/Grinder.java": GRINDER_JAVA,
             "src/test/java/com/octo/beans/BeanRoasterTest.java": ROASTER_TEST_JAVA, **FILLER_JAVA},
            {"src/main/java/com/octo/beans/Grinder.java": GRINDER_JAVA.replace("grindCoarse", "grindFine")},
        ],
        "octo+ledger": [{"ledger/__init__.py": "", "ledger/posting.py": LEDGER_PY}],
    }
    for mirror, steps in histories.items():
        work = init_repository(tmp_path / "work" / mirror)
        commits[mirror] = [
            commit_files(work, files, f"step {number}", date=f"2024-0{number}-01T00:00:00Z")
            for number, files in enumerate(steps, start=1)
        ]
        (root / mirror).mkdir(parents=True)
        bare_clone(work, root / mirror / "repo")
    return root, commits


def _instances(commits) -> list[Instance]:
    gears, beans, ledger = commits["octo+gears"], commits["octo+beans"], commits["octo+ledger"]
    return [
        Instance("gears-1", "octo/gears", gears[0], "TrainRatio panics when driverTeeth is zero",
                 ("gear/ratio.go",), "octo+gears", language="Go"),
        Instance("beans-1", "octo/beans", beans[0], "roastBatch ignores temperatureCelsius for the batch origin",
                 ("src/main/java/com/octo/beans/BeanRoaster.java",), "octo+beans", language="Java"),
        Instance("beans-2", "octo/beans", beans[1], "grindFine gives coarse grounds for a dark roast",
                 ("src/main/java/com/octo/beans/Grinder.java",), "octo+beans", language="Java"),
        Instance("ledger-1", "octo/ledger", ledger[0], "post_ledger_entry drops the currency of the amount",
                 ("ledger/posting.py",), "octo+ledger"),
    ]


def test_bm25_and_the_tables_cover_every_language(db, upload_dir, mirrors):
    root, commits = mirrors
    results = evaluate(_instances(commits), root, baseline="bm25")

    assert all(not result.error for result in results)
    by_id = {result.instance.instance_id: result for result in results}
    assert by_id["gears-1"].baseline_top_files[0] == "gear/ratio.go"
    assert by_id["beans-1"].baseline_top_files[0] == "src/main/java/com/octo/beans/BeanRoaster.java"
    # The test file shares the words but is not a source file for the baseline.
    assert not any("/test/" in path for path in by_id["beans-1"].baseline_top_files)
    assert by_id["ledger-1"].as_record()["language"] == "python"
    # Every file of beans lives under src/: the product's paths must still be the repository's own.
    assert by_id["beans-1"].top_files[0] == "src/main/java/com/octo/beans/BeanRoaster.java"
    assert by_id["gears-1"].ranked().all_gold_rank is not None

    table = summary_table(results)
    assert "| octo/beans | 2 |" in table
    assert "| language | n | Acc@1/3/5/10 | MRR | BM25 Acc@1/3/5/10 | BM25 MRR |" in table
    assert "| Go | 1 |" in table
    assert "| Java | 2 |" in table
    assert "| python | 1 |" in table


def _evaluation_runs(repo: str) -> int:
    return IndexRun.objects.filter(
        repository__owner__username=EVALUATION_USERNAME, repository__name=repository_name(repo)
    ).count()


def test_kept_versions_are_searched_again_instead_of_indexing(db, upload_dir, settings, mirrors):
    settings.RAG = {**settings.RAG, "KEEP_SUPERSEDED": 5}
    root, commits = mirrors
    beans = [instance for instance in _instances(commits) if instance.repo == "octo/beans"]

    first = evaluate(beans, root, keep=True)
    assert [result.reused_version for result in first] == [False, False]
    assert _evaluation_runs("octo/beans") == 2

    second = evaluate(beans, root, keep=True)
    assert [result.reused_version for result in second] == [True, True]
    assert _evaluation_runs("octo/beans") == 2
    assert [result.top_files for result in second] == [result.top_files for result in first]
    assert second[0].top_files[0] == "src/main/java/com/octo/beans/BeanRoaster.java"

    # A run that does not keep starts afresh and removes the repository when it ends.
    fresh = evaluate(beans, root)
    assert [result.reused_version for result in fresh] == [False, False]
    assert not Repository.objects.filter(name=repository_name("octo/beans")).exists()


def test_keeping_refuses_to_start_when_older_versions_would_lose_their_rows(db, upload_dir, settings, mirrors):
    settings.RAG = {**settings.RAG, "KEEP_SUPERSEDED": 0}
    root, commits = mirrors
    beans = [instance for instance in _instances(commits) if instance.repo == "octo/beans"]
    with pytest.raises(EvaluationError, match="RAG_KEEP_SUPERSEDED=1"):
        evaluate(beans, root, keep=True)
    assert _evaluation_runs("octo/beans") == 0


def test_every_candidate_is_ranked_on_the_same_version(db, upload_dir, mirrors):
    root, commits = mirrors
    candidates = parse_candidates({"weight_file_lexical": [0.0], "file_only_depth": [0]})
    [result] = evaluate([_instances(commits)[0]], root, candidates=candidates)
    assert list(result.candidate_files) == [candidate.name for candidate in candidates]
    assert result.top_files == result.candidate_files["defaults"]
    record = result.as_record()
    assert set(record["candidates"]) == {"defaults", "weight_file_lexical=0.0,file_only_depth=0"}


def _write_dataset(path, instances) -> str:
    path.write_text(
        "\n".join(
            json.dumps({"instance_id": i.instance_id, "repo": i.repo, "base_commit": i.base_commit, "query": i.query,
                        "gold_files": list(i.gold_files), "mirror": i.mirror, "language": i.language})
            for i in instances
        )
    )
    return str(path)


def test_the_command_cross_validates_candidates_by_repository(db, upload_dir, mirrors, tmp_path, capsys):
    root, commits = mirrors
    dataset = _write_dataset(tmp_path / "data.jsonl", _instances(commits))
    grid = tmp_path / "grid.json"
    grid.write_text(json.dumps({"weight_file_lexical": [0.0, 0.6]}))
    call_command("rag_eval", dataset, "--mirrors", str(root), "--baseline", "bm25", "--cv", "loo",
                 "--candidates", str(grid), "--out", str(tmp_path / "out.jsonl"))
    printed = capsys.readouterr().out
    assert "Cross-validation by repository: 3 folds, 3 candidate(s)" in printed
    fold_rows = [line for line in printed.splitlines() if line.startswith(("| 1 |", "| 2 |", "| 3 |"))]
    assert sorted(row.split(" | ")[1] for row in fold_rows) == ["octo/beans", "octo/gears", "octo/ledger"]
    names = {"defaults", "weight_file_lexical=0.0", "weight_file_lexical=0.6"}
    assert all(row.split(" | ")[2].rsplit(" (", 1)[0] in names for row in fold_rows)
    assert "| **held out** | all |  | 4 |" in printed
    records = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert all(set(record["candidates"]) == names for record in records)


def test_the_command_refuses_folds_it_cannot_make_before_indexing(db, upload_dir, mirrors, tmp_path):
    root, commits = mirrors
    dataset = _write_dataset(tmp_path / "data.jsonl", _instances(commits))
    with pytest.raises(CommandError, match="at least two repositories"):
        call_command("rag_eval", dataset, "--mirrors", str(root), "--repos", "beans", "--cv", "2")
    with pytest.raises(CommandError, match="--candidates needs --cv"):
        call_command("rag_eval", dataset, "--mirrors", str(root), "--candidates", str(tmp_path / "grid.json"))
    assert not Repository.objects.filter(owner__username=EVALUATION_USERNAME).exists()

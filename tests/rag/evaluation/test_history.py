from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from rag.evaluation.dataset import load_dataset
from rag.evaluation.history import HistoryRules, clean_message, history_instances
from tests.rag.evaluation.gitrepos import bare_clone, commit_files, git, init_repository

LONG = "Retry the upload when the storage answers with a timeout instead of failing the whole sync"


@pytest.fixture
def shop(tmp_path):
    repo = init_repository(tmp_path / "work")
    parts = {f"shop/part{n}.py": f"X = {n}\n" for n in range(7)}
    first = commit_files(repo, {"shop/cart.py": "def total():\n    return 0\n", "README.md": "# shop\n", **parts}, LONG)
    commits = {"first": first}
    commits["edit"] = commit_files(
        repo,
        {
            "shop/cart.py": "def total():\n    return 1\n",
            "shop/new_rules.py": "RULES = []\n",  # created by the commit: not in the snapshot before it
            "tests/test_cart.py": "def test_total():\n    pass\n",
            "pyproject.toml": "[project]\nname = 'shop'\n",
            "api/server.go": "package api\n",
        },
        f"{LONG} (#412)\n\nSee #77 for the report.\n\nCo-authored-by: Ann <ann@example.com>\nSigned-off-by: Bob <bob@example.com>",
    )
    commits["short"] = commit_files(repo, {"shop/cart.py": "def total():\n    return 2\n"}, "Fix typo")
    commits["docs_only"] = commit_files(repo, {"README.md": "# shop, the store\n"}, LONG + " in the docs")
    commits["go"] = commit_files(repo, {"api/server.go": "package api\n\nfunc Serve() {}\n"}, LONG + " on the server")
    commits["many"] = commit_files(
        repo, {path: text + "Y = 1\n" for path, text in parts.items()}, LONG + " across seven files"
    )
    git(repo, "checkout", "-q", "-b", "side", commits["go"])
    side = commit_files(repo, {"shop/cart.py": "def total():\n    return 3\n"}, LONG + " on a branch")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "side", "-m", LONG + " merged")
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    bare_clone(repo, mirrors / "octo+shop")
    commits["side"] = side
    return mirrors, commits


def test_commits_become_instances_of_the_files_they_changed(shop):
    mirrors, commits = shop
    instances = {i["base_commit"]: i for i in history_instances(mirrors / "octo+shop", "octo+shop", "octo/shop")}

    # The first commit has no snapshot before it; a short message, a change of docs only, one of more
    # than six source files and a merge are no instances.
    edit, go, side = (instances.pop(commits[name]) for name in ("first", "docs_only", "go"))
    assert instances == {}
    assert side["gold_files"] == ["shop/cart.py"] and side["instance_id"] == f"octo+shop-{commits['side'][:12]}"
    # The test, the manifest and the files the commit created (a Python and a Go file) are not gold.
    assert edit["gold_files"] == ["shop/cart.py"]
    assert edit["query"] == f"{LONG}\n\nSee for the report."
    assert edit["instance_id"] == f"octo+shop-{commits['edit'][:12]}" and edit["repo"] == "octo/shop"
    assert go["gold_files"] == ["api/server.go"]


def test_a_seeded_draw_of_the_commits(shop):
    mirrors, _ = shop
    draws = [
        [i["instance_id"] for i in history_instances(mirrors / "octo+shop", "octo+shop", "octo/shop", HistoryRules(per_repository=1, seed=seed))]
        for seed in range(8)
    ]
    assert all(len(draw) == 1 for draw in draws)
    assert draws[0] == [
        i["instance_id"] for i in history_instances(mirrors / "octo+shop", "octo+shop", "octo/shop", HistoryRules(per_repository=1))
    ]
    assert len({draw[0] for draw in draws}) > 1


def test_the_command_writes_a_dataset_rag_eval_reads(shop, tmp_path):
    mirrors, commits = shop
    out = tmp_path / "set.jsonl"
    call_command("rag_history_set", "octo+shop", "--mirrors", str(mirrors), "--out", str(out))
    instances = load_dataset(out)
    assert {i.base_commit for i in instances} >= {commits["first"], commits["docs_only"]} and len(instances) == 3
    assert json.loads(out.read_text().splitlines()[0])["mirror"] == "octo+shop"

    with pytest.raises(CommandError, match="no git repository"):
        call_command("rag_history_set", "octo+nothing", "--mirrors", str(mirrors), "--out", str(out))


def test_messages_lose_what_names_no_code():
    assert clean_message("Bump serde\n\n---\nupdated-dependencies:\n- dependency-name: serde\n") == "Bump serde"
    assert clean_message("Handle #include lines (#12), see #3\n\nFixes: #3\nReviewed-by: A") == "Handle #include lines , see"

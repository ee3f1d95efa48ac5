"""index_repo and rag_search, called as management commands."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from rag.models import IndexRun, Repository
from tests.rag.conftest import SMALL_PROJECT, make_zip


def _write_tree(root, files):
    for path, content in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content if isinstance(content, bytes) else content.encode())


def test_index_repo_indexes_a_directory_without_its_skipped_folders(tmp_path, owner, upload_dir, capsys):
    tree = tmp_path / "shop"
    _write_tree(tree, {**SMALL_PROJECT, ".git/HEAD": "ref: refs/heads/main\n", "node_modules/x/index.js": "1\n"})
    (tree / "link.py").symlink_to(tree / "shop" / "views.py")
    (tree / "outside").symlink_to(tmp_path)

    call_command("index_repo", str(tree), "--user", owner.username)

    repository = Repository.objects.get(owner=owner, name="shop")
    run = repository.active_run
    assert run.status == IndexRun.Status.READY and run.trigger == IndexRun.Trigger.COMMAND
    assert run.counts["files"] == 6
    # Links are listed, never followed: not the linked file twice, nothing outside the tree.
    assert {f["path"]: f["reason"] for f in run.skipped["files"]} == {
        "link.py": "symbolic link (not followed)", "outside": "symbolic link (not followed)",
    }
    assert "is ready" in capsys.readouterr().out


def test_index_repo_indexes_a_zip_and_reports_refusals(tmp_path, owner, upload_dir):
    good = tmp_path / "shop.zip"
    good.write_bytes(make_zip(SMALL_PROJECT))
    call_command("index_repo", str(good), "--name", "zipped", "--user", owner.username)
    assert Repository.objects.get(name="zipped").active_run.status == IndexRun.Status.READY

    bad = tmp_path / "bad.zip"
    bad.write_bytes(b"not a zip")
    with pytest.raises(CommandError, match="not a readable zip"):
        call_command("index_repo", str(bad), "--user", owner.username)


def test_rag_search_prints_ranked_items_with_spans(shop, capsys):
    call_command("rag_search", "shop", "login_view", "--limit", "2")
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 2
    assert "shop/views.py:4-7" in lines[0]

    call_command("rag_search", str(shop.pk), "deploy nginx", "--json")
    items = json.loads(capsys.readouterr().out)
    assert items[0]["path"] == "docs/deploy.md" and items[0]["layer"] == "D0_DOCS"


def test_rag_search_prints_the_lines_that_hold_a_text_or_match_an_expression(shop, capsys):
    call_command("rag_search", "shop", "for_user", "--text")
    assert capsys.readouterr().out.splitlines()[-2:] == [
        "shop/models.py:8:     def for_user(cls, user):", "shop/views.py:6:     cart = Cart.for_user(request.user)",
    ]
    call_command("rag_search", "shop", r"^class \w+", "--regex", "--limit", "1", "--json")
    output = capsys.readouterr().out
    assert json.loads(output[output.index("{"):]) == {"matches": [{"path": "shop/models.py", "line": 1, "text": "class Cart:"}], "truncated": False}
    with pytest.raises(CommandError, match="invalid regular expression"):
        call_command("rag_search", "shop", "(", "--regex")

from __future__ import annotations

import pytest

from rag.evaluation.snapshots import SnapshotError, commit_timestamp, read_snapshot, resolve_mirror
from tests.rag.evaluation.gitrepos import bare_clone, commit_files, git, init_repository


@pytest.fixture
def history(tmp_path):
    work = init_repository(tmp_path / "work")
    first = commit_files(
        work,
        {"pkg/__init__.py": "", "pkg/core.py": "def run():\n    return 1\n", "README.md": "# Pkg\n"},
        "first",
        date="2024-01-01T00:00:00Z",
    )
    second = commit_files(
        work,
        {"pkg/core.py": "def run():\n    return 2\n", "README.md": None, "pkg/extra.py": "X = 1\n"},
        "second",
        date="2024-02-01T00:00:00Z",
    )
    mirrors = tmp_path / "mirrors"
    (mirrors / "octo+pkg").mkdir(parents=True)
    bare_clone(work, mirrors / "octo+pkg" / "repo")
    bare_clone(work, mirrors / "octo+flat")
    return mirrors, first, second


def test_it_finds_a_mirror_as_a_repo_subfolder_or_a_bare_repository(history):
    mirrors, _, _ = history
    assert resolve_mirror(mirrors, "octo+pkg") == mirrors / "octo+pkg" / "repo"
    assert resolve_mirror(mirrors, "octo+flat") == mirrors / "octo+flat"
    with pytest.raises(SnapshotError, match="no git repository for mirror 'octo\\+none'"):
        resolve_mirror(mirrors, "octo+none")


def test_it_reads_the_files_of_a_commit(history):
    mirrors, first, _ = history
    snapshot = read_snapshot(resolve_mirror(mirrors, "octo+pkg"), first)
    assert snapshot.contents == {
        "pkg/__init__.py": b"",
        "pkg/core.py": b"def run():\n    return 1\n",
        "README.md": b"# Pkg\n",
    }
    assert snapshot.blobs_read == 3
    assert snapshot.changed_paths == frozenset(snapshot.contents)


def test_the_next_snapshot_reads_only_changed_blobs(history):
    mirrors, first, second = history
    git_dir = resolve_mirror(mirrors, "octo+pkg")
    assert commit_timestamp(git_dir, first) < commit_timestamp(git_dir, second)
    before = read_snapshot(git_dir, first)
    after = read_snapshot(git_dir, second, previous=before)
    assert after.contents == {
        "pkg/__init__.py": b"",
        "pkg/core.py": b"def run():\n    return 2\n",
        "pkg/extra.py": b"X = 1\n",
    }
    assert after.blobs_read == 2
    assert after.blobs_reused == 1
    assert after.changed_paths == frozenset({"pkg/core.py", "pkg/extra.py", "README.md"})


def test_an_unknown_commit_is_a_clear_error(history):
    mirrors, _, _ = history
    with pytest.raises(SnapshotError, match="octo\\+pkg"):
        read_snapshot(resolve_mirror(mirrors, "octo+pkg"), "1" * 40)


def test_blobs_missing_from_the_mirror_are_left_out_and_listed(tmp_path):
    work = init_repository(tmp_path / "work")
    commit = commit_files(work, {"README.md": "# Data\n", "data/huge.bin": "0123456789" * 100}, "first")
    blob_id = git(work, "rev-parse", f"{commit}:data/huge.bin")
    (work / ".git" / "objects" / blob_id[:2] / blob_id[2:]).unlink()
    snapshot = read_snapshot(work, commit)
    assert snapshot.contents == {"README.md": b"# Data\n"}
    assert snapshot.absent_paths == ("data/huge.bin",)

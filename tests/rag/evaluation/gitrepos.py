"""Small real git repositories for the evaluation tests, built with the git command line."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def git(repo: Path, *args: str, date: str = "2024-01-01T00:00:00Z") -> str:
    env = dict(os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date)
    result = subprocess.run(
        ["git", "-C", str(repo), "-c", "user.name=Test", "-c", "user.email=test@example.com", *args],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    return result.stdout.strip()


def init_repository(path: Path) -> Path:
    path.mkdir(parents=True)
    git(path, "init", "-q", "-b", "main")
    return path


def commit_files(repo: Path, files: dict[str, str | None], message: str, *, date: str = "2024-01-01T00:00:00Z") -> str:
    """Write (or with ``None`` delete) files, commit them and return the commit id."""
    for path, text in files.items():
        if text is None:
            git(repo, "rm", "-q", path)
            continue
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
        git(repo, "add", path)
    git(repo, "commit", "-q", "-m", message, date=date)
    return git(repo, "rev-parse", "HEAD")


def bare_clone(source: Path, target: Path) -> Path:
    subprocess.run(["git", "clone", "-q", "--bare", str(source), str(target)], check=True, capture_output=True)
    return target

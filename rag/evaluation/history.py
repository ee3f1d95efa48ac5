"""Localization instances from a repository's own history: a commit's message as the query, the source
files it changed as the gold, its parent as the snapshot.

Issues with known fixes exist for a few public projects only; every repository has commits. A commit
whose message says what it does (ten words or more once trailers and pull-request numbers are gone)
and that changes one to six non-test source files, some of which existed before it, is an instance in
the shape ``dataset`` reads, so ``rag_eval`` measures the ranking on any repository, a team's own
included, beside BM25 on the same snapshots. Messages are shorter and terser than issues: the figures
compare rankings on one repository, not with the issue sets.

Gold files are those ``dataset``'s sets count: code in a language the analysis parses, not tests (a
manifest, a lock file or a document changed alongside is not gold).
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from pathlib import Path

from rag.analysis.filetypes import detect_language
from rag.analysis.languages.spec import spec_for
from rag.evaluation.snapshots import git_output
from rag.terms import looks_like_test_path

# ``Co-authored-by: ...``, ``Signed-off-by: ...``: key-value lines that say who, not what.
_TRAILER = re.compile(r"^[A-Z][\w-]*-by:.*$|^(?:Change-Id|Refs?|Fixes|Closes|Resolves):.*$", re.IGNORECASE | re.MULTILINE)
# A pull request's or issue's number says nothing the index can match.
_NUMBER_REFERENCE = re.compile(r"\(#\d+\)|(?<![\w/])#\d+\b")
# Bots' details below a line of dashes (``---\nupdated-dependencies: ...``).
_BELOW_RULE = re.compile(r"^-{3,}\s*$.*", re.MULTILINE | re.DOTALL)
# Fields of one commit in the log: id, parents, message (NUL-separated, commits split by a record separator).
_RECORD = "\x1e"
_LOG_FORMAT = f"{_RECORD}%H%x00%P%x00%B%x00"


@dataclass(frozen=True)
class HistoryRules:
    commits: int = 2000  # the newest commits read (merges are not instances)
    min_words: int = 10
    max_files: int = 6
    per_repository: int = 25
    seed: int = 0


def is_gold_file(path: str) -> bool:
    """Code in a language the analysis parses, outside tests: what the issue sets count as a fix's files."""
    if looks_like_test_path(path):
        return False
    return detect_language(path) == "python" or spec_for(path) is not None


def clean_message(message: str) -> str:
    """The message without trailers, numbers of pull requests and issues, and bots' details."""
    text = _BELOW_RULE.sub("", message)
    text = _TRAILER.sub("", text)
    text = _NUMBER_REFERENCE.sub("", text)
    lines = "\n".join(" ".join(line.split()) for line in text.splitlines())
    return re.sub(r"\n{3,}", "\n\n", lines).strip()


def history_instances(git_dir: Path, mirror: str, repo: str, rules: HistoryRules = HistoryRules()) -> list[dict]:
    """Up to ``rules.per_repository`` instances drawn at random (seeded) from the qualifying commits."""
    log = git_output(
        git_dir, "log", "--no-merges", "--no-renames", f"-n{rules.commits}", f"--format={_LOG_FORMAT}",
        "--name-status", "HEAD",
    ).decode("utf-8", errors="replace")
    qualifying: list[dict] = []
    for record in log.split(_RECORD)[1:]:
        commit, parents, message, changes = (record.split("\x00") + ["", "", "", ""])[:4]
        if len(parents.split()) != 1:
            continue  # a root commit has no snapshot before it
        query = clean_message(message)
        if len(query.split()) < rules.min_words:
            continue
        changed: list[str] = []
        existed: list[str] = []
        for line in changes.strip().splitlines():
            status, _, path = line.partition("\t")
            if not path or not is_gold_file(path):
                continue
            changed.append(path)
            if status != "A":
                existed.append(path)
        if not existed or len(changed) > rules.max_files:
            continue
        qualifying.append({
            "instance_id": f"{mirror}-{commit[:12]}", "repo": repo, "base_commit": parents.strip(),
            "query": query, "gold_files": sorted(existed), "mirror": mirror,
        })
    random.Random(f"{rules.seed}:{mirror}").shuffle(qualifying)
    return sorted(qualifying[: rules.per_repository], key=lambda instance: instance["instance_id"])

"""Localization datasets: one JSON object per line, each a real issue and the files its fix touched.

An optional ``language`` field names the repository's language (multilingual
sets carry one); without it the language is the one the product gives the gold files.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rag.analysis.filetypes import detect_language

REQUIRED_FIELDS = ("instance_id", "repo", "base_commit", "query", "gold_files", "mirror")


class DatasetError(ValueError):
    """The dataset file cannot be used; the message names the line and the problem."""


@dataclass(frozen=True)
class Instance:
    instance_id: str
    repo: str
    base_commit: str
    query: str
    gold_files: tuple[str, ...]
    mirror: str
    created_at: str = ""
    language: str = ""
    # The fix edits lines inside an existing function or class (the dataset's ``gold_symbols`` is not
    # empty); None when the dataset does not say.
    edits_function: bool | None = None

    @property
    def language_name(self) -> str:
        """The dataset's language for the instance, else that of its gold files."""
        return self.language or gold_files_language(self.gold_files)


def gold_files_language(paths: Sequence[str]) -> str:
    """The product's language of ``paths`` when they agree on one, ``mixed`` otherwise."""
    languages = {detect_language(path) for path in paths}
    return languages.pop() if len(languages) == 1 else "mixed"


def load_dataset(path: str | Path) -> list[Instance]:
    """Read a JSON-lines dataset; blank lines are skipped, anything malformed raises ``DatasetError``."""
    instances: list[Instance] = []
    seen: set[str] = set()
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DatasetError(f"cannot read dataset {path}: {exc.strerror or exc}") from exc
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"line {number}: not JSON ({exc.msg})") from exc
        if not isinstance(record, dict):
            raise DatasetError(f"line {number}: expected a JSON object")
        missing = [name for name in REQUIRED_FIELDS if not record.get(name)]
        if missing:
            raise DatasetError(f"line {number}: missing {', '.join(missing)}")
        gold = record["gold_files"]
        if not isinstance(gold, list) or not all(isinstance(item, str) and item for item in gold):
            raise DatasetError(f"line {number}: gold_files must be a non-empty list of paths")
        if not isinstance(record.get("language", ""), str):
            raise DatasetError(f"line {number}: language must be a string")
        symbols = record.get("gold_symbols")
        if symbols is not None and not isinstance(symbols, list):
            raise DatasetError(f"line {number}: gold_symbols must be a list")
        if record["instance_id"] in seen:
            raise DatasetError(f"line {number}: duplicate instance_id {record['instance_id']}")
        seen.add(record["instance_id"])
        instances.append(
            Instance(
                instance_id=str(record["instance_id"]),
                repo=str(record["repo"]),
                base_commit=str(record["base_commit"]),
                query=str(record["query"]),
                gold_files=tuple(gold),
                mirror=str(record["mirror"]),
                created_at=str(record.get("created_at") or ""),
                language=record.get("language") or "",
                edits_function=None if symbols is None else bool(symbols),
            )
        )
    return instances


def select_instances(
    instances: Iterable[Instance],
    *,
    repos: Sequence[str] = (),
    instance_ids: Sequence[str] = (),
    limit: int | None = None,
) -> list[Instance]:
    """Filter to a slice, sorted by instance id so every run over the same slice is the same.

    ``repos`` match the full ``owner/name`` or just ``name``; ``limit`` applies per run, after the filters.
    """
    wanted_repos = {name.strip() for name in repos if name.strip()}
    wanted_ids = {name.strip() for name in instance_ids if name.strip()}
    chosen = [
        instance
        for instance in instances
        if (not wanted_repos or instance.repo in wanted_repos or instance.repo.split("/")[-1] in wanted_repos)
        and (not wanted_ids or instance.instance_id in wanted_ids)
    ]
    unknown = wanted_ids - {instance.instance_id for instance in chosen}
    if unknown:
        raise DatasetError(f"unknown or filtered-out instances: {', '.join(sorted(unknown))}")
    chosen.sort(key=lambda instance: instance.instance_id)
    if limit is not None:
        chosen = chosen[:limit]
    return chosen

"""Cargo's ``Cargo.toml``: every ``*dependencies`` table, a target's and the workspace's included."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rag.analysis.dependencies.common import source_version
from rag.analysis.manifest_text import KeyLines, TomlHeaders, toml_tables
from rag.analysis.records import Dependency

_CARGO_SCOPES = {"dependencies": "runtime", "dev-dependencies": "dev", "build-dependencies": "build"}


def cargo_toml(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    data = toml_tables(text)
    if data is None:
        return
    tables: list[tuple[tuple[str, ...], str, Any]] = []  # (the table's keys, scope, the table)
    for key, scope in _CARGO_SCOPES.items():
        tables.append(((key,), scope, data.get(key)))
    workspace = data.get("workspace")
    if isinstance(workspace, dict):
        tables.append((("workspace", "dependencies"), "workspace", workspace.get("dependencies")))
    targets = data.get("target")
    if isinstance(targets, dict):
        for target, target_tables in targets.items():
            if isinstance(target_tables, dict):
                for key, scope in _CARGO_SCOPES.items():
                    tables.append((("target", target, key), scope, target_tables.get(key)))
    headers, keys = TomlHeaders(lines), KeyLines(lines)
    for table_keys, scope, table in tables:
        if not isinstance(table, dict):
            continue
        after = headers.line(*table_keys) - 1
        for name, spec in table.items():
            package = spec.get("package") if isinstance(spec, dict) else None
            if (table_line := headers.line(*table_keys, name)) > 0:  # its own table: ``[dependencies.serde]``
                line = table_line
            elif after >= 0:
                line = keys.line(name, after)
            else:  # written inline or dotted: ``dependencies.serde = "1"``
                line = keys.find(".".join((*table_keys, name))) or keys.line(name)
            yield Dependency("cargo", package if isinstance(package, str) else name, source_version(spec), scope, path, line)

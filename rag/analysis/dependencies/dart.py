"""Dart's ``pubspec.yaml``, read line by line (no YAML library is at hand, and the format's subset in use is small)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rag.analysis.records import Dependency

_PUB_SCOPES = {"dependencies": "runtime", "dev_dependencies": "dev", "dependency_overrides": "override"}
# A YAML block mapping's entry: key, then a colon at the end or before a space, then the value.
_YAML_ENTRY = re.compile(r"""(?P<key>"[^"]*"|'[^']*'|[^\s#'"\-{\[][^:#]*):(?:\s+(?P<value>.*))?""")


def _yaml_scalar(text: str) -> str:
    """A plain or quoted one-line scalar, its comment dropped and its quotes stripped."""
    text = text.strip()
    if text[:1] in ("'", '"'):
        end = text.find(text[0], 1)
        if end > 0:
            return text[1:end]
    return re.split(r"(?:^|\s)#", text, maxsplit=1)[0].strip()


def _yaml_flow_map(text: str) -> dict[str, str]:
    """A flat flow mapping, ``{path: ../core}``; empty for anything else."""
    if not (text.startswith("{") and text.endswith("}")) or "{" in text[1:]:
        return {}
    fields = {}
    for item in text[1:-1].split(","):
        key, separator, value = item.partition(":")
        if separator:
            fields[_yaml_scalar(key)] = _yaml_scalar(value)
    return fields


def pubspec_yaml(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    scope: str | None = None  # the section being read
    package: tuple[int, str, str] | None = None  # (line, name, inline value) of the package being read
    fields: dict[str, str] = {}  # its nested map
    nested: dict[str, dict[str, str]] = {}  # one level further: git's url, ref and path
    package_indent = field_indent = 0
    field = ""
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        entry = _YAML_ENTRY.fullmatch(stripped)
        if package is not None and scope is not None and (indent == 0 or (entry is not None and indent == package_indent)):
            yield Dependency("pub", package[1], _pub_version(package[2], fields, nested), scope, path, package[0])
            package = None
        if indent == 0:
            inline = _yaml_scalar(entry.group("value") or "") if entry else ""
            scope = _PUB_SCOPES.get(_yaml_scalar(entry.group("key"))) if entry and not inline else None
            package_indent = 0
            continue
        if scope is None or entry is None:
            continue
        key, value = _yaml_scalar(entry.group("key")), _yaml_scalar(entry.group("value") or "")
        package_indent = package_indent or indent
        if indent == package_indent:
            package = (number, key, value)
            fields, nested, field_indent, field = _yaml_flow_map(value), {}, 0, ""
        elif indent > package_indent and package is not None:
            field_indent = field_indent or indent
            if indent == field_indent:
                fields[key], field = value, key
            elif indent > field_indent and field:
                nested.setdefault(field, {})[key] = value
    if package is not None and scope is not None:
        yield Dependency("pub", package[1], _pub_version(package[2], fields, nested), scope, path, package[0])


def _pub_version(inline: str, fields: dict[str, str], nested: dict[str, dict[str, str]]) -> str:
    if inline and not inline.startswith("{"):
        return inline
    if fields.get("version"):
        return fields["version"]
    for source in ("sdk", "path"):
        if fields.get(source):
            return f"{source} {fields[source]}"
    if "git" in fields:
        url = fields["git"] or nested.get("git", {}).get("url", "")
        return f"git {url}".strip()
    return ""

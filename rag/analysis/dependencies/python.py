"""Python's requirements files, ``pyproject.toml``, ``setup.cfg`` and ``setup.py``; each requirement read by ``packaging`` (PEP 508)."""

from __future__ import annotations

import ast
import configparser
import re
from collections.abc import Iterator
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from rag.analysis.dependencies.common import source_version
from rag.analysis.manifest_text import KeyLines, TomlHeaders, line_after, places, python_lines, toml_tables
from rag.analysis.python_source import literal
from rag.analysis.records import Dependency

def _requirement(text: str) -> tuple[str, str] | None:
    """A PEP 508 requirement's name and the rest of it as written (version range, URL, marker)."""
    text = text.strip()
    try:
        requirement = Requirement(text)
    except InvalidRequirement:
        return None
    rest = _REQUIREMENT_NAME.sub("", text, count=1).strip()
    return requirement.name, rest


# A requirement's name and extras, as PEP 508 writes them: what comes after is its version, URL and marker.
_REQUIREMENT_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*\s*(\[[^\]]*\])?")


def requirements_txt(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    logical: list[str] = []  # a requirement continued over lines ending in a backslash
    start = 0
    for number, line in enumerate(lines, 1):
        if not logical:
            start = number
        stripped = line.split(" #", 1)[0].rstrip() if not line.lstrip().startswith("#") else ""
        if stripped.endswith("\\"):
            logical.append(stripped[:-1])
            continue
        logical.append(stripped)
        current = " ".join(logical).strip()
        logical = []
        if not current or current.startswith("-"):
            continue  # options: -r other.txt, -e ., --index-url ...
        parsed = _requirement(current.split(" --", 1)[0])
        if parsed is not None:
            yield Dependency("pypi", parsed[0], parsed[1], "runtime", path, start)


def _pep508_list(values: Any, scope: str, path: str, names: dict[str, list[int]], after: int) -> Iterator[Dependency]:
    """The requirements of a list, each at the first line at or below index ``after`` where its name starts a
    quoted string or a line (``names``, from ``_requirement_names``)."""
    if not isinstance(values, (list, tuple)):
        return
    for value in values:
        parsed = _requirement(value) if isinstance(value, str) else None
        if parsed is not None:
            line, _ = line_after(names, parsed[0].lower(), max(after, 0))
            yield Dependency("pypi", parsed[0], parsed[1], scope, path, line)


# A name at the start of a quoted string or of a line: where a requirement is written.
_NAME_START = re.compile(r"""(?:^\s*|["'])([A-Za-z0-9][A-Za-z0-9._-]*)""")


def _requirement_names(lines: list[str]) -> dict[str, list[int]]:
    return places((index, found.group(1).lower()) for index, line in enumerate(lines) for found in _NAME_START.finditer(line))


def pyproject_toml(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    data = toml_tables(text)
    if data is None:
        return
    headers, keys, names = TomlHeaders(lines), KeyLines(lines), _requirement_names(lines)
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    after = max(headers.line("project") - 1, 0)
    yield from _pep508_list(project.get("dependencies"), "runtime", path, names, keys.line("dependencies", after) - 1)
    extras = project.get("optional-dependencies")
    if isinstance(extras, dict):
        after = max(headers.line("project", "optional-dependencies") - 1, 0)
        for group, values in extras.items():
            yield from _pep508_list(values, group, path, names, keys.line(group, after) - 1)
    groups = data.get("dependency-groups")
    if isinstance(groups, dict):
        after = max(headers.line("dependency-groups") - 1, 0)
        for group, values in groups.items():
            yield from _pep508_list(
                [value for value in values if isinstance(value, str)] if isinstance(values, list) else (),
                group, path, names, keys.line(group, after) - 1,
            )
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    poetry = tool.get("poetry") if isinstance(tool.get("poetry"), dict) else {}
    tables: list[tuple[tuple[str, ...], str, Any]] = [
        (("dependencies",), "runtime", poetry.get("dependencies")),
        (("dev-dependencies",), "dev", poetry.get("dev-dependencies")),
    ]
    if isinstance(poetry.get("group"), dict):
        for group, body in poetry["group"].items():
            if isinstance(body, dict):
                tables.append((("group", group, "dependencies"), group, body.get("dependencies")))
    for table_keys, scope, table in tables:
        if not isinstance(table, dict):
            continue
        after = max(headers.line("tool", "poetry", *table_keys) - 1, 0)
        for name, spec in table.items():
            if name.lower() == "python":
                continue  # the interpreter, not a package
            line = headers.line("tool", "poetry", *table_keys, name) or keys.line(name, after)  # its own table, or its key
            yield Dependency("pypi", name, source_version(spec), scope, path, line)


_SPACE_RUNS = re.compile(r"[ \t]{2,}")


def setup_cfg(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    # configparser's pattern for an option's line backtracks over every run of spaces in it: runs are one
    # space for it (a continued value only needs to be indented; a requirement's spaces mean nothing).
    parser.read_string(_SPACE_RUNS.sub(" ", text))
    sections = [("options", "install_requires", "runtime")]
    if parser.has_section("options.extras_require"):
        sections += [("options.extras_require", group, group) for group in parser.options("options.extras_require")]
    headers, keys, names = TomlHeaders(lines), KeyLines(lines), _requirement_names(lines)  # INI's headers are TOML's
    for section, key, scope in sections:
        if not parser.has_option(section, key):
            continue
        after = keys.line(key, max(headers.line(section) - 1, 0)) - 1
        values = [value.split("#", 1)[0].strip() for value in parser.get(section, key).splitlines()]
        yield from _pep508_list([value for value in values if value], scope, path, names, after)


def setup_py(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    tree = ast.parse(text)
    names, line_of = _requirement_names(lines), python_lines(text)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not (
            (isinstance(node.func, ast.Name) and node.func.id == "setup")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "setup")
        ):
            continue
        for keyword in node.keywords:
            value = literal(keyword.value)
            after = line_of(keyword.value.lineno) - 1
            if keyword.arg == "install_requires":
                yield from _pep508_list(value, "runtime", path, names, after)
            elif keyword.arg == "tests_require":
                yield from _pep508_list(value, "test", path, names, after)
            elif keyword.arg == "extras_require" and isinstance(keyword.value, ast.Dict):
                for key, values in zip(keyword.value.keys, keyword.value.values):
                    group = literal(key)
                    if isinstance(group, str):
                        yield from _pep508_list(literal(values), group, path, names, line_of(values.lineno) - 1)

"""C and C++ package managers: vcpkg's ``vcpkg.json``, Conan's ``conanfile.txt`` and ``conanfile.py``."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from rag.analysis.manifest_text import json_value, line_after, places, python_lines
from rag.analysis.records import Dependency

def vcpkg_json(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    data = json_value(text)
    if not isinstance(data, dict):
        return
    keys: list[tuple[int, str]] = []
    values: list[tuple[int, str]] = []
    dependency_keys: list[tuple[int, int]] = []  # (column, line index) of each "dependencies" key
    for index, line in enumerate(lines):
        for found in _JSON_STRING.finditer(line):
            (keys if found.group(2) else values).append((index, found.group(1)))
            if found.group(2) and found.group(1) == "dependencies":
                dependency_keys.append((found.start(), index))
    key_places, value_places = places(keys), places(values)
    # The project's own list is the "dependencies" key nearest a line's start (a feature's may come first).
    lists = [(data.get("dependencies"), "runtime", min(dependency_keys)[1] if dependency_keys else 0)]
    features = data.get("features")
    if isinstance(features, dict):
        after = line_after(key_places, "features", 0)[1]
        for feature, body in features.items():
            if isinstance(body, dict):
                after = line_after(key_places, feature, after)[1]
                lists.append((body.get("dependencies"), feature, after))
    lists.append((data.get("overrides"), "override", line_after(key_places, "overrides", 0)[1]))
    for entries, scope, after in lists:
        if not isinstance(entries, list):
            continue
        for entry in entries:
            name = entry if isinstance(entry, str) else entry.get("name") if isinstance(entry, dict) else None
            if not isinstance(name, str) or not name:
                continue
            version, kind = "", scope
            if isinstance(entry, dict):
                if scope == "override":
                    version = entry.get("version") if isinstance(entry.get("version"), str) else ""
                elif isinstance(entry.get("version>="), str):
                    version = f">= {entry['version>=']}"
                if entry.get("host") is True and scope != "override":
                    kind = "build"
            line, after = line_after(value_places, name, after)
            yield Dependency("vcpkg", name, version, kind, path, line)


# A JSON string (its contents as written), and the colon after it when it is a key.
# A string left open (a line separator inside a JSON string splits it over lines) runs to the line's end, so
# no quote inside it starts another try.
_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)(?:"(\s*:)?)?')


_CONAN_SCOPES = {"requires": "runtime", "tool_requires": "build", "build_requires": "build", "test_requires": "test"}
_CONAN_NAME = re.compile(r"[\w.+-]+")


def _conan_reference(reference: str) -> tuple[str, str] | None:
    """``zlib/1.2.13@user/channel#revision`` -> (zlib, 1.2.13); a version range, ``[>=1.2 <2]``, as written."""
    name, _, rest = reference.strip().partition("/")
    if not _CONAN_NAME.fullmatch(name):
        return None
    return name, re.split(r"[@#]", rest, maxsplit=1)[0].strip()


def conanfile_txt(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    scope = None
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            scope = _CONAN_SCOPES.get(stripped[1:-1].strip().lower())
        elif scope is not None and (reference := _conan_reference(stripped)) is not None:
            yield Dependency("conan", reference[0], reference[1], scope, path, number)


def conanfile_py(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    """The recipe's ``requires = ...`` attributes and its ``self.requires("x/1.0")`` calls (literal strings only)."""
    tree = ast.parse(text)
    line_of = python_lines(text)
    for node in ast.walk(tree):
        values: list[ast.expr] = []
        scope = None
        if isinstance(node, ast.Assign):
            scope = next((_CONAN_SCOPES[target.id] for target in node.targets
                          if isinstance(target, ast.Name) and target.id in _CONAN_SCOPES), None)
            values = list(node.value.elts) if isinstance(node.value, (ast.Tuple, ast.List)) else [node.value]
        elif (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CONAN_SCOPES
            and isinstance(node.func.value, ast.Name) and node.func.value.id == "self"
        ):
            scope = _CONAN_SCOPES[node.func.attr]
            values = node.args[:1]
        if scope is None:
            continue
        for value in values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                reference = _conan_reference(value.value)
                if reference is not None:
                    yield Dependency("conan", reference[0], reference[1], scope, path, line_of(value.lineno))

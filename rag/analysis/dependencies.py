"""The packages a repository declares it depends on, read from its manifests.

``declared_dependencies(path, text)`` reads one manifest and gives a
``Dependency`` for each package it declares: the package registry's name for
its ecosystem, the package's name as that registry spells it, the version as
the manifest writes it (a range, an exact version, a path or a git source), the
scope the manifest puts it in and the line that declares it. A file that is no
manifest, or that its format's parser refuses, declares nothing; nothing here
raises on what an upload may hold.

Manifests read (by file name; ``MANIFEST_NAMES`` and ``MANIFEST_SUFFIXES``):

- npm ``package.json``, Composer ``composer.json``;
- Cargo ``Cargo.toml`` (every ``*dependencies`` table, a target's and the
  workspace's included), ``go.mod``;
- Maven ``pom.xml`` (a version written as a property, ``${jackson.version}``,
  read from the file's ``<properties>``), Gradle ``build.gradle`` and
  ``build.gradle.kts`` (``implementation("group:name:version")`` and the map
  notation), Gradle's version catalog ``libs.versions.toml``;
- Python ``requirements*.txt`` (and ``.txt`` and ``.in`` files under a
  ``requirements/`` folder), ``pyproject.toml`` (PEP 621 and PEP 735, and
  Poetry's tables), ``setup.cfg``, ``setup.py`` (literal lists only).

Nothing here reads a lock file: the question a team asks is what the project
asked for, and lock files are generated.
"""

from __future__ import annotations

import ast
import configparser
import posixpath
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from packaging.requirements import InvalidRequirement, Requirement

from rag.analysis.console_scripts import json_value, line_of_key, toml_tables
from rag.analysis.python_source import literal

# A manifest longer than this is no one's hand-written manifest: it is not read.
MAX_MANIFEST_CHARS = 1024 * 1024


@dataclass(frozen=True)
class Dependency:
    """One package a manifest declares."""

    ecosystem: str  # the registry: npm, composer, cargo, go, maven, pypi
    name: str  # as the registry spells it: lodash, serde, golang.org/x/net, com.google.guava:guava
    version: str  # as written: ^4.17.21, 1.0, v0.17.0, >=2.0,<3; "path ../core", "git <url>", "workspace"; "" for none
    scope: str  # runtime, dev, build, peer, optional, indirect, managed, test, a Maven scope, a Gradle configuration or a group's name
    path: str  # the manifest
    line: int  # 1-based: the line that declares it


def declared_dependencies(path: str, text: str) -> list[Dependency]:
    """The packages the manifest at ``path`` declares, in the file's order; none for other files."""
    reader = manifest_reader(path)
    if reader is None or len(text) > MAX_MANIFEST_CHARS:
        return []
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    try:
        found = list(reader(path, text, lines))
    except (ValueError, TypeError, SyntaxError, RecursionError, MemoryError, configparser.Error):
        # SyntaxError: Python's parser, and ElementTree's ParseError, refusing the file.
        return []
    return sorted(found, key=lambda dependency: dependency.line)


def is_manifest(path: str) -> bool:
    return manifest_reader(path) is not None


def manifest_reader(path: str) -> Callable[[str, str, list[str]], Iterable[Dependency]] | None:
    name = posixpath.basename(path).lower()
    reader = MANIFEST_NAMES.get(name)
    if reader is not None:
        return reader
    if _REQUIREMENTS_NAME.fullmatch(name) or (
        posixpath.basename(posixpath.dirname(path)).lower() == "requirements" and name.endswith((".txt", ".in"))
    ):
        return _requirements_txt
    for suffix, reader in MANIFEST_SUFFIXES.items():
        if name.endswith(suffix):
            return reader
    return None


_REQUIREMENTS_NAME = re.compile(r"requirements([-_.][\w.-]*)?\.(txt|in)")


# --- npm and Composer -------------------------------------------------------------------------


def _json_sections(
    ecosystem: str, sections: dict[str, str], path: str, text: str, lines: list[str]
) -> Iterator[Dependency]:
    data = json_value(text)
    if not isinstance(data, dict):
        return
    for key, scope in sections.items():
        declared = data.get(key)
        if not isinstance(declared, dict):
            continue
        after = line_of_key(lines, key) - 1
        for name, version in declared.items():
            if isinstance(name, str) and name:
                shown = version if isinstance(version, str) else ""
                yield Dependency(ecosystem, name, shown, scope, path, line_of_key(lines, name, after))


def _package_json(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    sections = {
        "dependencies": "runtime",
        "devDependencies": "dev",
        "peerDependencies": "peer",
        "optionalDependencies": "optional",
    }
    return _json_sections("npm", sections, path, text, lines)


def _composer_json(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    return _json_sections("composer", {"require": "runtime", "require-dev": "dev"}, path, text, lines)


# --- Cargo and Go -----------------------------------------------------------------------------

_CARGO_SCOPES = {"dependencies": "runtime", "dev-dependencies": "dev", "build-dependencies": "build"}


def _cargo_toml(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    data = toml_tables(text)
    if data is None:
        return
    tables: list[tuple[str, str, Any]] = []  # (the table's header, as a pattern; scope; the table)
    for key, scope in _CARGO_SCOPES.items():
        tables.append((re.escape(key), scope, data.get(key)))
    workspace = data.get("workspace")
    if isinstance(workspace, dict):
        tables.append((r"workspace\.dependencies", "workspace", workspace.get("dependencies")))
    targets = data.get("target")
    if isinstance(targets, dict):
        for target, target_tables in targets.items():
            if isinstance(target_tables, dict):
                for key, scope in _CARGO_SCOPES.items():
                    header = rf"target\.[\"']?{re.escape(target)}[\"']?\.{re.escape(key)}"
                    tables.append((header, scope, target_tables.get(key)))
    for header, scope, table in tables:
        if not isinstance(table, dict):
            continue
        after = _toml_header_line(lines, header) - 1
        for name, spec in table.items():
            package = spec.get("package") if isinstance(spec, dict) else None
            yield Dependency(
                "cargo", package if isinstance(package, str) else name, _cargo_version(spec), scope, path,
                line_of_key(lines, name, after) if after >= 0 else _dotted_key_line(lines, name),
            )


def _cargo_version(spec: Any) -> str:
    if isinstance(spec, str):
        return spec
    if not isinstance(spec, dict):
        return ""
    if isinstance(spec.get("version"), str):
        return spec["version"]
    if spec.get("workspace") is True:
        return "workspace"
    for source in ("path", "git"):
        if isinstance(spec.get(source), str):
            return f"{source} {spec[source]}"
    return ""


def _toml_header_line(lines: list[str], header: str) -> int:
    """The line of the table header ``[header]`` (``header`` a pattern: ``dev-dependencies``,
    ``target\\.'cfg\\(unix\\)'\\.dependencies``); 0 when the table is written inline or dotted."""
    pattern = re.compile(rf"\s*\[\s*{header}\s*\]")
    return next((index + 1 for index, line in enumerate(lines) if pattern.match(line)), 0)


def _dotted_key_line(lines: list[str], name: str) -> int:
    """The line of ``dependencies.name = ...`` (a dotted key), or of ``name = ...`` anywhere."""
    dotted = re.compile(rf"\s*[\w.-]*\.{re.escape(name)}\s*=")
    for index, line in enumerate(lines):
        if dotted.match(line):
            return index + 1
    return line_of_key(lines, name)


def _go_mod(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    in_block = False
    for number, line in enumerate(lines, 1):
        code, _, comment = line.partition("//")
        words = code.split()
        if in_block:
            if words[:1] == [")"]:
                in_block = False
                continue
        elif words[:1] == ["require"]:
            if words[1:2] == ["("]:
                in_block = True
                continue
            words = words[1:]
        else:
            continue
        if len(words) >= 2:
            scope = "indirect" if comment.strip() == "indirect" else "runtime"
            yield Dependency("go", words[0].strip('"`'), words[1], scope, path, number)


# --- Maven and Gradle -------------------------------------------------------------------------

_PROPERTY = re.compile(r"\$\{([^}]+)\}")


def _pom_xml(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    # Python's expat (2.4 and later) refuses entity expansion attacks, and ElementTree
    # resolves no external entity, so an upload's XML costs what its size says.
    root = ElementTree.fromstring(text)
    if _local(root.tag) != "project":
        return
    properties = {}
    for element in root:
        if _local(element.tag) == "properties":
            properties = {_local(item.tag): (item.text or "").strip() for item in element}
    cursor = 0
    for container, managed in _pom_dependency_lists(root):
        for dependency in container:
            if _local(dependency.tag) != "dependency":
                continue
            fields = {_local(item.tag): (item.text or "").strip() for item in dependency}
            group, artifact = fields.get("groupId", ""), fields.get("artifactId", "")
            if not artifact:
                continue
            version = _PROPERTY.sub(lambda found: properties.get(found.group(1)) or found.group(0), fields.get("version", ""))
            scope = "managed" if managed else fields.get("scope", "compile")
            line, cursor = _xml_line(lines, f"<artifactId>{artifact}</artifactId>", cursor)
            yield Dependency("maven", f"{group}:{artifact}" if group else artifact, version, scope, path, line)


def _pom_dependency_lists(root: ElementTree.Element) -> Iterator[tuple[ElementTree.Element, bool]]:
    """Each ``<dependencies>`` of the project and of its profiles, and of ``<dependencyManagement>`` (managed)."""
    owners = [root] + [
        profile for profiles in root if _local(profiles.tag) == "profiles" for profile in profiles
    ]
    for owner in owners:
        for element in owner:
            tag = _local(element.tag)
            if tag == "dependencies":
                yield element, False
            elif tag == "dependencyManagement":
                for inner in element:
                    if _local(inner.tag) == "dependencies":
                        yield inner, True


def _local(tag: Any) -> str:
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


def _xml_line(lines: list[str], needle: str, cursor: int) -> tuple[int, int]:
    """The 1-based line at or after line index ``cursor`` holding ``needle`` (spaces inside
    tags ignored), and the cursor past it; the cursor's line when none does."""
    wanted = needle.replace(" ", "")
    for index in range(cursor, len(lines)):
        if wanted in lines[index].replace(" ", ""):
            return index + 1, index + 1
    return min(cursor + 1, max(len(lines), 1)), cursor


# implementation("group:name:version"), testImplementation 'group:name', api(platform("group:name:version"))
_GRADLE_STRING = re.compile(
    r"""^\s*(?P<configuration>[A-Za-z]\w*)\s*\(?\s*(?:(?:platform|enforcedPlatform)\s*\(\s*)?
    (?P<quote>["'])(?P<group>[^"':\s]+):(?P<name>[^"':\s]+)(?::(?P<version>[^"'\s@]+))?(?:@\w+)?(?P=quote)""",
    re.VERBOSE,
)
# implementation group: 'group', name: 'name', version: 'version'
_GRADLE_MAP = re.compile(r"""^\s*(?P<configuration>[A-Za-z]\w*)\s*\(?\s*group\s*[:=]\s*["'](?P<group>[^"']+)["']\s*,\s*name\s*[:=]\s*["'](?P<name>[^"']+)["'](?:\s*,\s*version\s*[:=]\s*["'](?P<version>[^"']+)["'])?""")
# Calls of the build script that take coordinates and are no dependency.
_GRADLE_NOT_CONFIGURATIONS = frozenset({"id", "plugin", "apply", "from", "mavenBom", "exclude", "module", "because"})


def _build_gradle(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    for number, line in enumerate(lines, 1):
        found = _GRADLE_STRING.match(line) or _GRADLE_MAP.match(line)
        if found is None or found.group("configuration") in _GRADLE_NOT_CONFIGURATIONS:
            continue
        name = f"{found.group('group')}:{found.group('name')}"
        yield Dependency("maven", name, found.group("version") or "", found.group("configuration"), path, number)


def _versions_toml(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    """Gradle's version catalog: ``[libraries]`` by coordinates, ``[plugins]`` by id."""
    data = toml_tables(text)
    if data is None:
        return
    versions = data.get("versions") if isinstance(data.get("versions"), dict) else {}
    for table, scope in (("libraries", "library"), ("plugins", "plugin")):
        entries = data.get(table)
        if not isinstance(entries, dict):
            continue
        after = max(_toml_header_line(lines, re.escape(table)) - 1, 0)
        for alias, spec in entries.items():
            name, version = _catalog_entry(spec, versions)
            if name:
                yield Dependency("maven", name, version, scope, path, line_of_key(lines, alias, after))


def _catalog_entry(spec: Any, versions: dict[str, Any]) -> tuple[str, str]:
    if isinstance(spec, str):
        group, _, rest = spec.partition(":")
        artifact, _, version = rest.partition(":")
        return (f"{group}:{artifact}" if artifact else group), version
    if not isinstance(spec, dict):
        return "", ""
    if isinstance(spec.get("module"), str):
        name = spec["module"]
    elif isinstance(spec.get("group"), str) and isinstance(spec.get("name"), str):
        name = f"{spec['group']}:{spec['name']}"
    elif isinstance(spec.get("id"), str):
        name = spec["id"]
    else:
        return "", ""
    version = spec.get("version")
    if isinstance(version, dict):
        version = versions.get(version.get("ref")) if isinstance(version.get("ref"), str) else version.get("strictly") or version.get("require")
    elif version is None and isinstance(spec.get("version.ref"), str):
        version = versions.get(spec["version.ref"])
    return name, version if isinstance(version, str) else ""


# --- Python -----------------------------------------------------------------------------------


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


def _requirements_txt(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    logical = ""
    start = 0
    for number, line in enumerate(lines, 1):
        if not logical:
            start = number
        stripped = line.split(" #", 1)[0].rstrip() if not line.lstrip().startswith("#") else ""
        if stripped.endswith("\\"):
            logical += stripped[:-1] + " "
            continue
        logical += stripped
        current, logical = logical.strip(), ""
        if not current or current.startswith("-"):
            continue  # options: -r other.txt, -e ., --index-url ...
        parsed = _requirement(current.split(" --", 1)[0])
        if parsed is not None:
            yield Dependency("pypi", parsed[0], parsed[1], "runtime", path, start)


def _pep508_list(
    values: Any, scope: str, path: str, lines: list[str], after: int
) -> Iterator[Dependency]:
    if not isinstance(values, (list, tuple)):
        return
    for value in values:
        parsed = _requirement(value) if isinstance(value, str) else None
        if parsed is not None:
            yield Dependency("pypi", parsed[0], parsed[1], scope, path, _quoted_line(lines, parsed[0], after))


def _quoted_line(lines: list[str], name: str, after: int) -> int:
    """The line at or below index ``after`` with ``name`` at the start of a quoted string or of a line."""
    pattern = re.compile(rf"""(^\s*|["']){re.escape(name)}(?![\w.-])""", re.IGNORECASE)
    for index in range(max(after, 0), len(lines)):
        if pattern.search(lines[index]):
            return index + 1
    return max(after, 0) + 1


def _pyproject_toml(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    data = toml_tables(text)
    if data is None:
        return
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    yield from _pep508_list(project.get("dependencies"), "runtime", path, lines, line_of_key(lines, "dependencies") - 1)
    extras = project.get("optional-dependencies")
    if isinstance(extras, dict):
        after = _toml_header_line(lines, r"project\.optional-dependencies") - 1
        for group, values in extras.items():
            yield from _pep508_list(values, group, path, lines, line_of_key(lines, group, max(after, 0)) - 1)
    groups = data.get("dependency-groups")
    if isinstance(groups, dict):
        after = _toml_header_line(lines, "dependency-groups") - 1
        for group, values in groups.items():
            yield from _pep508_list(
                [value for value in values if isinstance(value, str)] if isinstance(values, list) else (),
                group, path, lines, line_of_key(lines, group, max(after, 0)) - 1,
            )
    tool = data.get("tool") if isinstance(data.get("tool"), dict) else {}
    poetry = tool.get("poetry") if isinstance(tool.get("poetry"), dict) else {}
    tables: list[tuple[str, str, Any]] = [
        ("dependencies", "runtime", poetry.get("dependencies")),
        ("dev-dependencies", "dev", poetry.get("dev-dependencies")),
    ]
    if isinstance(poetry.get("group"), dict):
        for group, body in poetry["group"].items():
            if isinstance(body, dict):
                tables.append((f"group.{group}.dependencies", group, body.get("dependencies")))
    for header, scope, table in tables:
        if not isinstance(table, dict):
            continue
        after = _toml_header_line(lines, r"tool\.poetry\." + re.escape(header)) - 1
        for name, spec in table.items():
            if name.lower() == "python":
                continue  # the interpreter, not a package
            version = spec if isinstance(spec, str) else _cargo_version(spec)
            yield Dependency("pypi", name, version, scope, path, line_of_key(lines, name, max(after, 0)))


def _setup_cfg(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    sections = [("options", "install_requires", "runtime")]
    if parser.has_section("options.extras_require"):
        sections += [("options.extras_require", group, group) for group in parser.options("options.extras_require")]
    for section, key, scope in sections:
        if not parser.has_option(section, key):
            continue
        header = next((index for index, line in enumerate(lines) if line.strip() == f"[{section}]"), 0)
        after = line_of_key(lines, key, header) - 1
        values = [value.split("#", 1)[0].strip() for value in parser.get(section, key).splitlines()]
        yield from _pep508_list([value for value in values if value], scope, path, lines, after)


def _setup_py(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    tree = ast.parse(text)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not (
            (isinstance(node.func, ast.Name) and node.func.id == "setup")
            or (isinstance(node.func, ast.Attribute) and node.func.attr == "setup")
        ):
            continue
        for keyword in node.keywords:
            value = literal(keyword.value)
            after = keyword.value.lineno - 1
            if keyword.arg == "install_requires":
                yield from _pep508_list(value, "runtime", path, lines, after)
            elif keyword.arg == "tests_require":
                yield from _pep508_list(value, "test", path, lines, after)
            elif keyword.arg == "extras_require" and isinstance(keyword.value, ast.Dict):
                for key, values in zip(keyword.value.keys, keyword.value.values):
                    group = literal(key)
                    if isinstance(group, str):
                        yield from _pep508_list(literal(values), group, path, lines, values.lineno - 1)


# Manifests by file name (lower case), and by the end of their name.
MANIFEST_NAMES: dict[str, Callable[[str, str, list[str]], Iterable[Dependency]]] = {
    "package.json": _package_json,
    "composer.json": _composer_json,
    "cargo.toml": _cargo_toml,
    "go.mod": _go_mod,
    "pom.xml": _pom_xml,
    "build.gradle": _build_gradle,
    "build.gradle.kts": _build_gradle,
    "libs.versions.toml": _versions_toml,
    "pyproject.toml": _pyproject_toml,
    "setup.cfg": _setup_cfg,
    "setup.py": _setup_py,
}
MANIFEST_SUFFIXES: dict[str, Callable[[str, str, list[str]], Iterable[Dependency]]] = {}

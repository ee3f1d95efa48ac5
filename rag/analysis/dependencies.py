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
  Poetry's tables), ``setup.cfg``, ``setup.py`` (literal lists only);
- Ruby ``Gemfile`` (a ``group`` block's or a ``group:`` option's names as the
  scope) and ``*.gemspec``;
- .NET ``*.csproj``, ``*.fsproj`` and ``*.vbproj`` (``<PackageReference>``),
  ``Directory.Packages.props`` (central versions, ``managed``),
  ``packages.config``;
- Dart ``pubspec.yaml``, Elixir ``mix.exs`` (the ``deps`` function's tuples),
  Swift ``Package.swift``;
- C and C++: vcpkg's ``vcpkg.json``, Conan's ``conanfile.txt`` and
  ``conanfile.py`` (literal strings only).

Nothing here reads a lock file: the question a team asks is what the project
asked for, and lock files are generated.
"""

from __future__ import annotations

import ast
import bisect
import configparser
import posixpath
import re
import xml.etree.ElementTree as ElementTree
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import unescape

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


# --- Ruby -------------------------------------------------------------------------------------

# gem "name", "~> 1.0", ">= 1.0.1", group: :test  (parentheses optional)
_GEM = re.compile(r"""gem\s*\(?\s*(?P<quote>["'])(?P<name>[^"'\s]+)(?P=quote)(?P<rest>.*)""")
_RUBY_VERSION = re.compile(r"""\s*,\s*(?P<quote>["'])(?P<version>[^"']*)(?P=quote)""")
# group: :test, groups: [:development, :test], :group => "test"
_RUBY_GROUP_OPTION = re.compile(r"""(?:\bgroups?\s*:|:groups?\s*=>)\s*(?P<value>\[[^\]]*\]|:\w+|"[^"]*"|'[^']*')""")
_RUBY_SOURCE_OPTION = re.compile(r"""(?:\b(?P<key>github|git|path)\s*:|:(?P<rocket>github|git|path)\s*=>)\s*(?P<quote>["'])(?P<value>[^"']*)(?P=quote)""")
_RUBY_NAMES = re.compile(r"""(?<![\w:]):(\w+)|(["'])([^"']+)\2""")
_RUBY_GROUP_BLOCK = re.compile(r"group[\s(]")  # group :development, :test do
_RUBY_DO = re.compile(r"\bdo\s*(\|[^|]*\|)?$")
_RUBY_OPENER = re.compile(r"(if|unless|case|while|until|for|begin|def|class|module)\b")
_RUBY_END = re.compile(r"end\b")
_RUBY_ONE_LINE_END = re.compile(r"[\s;]end$")
# spec.add_dependency "rails", ">= 6", s.add_development_dependency(%q<rspec>.freeze, ["~> 3.0"])
_RUBY_STRING = re.compile(r""""(?P<double>(?:[^"\\]|\\.)*)"|'(?P<single>(?:[^'\\]|\\.)*)'|%q(?:<(?P<angle>[^>]*)>|\{(?P<brace>[^}]*)\}|\((?P<paren>[^)]*)\)|\[(?P<square>[^\]]*)\])""")
_GEMSPEC_DEPENDENCY = re.compile(
    rf"""\b\w+\s*\.\s*add_(?P<kind>runtime_|development_)?dependency\b\s*\(?\s*(?P<name>{_RUBY_STRING.pattern})(?P<rest>.*)"""
)


def _ruby_code(line: str) -> str:
    """The line without its comment (a ``#`` outside a string)."""
    quote = ""
    escaped = False
    for index, char in enumerate(line):
        if quote:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            return line[:index]
    return line


def _ruby_statements(lines: list[str]) -> Iterator[tuple[int, str]]:
    """Each statement's first line and its code: comments and ``=begin``/``=end`` blocks dropped, a line
    ending in a comma, an opening parenthesis or a backslash joined to the next."""
    statement, start, documentation = "", 0, False
    for number, line in enumerate(lines, 1):
        if documentation:
            documentation = not line.startswith("=end")
            continue
        if line.startswith("=begin"):
            documentation = True
            continue
        code = _ruby_code(line).strip()
        if not code:
            continue
        if not statement:
            start = number
        if code.endswith("\\"):
            statement += code[:-1] + " "
        elif code.endswith((",", "(")):
            statement += code + " "
        else:
            yield start, statement + code
            statement = ""
    if statement:
        yield start, statement.strip()


def _ruby_names(text: str) -> list[str]:
    """The symbols and strings of ``:development, "test"``."""
    return [found.group(1) or found.group(3) for found in _RUBY_NAMES.finditer(text)]


def _gemfile(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    blocks: list[list[str]] = []  # the groups each open block adds: a group's names, none for other blocks
    for number, code in _ruby_statements(lines):
        if _RUBY_END.match(code):
            if blocks:
                blocks.pop()
            continue
        gem = _GEM.match(code)
        if gem is not None:
            rest, position, versions = gem.group("rest"), 0, []
            while (version := _RUBY_VERSION.match(rest, position)) is not None:
                versions.append(version.group("version"))
                position = version.end()
            rest = rest[position:]
            source = _RUBY_SOURCE_OPTION.search(rest)
            if not versions and source is not None:
                versions.append(f"{source.group('key') or source.group('rocket')} {source.group('value')}")
            groups = [name for block in blocks for name in block]
            option = _RUBY_GROUP_OPTION.search(rest)
            if option is not None:
                groups += _ruby_names(option.group("value"))
            scope = ",".join(dict.fromkeys(groups)) or "runtime"
            yield Dependency("rubygems", gem.group("name"), ", ".join(versions), scope, path, number)
        elif (block := _RUBY_DO.search(code)) is not None:
            blocks.append(_ruby_names(code[len("group"):block.start()]) if _RUBY_GROUP_BLOCK.match(code) else [])
        elif _RUBY_OPENER.match(code) and not _RUBY_ONE_LINE_END.search(code):
            blocks.append([])


def _ruby_string(found: re.Match[str]) -> str:
    return next((value for value in found.group("double", "single", "angle", "brace", "paren", "square") if value is not None), "")


def _gemspec(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    seen = set()  # generated gemspecs declare each gem again in the branches of a version check
    for number, code in _ruby_statements(lines):
        found = _GEMSPEC_DEPENDENCY.search(code)
        if found is None:
            continue
        name = _ruby_string(_RUBY_STRING.match(found.group("name")))
        scope = "dev" if found.group("kind") == "development_" else "runtime"
        if not name or (name, scope) in seen:
            continue
        seen.add((name, scope))
        versions = [_ruby_string(version) for version in _RUBY_STRING.finditer(found.group("rest"))]
        yield Dependency("rubygems", name, ", ".join(versions), scope, path, number)


# --- .NET -------------------------------------------------------------------------------------

_MSBUILD_PROPERTY = re.compile(r"\$\(\s*([\w.-]+)\s*\)")


def _csproj(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    return _msbuild_items({"PackageReference": "runtime"}, path, text, lines)


def _directory_packages_props(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    return _msbuild_items({"PackageVersion": "managed"}, path, text, lines)


def _msbuild_items(tags: dict[str, str], path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    """MSBuild's package items (``<PackageReference Include="X" Version="1.0" />``), a version written as
    a property (``$(SerilogVersion)``) read from the file's ``<PropertyGroup>``s."""
    root = ElementTree.fromstring(text)
    if _local(root.tag) != "Project":
        return
    properties = {}
    for element in root.iter():
        if _local(element.tag) == "PropertyGroup":
            properties.update({_local(item.tag).lower(): (item.text or "").strip() for item in element})
    places = _xml_attribute_lines(lines, "Include|Update")
    cursor = 0
    for element in root.iter():
        scope = tags.get(_local(element.tag))
        name = _xml_attribute(element, "Include") or _xml_attribute(element, "Update")
        if scope is None or not name:
            continue
        version = _msbuild_metadata(element, "Version") or _msbuild_metadata(element, "VersionOverride")
        version = _MSBUILD_PROPERTY.sub(lambda found: properties.get(found.group(1).lower()) or found.group(0), version)
        if scope == "runtime" and _msbuild_metadata(element, "PrivateAssets").lower() == "all":
            scope = "dev"
        line, cursor = _line_after(places, name.lower(), cursor)
        yield Dependency("nuget", name, version, scope, path, line)


def _packages_config(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    root = ElementTree.fromstring(text)
    if _local(root.tag) != "packages":
        return
    places = _xml_attribute_lines(lines, "id")
    cursor = 0
    for element in root:
        name = _xml_attribute(element, "id")
        if _local(element.tag) != "package" or not name:
            continue
        scope = "dev" if _xml_attribute(element, "developmentDependency").lower() == "true" else "runtime"
        line, cursor = _line_after(places, name.lower(), cursor)
        yield Dependency("nuget", name, _xml_attribute(element, "version"), scope, path, line)


def _xml_attribute(element: ElementTree.Element, name: str) -> str:
    """The attribute ``name`` (in any case, as MSBuild reads it), stripped; "" when absent."""
    wanted = name.lower()
    return next((value.strip() for key, value in element.attrib.items() if _local(key).lower() == wanted), "")


def _msbuild_metadata(element: ElementTree.Element, name: str) -> str:
    """An item's metadata, written as an attribute or as a child element."""
    wanted = name.lower()
    attribute = _xml_attribute(element, name)
    if attribute:
        return attribute
    return next(((child.text or "").strip() for child in element if _local(child.tag).lower() == wanted), "")


def _xml_attribute_lines(lines: list[str], attributes: str) -> dict[str, list[int]]:
    """The line indexes where each value (lower case) is given to one of the ``attributes`` (a pattern: ``Include|Update``)."""
    pattern = re.compile(rf"""\b(?:{attributes})\s*=\s*(["'])(.*?)\1""", re.IGNORECASE)
    return _places((index, unescape(found.group(2)).strip().lower()) for index, line in enumerate(lines) for found in pattern.finditer(line))


def _places(found: Iterable[tuple[int, str]]) -> dict[str, list[int]]:
    places: dict[str, list[int]] = {}
    for index, value in found:
        places.setdefault(value, []).append(index)
    return places


def _line_after(places: dict[str, list[int]], value: str, cursor: int) -> tuple[int, int]:
    """The 1-based line of the first place of ``value`` at or after line index ``cursor``, and the cursor at
    that line (another entry may share it); the cursor's line, and the cursor, when there is none."""
    indexes = places.get(value, [])
    at = bisect.bisect_left(indexes, cursor)
    if at < len(indexes):
        return indexes[at] + 1, indexes[at]
    return cursor + 1, cursor


# --- Dart -------------------------------------------------------------------------------------

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


def _pubspec_yaml(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
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


# --- Elixir and Swift -------------------------------------------------------------------------

# Comments and strings of the two languages: masked (``_masked``) before brackets and commas are read.
_ELIXIR_TOKENS = re.compile(
    r"""(?P<comment>\#[^\n]*)|(?P<string>""\"[\s\S]*?(?:""\"|\Z)|"(?:[^"\\]|\\.)*"?|'(?:[^'\\\n]|\\.)*'?)""", re.DOTALL
)
_SWIFT_TOKENS = re.compile(r"""(?P<comment>//[^\n]*|/\*[\s\S]*?(?:\*/|\Z))|(?P<string>""\"[\s\S]*?(?:""\"|\Z)|"(?:[^"\\\n]|\\.)*"?)""")
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"', re.DOTALL)
_BRACKETS = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}


def _masked(text: str, tokens: re.Pattern[str]) -> tuple[str, str]:
    """The text with its comments blanked, and that again with each string's inside filled with ``_``:
    both as long as the text and with its line breaks, so that an offset in one is an offset in the
    others, and a bracket or comma in the second is the code's."""

    def blank(found: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", found.group(0)) if found.lastgroup == "comment" else found.group(0)

    def fill(found: re.Match[str]) -> str:
        token = found.group(0)
        if found.lastgroup == "comment":
            return re.sub(r"[^\n]", " ", token)
        closing = token[-1] if len(token) > 1 and token[-1] == token[0] else ""
        return token[0] + re.sub(r"[^\n]", "_", token[1:len(token) - len(closing)]) + closing

    return tokens.sub(blank, text), tokens.sub(fill, text)


def _closing(masked: str, start: int, end: int) -> int:
    """The offset of the bracket that closes the one at ``start``; -1 when none does before ``end``."""
    depth = 0
    for index in range(start, end):
        depth += _BRACKETS.get(masked[index], 0)
        if depth == 0:
            return index
    return -1


def _elements(masked: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of the comma-separated elements between ``start`` and ``end``, spaces stripped."""
    spans = []
    depth = 0
    begin = start
    for index in range(start, end + 1):
        char = masked[index] if index < end else ","
        if char == "," and depth == 0:
            piece = masked[begin:index]
            left = begin + len(piece) - len(piece.lstrip())
            right = index - (len(piece) - len(piece.rstrip()))
            if left < right:
                spans.append((left, right))
            begin = index + 1
        else:
            depth += _BRACKETS.get(char, 0)
    return spans


def _line_finder(text: str) -> Callable[[int], int]:
    """The 1-based line of an offset in ``text``, its lines counted as ``str.splitlines`` counts them."""
    starts = [found.end() for found in re.finditer(r"\r\n|[\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]", text)]
    return lambda offset: bisect.bisect_right(starts, offset) + 1


def _string_value(text: str) -> str | None:
    """The contents of a literal string written alone; None for anything else."""
    found = _QUOTED.fullmatch(text)
    return found.group(1) if found else None


_ELIXIR_DEPS = re.compile(r"\bdefp?\s+deps\b\s*(?:\(\s*\))?\s*(?:(?P<block>do\b)(?!:)|,\s*do:\s*)")
_ELIXIR_BLOCK_WORD = re.compile(r"(?<![\w:.])(do|fn|end)\b(?![:?!])")
_ELIXIR_TUPLE = re.compile(r'\{\s*:(?:\w+[?!]?|"[^"\n]*")\s*,')
_ELIXIR_KEYWORD = re.compile(r"(\w+[?!]?):\s")
_ELIXIR_ATOMS = re.compile(r"(?<![\w:]):(\w+)")


def _mix_exs(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    clean, masked = _masked(text, _ELIXIR_TOKENS)
    start, end, strict = _elixir_deps_body(masked)
    line_of = _line_finder(text)
    position = start
    while (found := _ELIXIR_TUPLE.search(masked, position, end)) is not None:
        close = _closing(masked, found.start(), end)
        if close < 0:
            break
        position = close + 1
        spans = _elements(masked, found.start() + 1, close)
        name = clean[spans[0][0] + 1:spans[0][1]].strip('"')
        version, options, second = "", {}, ""  # second: what the tuple's second element is
        for index, (left, right) in enumerate(spans[1:], 1):
            if masked[left] == "[" and masked[right - 1] == "]":
                items = _elements(masked, left + 1, right - 1)
            elif _ELIXIR_KEYWORD.match(masked, left, right):
                items = [(left, right)]
            else:
                if index == 1:
                    written = clean[left:right]
                    value = _string_value(written)
                    version, second = (value, "string") if value is not None else (" ".join(written.split()), "")
                continue
            for item_left, item_right in items:
                keyword = _ELIXIR_KEYWORD.match(masked, item_left, item_right)
                if keyword is not None:
                    options[keyword.group(1)] = clean[keyword.end():item_right].strip()
                    second = second or ("keywords" if index == 1 else "")
        if strict and not second:
            continue  # no deps function: a tuple is a dependency only when it looks like one
        if not version:
            sources = ((source, _string_value(options.get(source, ""))) for source in ("github", "git", "path"))
            version = next((f"{source} {value}" for source, value in sources if value is not None), "")
        only = _ELIXIR_ATOMS.findall(options.get("only", ""))
        yield Dependency("hex", name, version, ",".join(only) or "runtime", path, line_of(found.start()))


def _elixir_deps_body(masked: str) -> tuple[int, int, bool]:
    """The span of the ``deps`` function's body, and whether it is the whole file (no such function)."""
    found = _ELIXIR_DEPS.search(masked)
    if found is None:
        return 0, len(masked), True
    if found.group("block") is None:  # defp deps, do: [...]
        if masked[found.end():found.end() + 1] != "[":
            return 0, len(masked), True
        close = _closing(masked, found.end(), len(masked))
        return found.end(), (close if close >= 0 else len(masked)), False
    depth = 1
    for word in _ELIXIR_BLOCK_WORD.finditer(masked, found.end()):
        depth += -1 if word.group(1) == "end" else 1
        if depth == 0:
            return found.end(), word.start(), False
    return found.end(), len(masked), False


_SWIFT_PACKAGE = re.compile(r"\.package\s*\(")
_SWIFT_LABEL = re.compile(r"(\w+)\s*:(?!:)\s*")
_SWIFT_CALL = re.compile(r"\.(\w+)\s*\(")
# Arguments of .package(...) that say where the package is or what it is called, not its version.
_SWIFT_NOT_VERSION = frozenset({"name", "url", "path", "id", "traits"})


def _package_swift(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    clean, masked = _masked(text, _SWIFT_TOKENS)
    line_of = _line_finder(text)
    position = 0
    while (found := _SWIFT_PACKAGE.search(masked, position)) is not None:
        close = _closing(masked, found.end() - 1, len(masked))
        if close < 0:
            break
        position = close + 1
        labelled, versions = {}, []
        for label, left, right in _swift_arguments(masked, found.end(), close):
            if label in _SWIFT_NOT_VERSION:
                labelled[label] = _string_value(clean[left:right])
            else:
                versions.append(_swift_requirement(clean, masked, label, left, right))
        location = labelled.get("url") or labelled.get("path") or ""
        name = labelled.get("name") or labelled.get("id") or re.split(r"[/:]", location.rstrip("/"))[-1].removesuffix(".git")
        if not name:
            continue
        version = " ".join(versions) or (f"path {labelled['path']}" if labelled.get("path") else "")
        yield Dependency("swift", name, version, "runtime", path, line_of(found.start()))


def _swift_arguments(masked: str, start: int, end: int) -> Iterator[tuple[str, int, int]]:
    """Each argument between ``start`` and ``end``: its label ("" for none) and its value's span."""
    for left, right in _elements(masked, start, end):
        label = _SWIFT_LABEL.match(masked, left, right)
        yield (label.group(1), label.end(), right) if label else ("", left, right)


def _swift_requirement(clean: str, masked: str, label: str, left: int, right: int, nested: bool = False) -> str:
    """A version requirement in words: ``from 2.0.0``, ``upToNextMajor from 1.0.0``, ``exact 1.2.3``, a range
    as written (a call's arguments read one level down, no further)."""
    call = None if nested else _SWIFT_CALL.match(masked, left, right)
    if call is not None and _closing(masked, call.end() - 1, right) == right - 1:
        words = [call.group(1)] + [
            _swift_requirement(clean, masked, inner, inner_left, inner_right, nested=True)
            for inner, inner_left, inner_right in _swift_arguments(masked, call.end(), right - 1)
        ]
    else:
        written = clean[left:right]
        value = _string_value(written)
        words = [value if value is not None else " ".join(written.split())]
    return " ".join([label, *words] if label else words)


# --- C and C++ --------------------------------------------------------------------------------


def _vcpkg_json(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    data = json_value(text)
    if not isinstance(data, dict):
        return
    keys: list[tuple[int, str]] = []
    values: list[tuple[int, str]] = []
    for index, line in enumerate(lines):
        for found in _JSON_STRING.finditer(line):
            (keys if found.group(2) else values).append((index, found.group(1)))
    key_places, value_places = _places(keys), _places(values)
    lists = [(data.get("dependencies"), "runtime", _line_after(key_places, "dependencies", 0)[1])]
    features = data.get("features")
    if isinstance(features, dict):
        after = _line_after(key_places, "features", 0)[1]
        for feature, body in features.items():
            if isinstance(body, dict):
                after = _line_after(key_places, feature, after)[1]
                lists.append((body.get("dependencies"), feature, after))
    lists.append((data.get("overrides"), "override", _line_after(key_places, "overrides", 0)[1]))
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
            line, after = _line_after(value_places, name, after)
            yield Dependency("vcpkg", name, version, kind, path, line)


# A JSON string (its contents as written), and the colon after it when it is a key.
_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"(\s*:)?')


_CONAN_SCOPES = {"requires": "runtime", "tool_requires": "build", "build_requires": "build", "test_requires": "test"}
_CONAN_NAME = re.compile(r"[\w.+-]+")


def _conan_reference(reference: str) -> tuple[str, str] | None:
    """``zlib/1.2.13@user/channel#revision`` -> (zlib, 1.2.13); a version range, ``[>=1.2 <2]``, as written."""
    name, _, rest = reference.strip().partition("/")
    if not _CONAN_NAME.fullmatch(name):
        return None
    return name, re.split(r"[@#]", rest, maxsplit=1)[0].strip()


def _conanfile_txt(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    scope = None
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("[") and stripped.endswith("]"):
            scope = _CONAN_SCOPES.get(stripped[1:-1].strip().lower())
        elif scope is not None and (reference := _conan_reference(stripped)) is not None:
            yield Dependency("conan", reference[0], reference[1], scope, path, number)


def _conanfile_py(path: str, text: str, lines: list[str]) -> Iterator[Dependency]:
    """The recipe's ``requires = ...`` attributes and its ``self.requires("x/1.0")`` calls (literal strings only)."""
    tree = ast.parse(text)
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
                    yield Dependency("conan", reference[0], reference[1], scope, path, value.lineno)


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
    "gemfile": _gemfile,
    "directory.packages.props": _directory_packages_props,
    "packages.config": _packages_config,
    "pubspec.yaml": _pubspec_yaml,
    "mix.exs": _mix_exs,
    "package.swift": _package_swift,
    "vcpkg.json": _vcpkg_json,
    "conanfile.txt": _conanfile_txt,
    "conanfile.py": _conanfile_py,
}
MANIFEST_SUFFIXES: dict[str, Callable[[str, str, list[str]], Iterable[Dependency]]] = {
    ".gemspec": _gemspec,
    ".csproj": _csproj,
    ".fsproj": _csproj,
    ".vbproj": _csproj,
}

"""Commands declared in packaging and build metadata: pyproject.toml, setup.cfg, setup.py, package.json, Cargo.toml,
CMakeLists.txt and Automake's Makefile.am; and the names code imports a package by (Cargo.toml, go.mod,
package.json, a tsconfig.json's paths)."""

from __future__ import annotations

import ast
import configparser
import posixpath
import re

import pyjson5

from rag.analysis.facts import ConsoleScript
from rag.analysis.manifest_text import KeyLines, json_value, toml_tables
from rag.analysis.filetypes import is_test_path
from rag.analysis.python_source import literal

SCRIPT_GROUPS = ("console_scripts", "gui_scripts")


def _parse_spec(spec: str) -> tuple[str, str] | None:
    """``name = module:attr [extras]`` -> (name, module:attr)."""
    name, separator, target = spec.partition("=")
    target = target.split("[", 1)[0].strip()
    if not separator or not name.strip() or not target:
        return None
    return name.strip(), target


def pyproject_scripts(text: str, lines: list[str]) -> list[ConsoleScript]:
    data = toml_tables(text)
    if data is None:
        return []
    project = data.get("project") if isinstance(data.get("project"), dict) else {}
    poetry = data.get("tool", {}).get("poetry", {}) if isinstance(data.get("tool"), dict) else {}
    tables = [
        ("[project.scripts]", "console_scripts", project.get("scripts")),
        ("[project.gui-scripts]", "gui_scripts", project.get("gui-scripts")),
        ("[tool.poetry.scripts]", "console_scripts", poetry.get("scripts") if isinstance(poetry, dict) else None),
    ]
    scripts = []
    keys = KeyLines(lines)
    for header, group, table in tables:
        if not isinstance(table, dict):
            continue
        after = next((index for index, line in enumerate(lines) if line.strip() == header), 0)
        for name, target in table.items():
            if isinstance(target, str):
                scripts.append(ConsoleScript(name, target.split("[", 1)[0].strip(), keys.line(name, after), group))
    return scripts


def setup_cfg_scripts(text: str, lines: list[str]) -> list[ConsoleScript]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return []
    if not parser.has_section("options.entry_points"):
        return []
    after = next((index for index, line in enumerate(lines) if line.strip() == "[options.entry_points]"), 0)
    scripts = []
    keys = KeyLines(lines)
    for group in SCRIPT_GROUPS:
        for spec in parser.get("options.entry_points", group, fallback="").splitlines():
            parsed = _parse_spec(spec)
            if parsed is not None:
                scripts.append(ConsoleScript(parsed[0], parsed[1], keys.line(parsed[0], after), group))
    return scripts


def setup_py_scripts(tree: ast.Module, lines: list[str]) -> list[ConsoleScript]:
    """``entry_points={"console_scripts": ["name = module:attr"]}`` given to any call (``setup()``)."""
    scripts = []
    keys = KeyLines(lines)
    for node in ast.walk(tree):
        if type(node) is not ast.Call:
            continue
        for keyword in node.keywords:
            if keyword.arg != "entry_points":
                continue
            entry_points = literal(keyword.value)
            if not isinstance(entry_points, dict):
                continue
            for group in SCRIPT_GROUPS:
                specs = entry_points.get(group) or []
                if isinstance(specs, str):
                    specs = specs.splitlines()
                elif not isinstance(specs, (list, tuple, set)):
                    continue  # a number or a name the file binds elsewhere: no list of scripts written here
                for spec in specs:
                    parsed = _parse_spec(spec) if isinstance(spec, str) else None
                    if parsed is not None:
                        scripts.append(
                            ConsoleScript(parsed[0], parsed[1], keys.line(parsed[0], keyword.lineno - 1), group)
                        )
    return scripts


def package_json_scripts(text: str, lines: list[str]) -> list[ConsoleScript]:
    """npm's ``bin`` (a file, or commands to files; a lone file is named for the package) and ``scripts``."""
    data = json_value(text)
    if not isinstance(data, dict):
        return []
    bins = data.get("bin")
    if isinstance(bins, str) and isinstance(data.get("name"), str):
        bins = {data["name"].rsplit("/", 1)[-1]: bins}
    scripts = []
    keys = KeyLines(lines)
    for key, group in (("bin", "npm_bin"), ("scripts", "npm_script")):
        table = bins if key == "bin" else data.get("scripts")
        if not isinstance(table, dict):
            continue
        after = next((index for index, line in enumerate(lines) if line.strip().startswith(f'"{key}"')), 0)
        for name, target in table.items():
            if isinstance(target, str):
                line = keys.line(name, after) if key == "scripts" or isinstance(data.get("bin"), dict) else after + 1
                scripts.append(ConsoleScript(name, target, line, group))
    return scripts


def cargo_crate_name(text: str) -> str | None:
    """The name Rust code ``use``s a package's library by: ``[lib] name``, else ``[package] name``
    with ``-`` read as ``_``; None for a workspace manifest without a package."""
    data = toml_tables(text)
    if data is None:
        return None
    for table in ("lib", "package"):
        section = data.get(table)
        if isinstance(section, dict) and isinstance(section.get("name"), str):
            return section["name"].replace("-", "_")
    return None


def go_module_path(text: str) -> str | None:
    """The module path a ``go.mod`` declares (``module example.com/shop``)."""
    for line in text.splitlines():
        words = line.split("//", 1)[0].split()
        if len(words) == 2 and words[0] == "module":
            return words[1].strip('"`')
    return None


def pubspec_name(text: str) -> str | None:
    """The name a Dart package's ``pubspec.yaml`` gives it (``name: shop``): what ``package:shop/...`` imports."""
    found = _PUBSPEC_NAME.search(text)
    return found.group(1) if found is not None else None


_PUBSPEC_NAME = re.compile(r"^name:\s*['\"]?([A-Za-z_]\w*)['\"]?\s*(?:#.*)?$", re.MULTILINE)


def package_json_name(text: str) -> str | None:
    """The name a ``package.json`` gives its package (``@vue/shared``): what a workspace's other packages import."""
    data = json_value(text)
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) and name else None


# A tsconfig.json larger than this is no project's configuration: it is not read for its paths.
MAX_TSCONFIG_CHARS = 256 * 1024


def tsconfig_paths(path: str, text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """A ``tsconfig.json``'s (or ``jsconfig.json``'s) ``compilerOptions.paths``, each place taken from the
    repository's root: relative to ``baseUrl``, itself relative to the file's folder (TypeScript's rule,
    the folder itself when there is no ``baseUrl``); with a ``baseUrl``, a last pattern ``*`` for the
    names found below it. The file is JSON with comments and trailing commas
    (JSON5 reads both; pyjson5, in C, reads 150 KB in a millisecond and refuses deep nesting at once);
    ``extends`` is not followed: a base file's own paths are read from it."""
    if len(text) > MAX_TSCONFIG_CHARS:
        return ()
    try:
        data = pyjson5.decode(text)
    except (pyjson5.Json5Exception, ValueError):
        return ()
    options = data.get("compilerOptions") if isinstance(data, dict) else None
    if not isinstance(options, dict):
        return ()
    paths = options.get("paths") if isinstance(options.get("paths"), dict) else {}
    given_base = options.get("baseUrl") if isinstance(options.get("baseUrl"), str) else None
    if given_base is not None:
        # A name no pattern maps is looked for below ``baseUrl`` too (``background/utils/api`` of
        # ``"baseUrl": "./src"``), after the patterns, before the packages.
        paths = {**paths, "*": ["*"]} if "*" not in paths else paths
    base = posixpath.normpath(posixpath.join(posixpath.dirname(path), given_base or "."))
    mapped = []
    for pattern, places in paths.items():
        if not isinstance(places, list):
            continue
        rooted = tuple(
            posixpath.normpath(posixpath.join(base, place)).removeprefix("./")
            for place in places
            if isinstance(place, str) and place.count("*") <= 1
        )
        if isinstance(pattern, str) and pattern.count("*") <= 1 and rooted:
            mapped.append((pattern, rooted))
    return tuple(mapped)


def cargo_bins(path: str, text: str, lines: list[str]) -> list[ConsoleScript]:
    """Cargo's ``[[bin]]`` and ``[[example]]`` targets, each aimed at the ``main`` of its file (by default
    ``src/main.rs`` for the package's own name, else ``src/bin/<name>.rs``; ``examples/<name>.rs`` for an
    example). Binaries and examples Cargo finds by itself (``src/main.rs``, ``src/bin/*.rs``,
    ``examples/*.rs``) are their files' main functions, named for the file."""
    data = toml_tables(text)
    if data is None:
        return []
    package = data.get("package") if isinstance(data.get("package"), dict) else {}
    crate = posixpath.dirname(path)
    scripts = []
    keys = KeyLines(lines)
    for table, group in (("bin", "cargo_bin"), ("example", "cargo_example")):
        headers = [index for index, line in enumerate(lines) if line.strip() == f"[[{table}]]"]
        targets = data.get(table)
        # ``[[bin]]`` is a list of tables; any other value (``bin = 3``, ``example = true``) names no target.
        for number, target in enumerate(targets if isinstance(targets, list) else ()):
            if not isinstance(target, dict) or not isinstance(target.get("name"), str):
                continue
            name = target["name"]
            if table == "example":
                default = f"examples/{name}.rs"
            else:
                default = "src/main.rs" if name == package.get("name") else f"src/bin/{name}.rs"
            source = posixpath.normpath(posixpath.join(crate, str(target.get("path") or default)))
            after = headers[number] if number < len(headers) else 0
            main = posixpath.splitext(source)[0].replace("/", ".").replace("-", "_") + ".main"
            scripts.append(ConsoleScript(name, main, keys.line("name", after), group))
    return scripts


# A C or C++ program's sources, as a build file lists them (the one with ``main`` is the program's entry).
_PROGRAM_SOURCES = (".c", ".cc", ".cpp", ".cxx", ".c++")
_CMAKE_EXECUTABLE = re.compile(r"\badd_executable\s*\(([^()]*)\)", re.IGNORECASE)
# Arguments of ``add_executable`` that are no source: its options, and targets made elsewhere.
_CMAKE_OPTIONS = frozenset({"WIN32", "MACOSX_BUNDLE", "EXCLUDE_FROM_ALL"})
_CMAKE_NOT_BUILT = frozenset({"IMPORTED", "ALIAS"})


def _program(name: str, sources: list[str], folder: str, line: int, group: str) -> ConsoleScript | None:
    """A program built from ``sources`` (paths relative to ``folder``), aimed at the ``main`` of its first C or C++
    source; none when its name or that source is computed (``${name}``) or is a test's."""
    source = next((s for s in sources if s.lower().endswith(_PROGRAM_SOURCES)), None)
    if source is None or "$" in name or "$" in source:
        return None
    path = posixpath.normpath(posixpath.join(folder, source))
    if path.startswith("../") or is_test_path(path):
        return None
    return ConsoleScript(name, posixpath.splitext(path)[0].replace("/", ".").replace("-", "_") + ".main", line, group)


def cmake_executables(path: str, text: str) -> list[ConsoleScript]:
    """CMake's ``add_executable(name [WIN32] source ...)`` targets, each aimed at its first source's ``main``."""
    folder = posixpath.dirname(path)
    code = re.sub(r"#[^\n]*", "", text)
    programs = []
    for found in _CMAKE_EXECUTABLE.finditer(code):
        words = found.group(1).split()
        if len(words) < 2 or _CMAKE_NOT_BUILT & set(words[1:2]):
            continue
        sources = [word.removeprefix("${CMAKE_CURRENT_SOURCE_DIR}/") for word in words[1:] if word not in _CMAKE_OPTIONS]
        program = _program(words[0], sources, folder, code.count("\n", 0, found.start()) + 1, "cmake_executable")
        if program is not None:
            programs.append(program)
    return programs


def automake_programs(path: str, text: str) -> list[ConsoleScript]:
    """Automake's installed programs (``bin_PROGRAMS = jq`` with ``jq_SOURCES = src/main.c ...``), each aimed at
    its first source's ``main``; ``check_PROGRAMS`` are tests."""
    lines = text.replace("\\\n", " ").splitlines()
    variables: dict[str, tuple[list[str], int]] = {}
    for number, line in enumerate(lines, 1):
        name, equals, value = line.partition("=")
        name = name.strip().rstrip("+:")
        if equals and re.fullmatch(r"[A-Za-z0-9_]+", name):
            words, _ = variables.get(name, ([], number))
            variables[name] = (words + value.split("#", 1)[0].split(), number)
    folder = posixpath.dirname(path)
    programs = []
    for prefix in ("bin", "sbin", "libexec"):
        for name in variables.get(f"{prefix}_PROGRAMS", ([], 0))[0]:
            sources, line = variables.get(re.sub(r"[^A-Za-z0-9_]", "_", name) + "_SOURCES", ([], 0))
            program = _program(name, sources, folder, line, "automake_program")
            if program is not None:
                programs.append(program)
    return programs

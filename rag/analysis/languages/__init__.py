"""Languages other than Python, read with tree-sitter: one folder per language, one walker for all.

Each folder holds a ``language.toml`` (file suffixes, the grammar package and
its language function, where its tags query comes from, test-file patterns)
and, for grammars that ship no tags query, a ``tags.scm`` of its own. The
queries capture definitions (``@definition.class``, ``@definition.function``,
``@definition.method`` ...) and references (``@reference.call`` ...) with a
``@name``, the convention of the grammars' own ``queries/tags.scm``. Three
captures of our own name things the way the language does: ``@receiver``
beside a definition's ``@name`` puts it under that type (a Go method),
``@container`` with a ``@name`` is a scope that is no symbol of its own (a
Rust ``impl`` block), and ``@package`` is the file's namespace (Java,
Kotlin). The walker turns the captures into the records the Python analysis produces:
symbols with their parents, docs and signatures, blocks for chunking, and the
file's facts (its calls and type references) that the repository pass
resolves into edges. Adding a language is a folder.
"""

from __future__ import annotations

import importlib
import importlib.resources
import posixpath
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import pathspec
import tree_sitter

from rag.analysis.chunking import Block
from rag.analysis.facts import FileFacts, Reference
from rag.analysis.records import Entrypoint, Symbol

FOLDER = Path(__file__).resolve().parent

# The kinds of the tags convention, as the catalog's kinds.
_KINDS = {
    "class": "class", "interface": "class", "module": "class", "type": "class", "struct": "class",
    "enum": "class", "trait": "class", "implementation": "class",
    "function": "function", "macro": "function",
    "method": "method",
    "constant": "const", "field": "const",
}
# A definition's signature is its first line, cut here.
SIGNATURE_CHARS = 200
# Files larger than this are windowed instead of parsed (generated or vendored code).
MAX_PARSED_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class LanguageSpec:
    name: str
    suffixes: tuple[str, ...]
    grammar: str
    function: str
    tags_from: tuple[str, ...]
    unit: str = "file"
    test_paths: tuple[str, ...] = ()
    # Folders whose queries this language also reads (TypeScript reads JavaScript's).
    extends: tuple[str, ...] = ()
    folder: Path = field(default=FOLDER)

    @classmethod
    def load(cls, folder: Path) -> LanguageSpec:
        table: dict[str, Any] = tomllib.loads((folder / "language.toml").read_text())
        return cls(
            name=folder.name,
            suffixes=tuple(table["suffixes"]),
            grammar=table["grammar"],
            function=table.get("function", "language"),
            tags_from=tuple(table.get("tags_from", ())),
            unit=table.get("unit", "file"),
            test_paths=tuple(table.get("test_paths", ())),
            extends=tuple(table.get("extends", ())),
            folder=folder,
        )

    def own_queries(self, name: str) -> list[str]:
        """The ``name`` queries of this folder and of the folders it extends."""
        folders = [self.folder, *(self.folder.parent / other for other in self.extends)]
        return [(folder / name).read_text(encoding="utf-8") for folder in folders if (folder / name).exists()]

    @property
    def tags_source(self) -> str:
        """The tags query: our ``tags.scm`` first (its captures of a span win), then the named
        grammar packages' own."""
        parts = self.own_queries("tags.scm")
        parts += [
            importlib.resources.files(package).joinpath("queries", "tags.scm").read_text(encoding="utf-8")
            for package in self.tags_from
        ]
        return "\n".join(parts)


@cache
def specs() -> dict[str, LanguageSpec]:
    """Every language folder, by suffix."""
    found: dict[str, LanguageSpec] = {}
    for folder in sorted(FOLDER.iterdir()):
        if (folder / "language.toml").exists():
            spec = LanguageSpec.load(folder)
            for suffix in spec.suffixes:
                found[suffix] = spec
    return found


def spec_for(path: str) -> LanguageSpec | None:
    return specs().get(posixpath.splitext(path)[1].lower())


@cache
def _language(spec: LanguageSpec) -> tree_sitter.Language:
    return tree_sitter.Language(getattr(importlib.import_module(spec.grammar), spec.function)())


@cache
def _grammar(spec: LanguageSpec) -> tuple[tree_sitter.Parser, tree_sitter.Query]:
    """The parser and the compiled tags query of a language, built once per process."""
    language = _language(spec)
    return tree_sitter.Parser(language), tree_sitter.Query(language, spec.tags_source)


@cache
def _entrypoints_query(spec: LanguageSpec) -> tree_sitter.Query | None:
    """The folder's ``entrypoints.scm``: ``@main`` (with its ``@name``) on a program's main function,
    ``@route.<framework>`` on a route registration with its ``@path`` and ``@method``."""
    sources = spec.own_queries("entrypoints.scm")
    return tree_sitter.Query(_language(spec), "\n".join(sources)) if sources else None


@cache
def _test_spec() -> pathspec.PathSpec:
    patterns = sorted({pattern for spec in specs().values() for pattern in spec.test_paths})
    return pathspec.PathSpec.from_lines("gitignore", patterns)


def is_test_file(path: str) -> bool:
    """Whether a path is a test by the conventions of its ecosystem (``*_test.go``, ``src/test/``, ``*.spec.ts`` ...)."""
    return _test_spec().match_file(path)


def parses(path: str, text: str) -> str | None:
    """None when ``text`` parses cleanly with the grammar of ``path``'s language, else where it does not."""
    spec = spec_for(path)
    if spec is None:
        return None
    parser, _ = _grammar(spec)
    root = parser.parse(text.encode("utf-8", "surrogatepass")).root_node
    if not root.has_error:
        return None
    bad = _first_error(root)
    line = bad.start_point[0] + 1 if bad is not None else 1
    return f"{spec.name} does not parse (near line {line})"


def _first_error(node: tree_sitter.Node) -> tree_sitter.Node | None:
    if node.is_error or node.is_missing:
        return node
    for child in node.children:
        if child.has_error or child.is_missing:
            found = _first_error(child)
            if found is not None:
                return found
    return None


def unit_name(path: str, spec: LanguageSpec) -> str:
    """The dotted name a file's symbols live under: its path, or its folder for package-per-folder languages."""
    stem = posixpath.splitext(path)[0]
    if spec.unit == "directory":
        stem = posixpath.dirname(path) or posixpath.basename(stem)
    return stem.replace("/", ".").replace("-", "_") or "_"


@dataclass
class _Definition:
    node: tree_sitter.Node
    name: str
    kind: str
    receiver: str = ""
    # A naming scope only (no symbol): a Rust impl block.
    container: bool = False
    children: list[_Definition] = field(default_factory=list)
    qname: str = ""


def _text(node: tree_sitter.Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text is not None else ""


def _doc(node: tree_sitter.Node) -> str:
    """The comments right above a definition (JSDoc, Javadoc, GoDoc, rustdoc, Doxygen ...), markers stripped.

    A definition wrapped in another node it starts (``export function``, an annotated declaration)
    has its comments above the wrapper.
    """
    while node.prev_named_sibling is None and node.parent is not None and node.parent.parent is not None:
        node = node.parent
    lines: list[str] = []
    previous = node.prev_sibling
    below = node.start_point[0]
    while previous is not None and "comment" in previous.type and previous.end_point[0] >= below - 1:
        lines[:0] = _text(previous).splitlines()
        below = previous.start_point[0]
        previous = previous.prev_sibling
    cleaned = []
    for line in lines:
        line = line.strip().removeprefix("/**").removeprefix("/*").removesuffix("*/").strip()
        line = line.lstrip("/!#*").strip()
        if line:
            cleaned.append(line)
    return "\n".join(cleaned)


def _signature(node: tree_sitter.Node) -> str:
    first = _text(node).split("\n", 1)[0]
    return first.split("{", 1)[0].strip()[:SIGNATURE_CHARS]


def extract_tree_sitter(
    path: str, text: str, spec: LanguageSpec
) -> tuple[list[Symbol], list[Block], FileFacts]:
    """Symbols, top-level blocks and facts of one file of a tree-sitter language."""
    unit = unit_name(path, spec)
    data = text.encode("utf-8", "surrogatepass")
    if len(data) > MAX_PARSED_BYTES:
        return [], [], FileFacts(module=unit)
    parser, query = _grammar(spec)
    root = parser.parse(data).root_node
    definitions: dict[tuple[int, int], _Definition] = {}
    # Where definitions' names are: a query that takes every identifier for a reference (Ruby's)
    # must not make a definition call itself.
    defined_at: set[tuple[int, int]] = set()
    calls: list[tuple[tree_sitter.Node, str, str]] = []
    imports: list[Reference] = []
    for _pattern, captures in tree_sitter.QueryCursor(query).matches(root):
        if "package" in captures and spec.unit == "package":
            unit = _text(captures["package"][0]).replace("::", ".")
            continue
        if "import" in captures:
            node = captures["import"][0]
            imports.append(Reference(kind="imports", scope=unit, raw=_text(node), line=node.start_point[0] + 1))  # type: ignore[arg-type]
            continue
        names = captures.get("name")
        if not names:
            continue
        name = _text(names[0])
        receiver = _text(captures["receiver"][0]) if "receiver" in captures else ""
        if "container" in captures and name:
            node = captures["container"][0]
            definitions.setdefault((node.start_byte, node.end_byte), _Definition(node, name, "class", container=True))
            continue
        for capture, nodes in captures.items():
            kind, _, role = capture.partition(".")
            if kind == "definition" and role in _KINDS and name:
                node = nodes[0]
                # The first capture of a span wins (a class is not also a type).
                definitions.setdefault((node.start_byte, node.end_byte), _Definition(node, name, _KINDS[role], receiver))
                defined_at.add((names[0].start_byte, names[0].end_byte))
            elif kind == "reference" and role in ("call", "class", "implementation"):
                calls.append((names[0], name, "inherits" if role == "implementation" else "calls"))
    ordered = sorted(definitions.values(), key=lambda d: (d.node.start_byte, -d.node.end_byte))
    roots: list[_Definition] = []
    stack: list[_Definition] = []
    for definition in ordered:
        while stack and stack[-1].node.end_byte < definition.node.end_byte:
            stack.pop()
        parent = stack[-1] if stack else None
        outer = parent.qname if parent else unit
        definition.qname = f"{outer}.{definition.receiver}.{definition.name}" if definition.receiver else f"{outer}.{definition.name}"
        if parent is not None and definition.kind == "function" and parent.kind == "class":
            definition.kind = "method"
        (parent.children if parent else roots).append(definition)
        stack.append(definition)
    symbols: list[Symbol] = []
    for definition in ordered:
        if definition.container:
            continue
        parent_qname = definition.qname.rsplit(".", 1)[0]
        symbols.append(
            Symbol(
                qname=definition.qname,
                name=definition.name,
                kind=definition.kind,  # type: ignore[arg-type]
                path=path,
                module=unit,
                start_line=definition.node.start_point[0] + 1,
                end_line=definition.node.end_point[0] + 1,
                signature=_signature(definition.node),
                docstring=_doc(definition.node),
                parent=parent_qname if parent_qname != unit else None,
            )
        )
    blocks = [block for definition in roots for block in _blocks(definition, "")]
    # One reference per place: the grammar's query and ours may both capture it.
    references = tuple(dict.fromkeys(
        [
            Reference(kind=kind, scope=_scope(node, definitions, unit), raw=name, line=node.start_point[0] + 1)  # type: ignore[arg-type]
            for node, name, kind in calls
            if name and (node.start_byte, node.end_byte) not in defined_at
        ]
        # Imports name the file's unit as their scope, which the package capture may have set after them.
        + [Reference(kind="imports", scope=unit, raw=ref.raw, line=ref.line) for ref in imports]  # type: ignore[arg-type]
    ))
    entrypoints = _entrypoints(path, spec, root, definitions, unit)
    top_level = tuple(definition.name for definition in roots)
    # The repository pass keys files by module: files sharing a package keep one each.
    module = unit if spec.unit == "file" else f"{unit}.{posixpath.splitext(posixpath.basename(path))[0]}"
    facts = FileFacts(module=module, references=references, top_level=top_level, entrypoints=entrypoints)
    return symbols, blocks, facts


def _entrypoints(
    path: str, spec: LanguageSpec, root: tree_sitter.Node, definitions: dict[tuple[int, int], _Definition], unit: str
) -> tuple[Entrypoint, ...]:
    query = _entrypoints_query(spec)
    if query is None:
        return ()
    found: list[Entrypoint] = []
    for _pattern, captures in tree_sitter.QueryCursor(query).matches(root):
        if "main" in captures:
            node = captures["main"][0]
            handler = definitions.get((node.start_byte, node.end_byte))
            program = posixpath.basename(posixpath.dirname(path)) or posixpath.splitext(posixpath.basename(path))[0]
            found.append(Entrypoint(
                entry_type="cli_command", framework="main", route_or_command=program,
                handler=handler.qname if handler else None, path=path,
                start_line=node.start_point[0] + 1, end_line=node.end_point[0] + 1, handler_raw="main",
            ))
            continue
        route = next((name for name in captures if name.startswith("route.")), None)
        if route is None or "path" not in captures:
            continue
        node = captures[route][0]
        method = _text(captures["method"][0]) if "method" in captures else ""
        verb = method.upper().removesuffix("MAPPING").removeprefix("HTTP")
        methods = (verb,) if verb in ("GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD") else ()
        # An annotated method is its own handler (Spring, ASP.NET); a registration call is inside one, or none.
        owner = definitions.get((node.start_byte, node.end_byte))
        handler = owner.qname if owner is not None else _scope(node, definitions, unit)
        found.append(Entrypoint(
            entry_type="http_route", framework=route.split(".", 1)[1],
            route_or_command=_text(captures["path"][0]).strip("\"'`"), handler=handler if handler != unit else None,
            path=path, start_line=node.start_point[0] + 1, end_line=node.end_point[0] + 1, methods=methods,
            handler_raw=method,
        ))
    return tuple(found)


def _blocks(definition: _Definition, parent: str) -> list[Block]:
    """A definition's block (a container's members stand in for it: an impl block is its methods)."""
    if definition.container:
        return [block for child in definition.children for block in _blocks(child, definition.name)]
    title = f"{parent}.{definition.name}" if parent else definition.name
    members = [block for child in definition.children for block in _blocks(child, definition.name)]
    return [Block(
        start=definition.node.start_point[0] + 1,
        end=definition.node.end_point[0] + 1,
        qname=definition.qname,
        title=title,
        members=members,
    )]


def _scope(node: tree_sitter.Node, definitions: dict[tuple[int, int], _Definition], unit: str) -> str:
    """The qualified name of the innermost definition around ``node`` (the file's unit outside any):
    up the tree from the node, so the cost is the nesting depth, not the number of definitions."""
    current = node.parent
    while current is not None:
        definition = definitions.get((current.start_byte, current.end_byte))
        if definition is not None:
            return definition.qname
        current = current.parent
    return unit

"""What analysing a repository's files produces, before anything is stored.

Analysis is pure Python over ``{path: text}``: no Django, no database. The
indexer turns these records into rows of one index version.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from rag.analysis.facts import FileFacts

Layer = Literal["C0_SOURCE_CHUNKS", "C1_SYMBOL_CATALOG", "C2_DEPENDENCY_GRAPH", "C3_ENTRYPOINTS", "D0_DOCS"]
SymbolKind = Literal["class", "function", "method", "const"]
EdgeKind = Literal["calls", "imports", "inherits"]


@dataclass(frozen=True)
class Chunk:
    """A C0 source chunk or a D0 docs section; lines are 1-based and inclusive."""

    layer: Layer
    path: str
    start_line: int
    end_line: int
    content: str
    title: str
    metadata: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Symbol:
    """A C1 catalog entry. ``qname`` is ``module.Class.method``."""

    qname: str
    name: str
    kind: SymbolKind
    path: str
    module: str
    start_line: int
    end_line: int
    signature: str = ""
    docstring: str = ""
    decorators: tuple[str, ...] = ()
    parent: str | None = None
    is_async: bool = False
    is_entry_candidate: bool = False


@dataclass(frozen=True)
class Edge:
    """A C2 edge. ``dst`` is a symbol qname when resolved, else None with ``raw`` kept.

    ``src`` is the enclosing symbol's qname, or the module name for module-level code.
    An ``imports`` edge may also resolve to a module name or to ``module.variable``
    (an app or router object), which are not symbols.
    """

    kind: EdgeKind
    src: str
    raw: str
    dst: str | None
    resolution: Literal["resolved", "partial"]
    path: str
    line: int


@dataclass(frozen=True)
class Entrypoint:
    """A C3 entrypoint: an HTTP route, a CLI command or a task."""

    entry_type: Literal["http_route", "cli_command", "task"]
    framework: str
    route_or_command: str
    handler: str | None
    path: str
    start_line: int
    end_line: int
    methods: tuple[str, ...] = ()
    handler_raw: str = ""
    """The handler as written (``views.login_view``, ``shopapp.cli:main``), kept when unresolved too."""


@dataclass
class FileAnalysis:
    """One file's layers. ``edges`` and ``entrypoints`` come from the repository pass.

    ``facts`` is what the repository pass reads from this file; it depends only on
    the path and text, so a file with the same ``content_hash`` can reuse it.
    """

    path: str
    content_hash: str
    language: str
    chunks: list[Chunk] = field(default_factory=list)
    symbols: list[Symbol] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    entrypoints: list[Entrypoint] = field(default_factory=list)
    error: str | None = None
    artifact_type: str = "code"
    facts: FileFacts | None = None


@dataclass
class RepositoryAnalysis:
    files: dict[str, FileAnalysis] = field(default_factory=dict)
    reused: frozenset[str] = frozenset()
    """Paths whose per-file extraction was reused from the previous analysis (same content hash)."""
    extracted: dict[str, FileAnalysis] = field(default_factory=dict)
    """Each file's per-file pass, before the repository pass: what a later analysis can reuse,
    a function of the path and text alone (``files`` also depends on the other files)."""

    def chunks(self) -> list[Chunk]:
        return [chunk for analysis in self.files.values() for chunk in analysis.chunks]

    def symbols(self) -> list[Symbol]:
        return [symbol for analysis in self.files.values() for symbol in analysis.symbols]

    def edges(self) -> list[Edge]:
        return [edge for analysis in self.files.values() for edge in analysis.edges]

    def entrypoints(self) -> list[Entrypoint]:
        return [entry for analysis in self.files.values() for entry in analysis.entrypoints]

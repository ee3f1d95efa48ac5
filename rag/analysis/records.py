"""The records analysing a repository's files produces, before anything is stored: chunks, symbols, edges, entrypoints;
and the dependencies a manifest declares (``rag.analysis.dependencies``).

Analysis is pure Python over ``{path: text}``: no Django, no database. The
indexer turns these records into rows of one index version; ``results`` holds
them per file and for the whole repository.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

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
    """A C3 entrypoint: an HTTP route, an RPC service (gRPC), a CLI command, a task or an app's component
    (an Android activity, service, receiver or provider, or a link one of its activities opens)."""

    entry_type: Literal["http_route", "rpc_service", "cli_command", "task", "app_component"]
    framework: str
    route_or_command: str
    handler: str | None
    path: str
    start_line: int
    end_line: int
    methods: tuple[str, ...] = ()
    handler_raw: str = ""
    """The handler as written (``views.login_view``, ``shopapp.cli:main``), kept when unresolved too."""


@dataclass(frozen=True)
class Dependency:
    """One package a manifest declares."""

    ecosystem: str  # the registry: npm, composer, cargo, go, maven, pypi, rubygems, nuget, pub, hex, swift, vcpkg, conan
    name: str  # as the registry spells it: lodash, serde, golang.org/x/net, com.google.guava:guava
    version: str  # as written: ^4.17.21, 1.0, v0.17.0, >=2.0,<3; "path ../core", "git <url>", "workspace"; "" for none
    scope: str  # runtime, dev, build, peer, optional, indirect, managed, test, a Maven scope, a Gradle configuration or a group's name
    path: str  # the manifest
    line: int  # 1-based: the line that declares it
    alias: str = ""  # the name build scripts refer to it by: a Gradle version catalog's accessor, ``libs.androidx.core.ktx``

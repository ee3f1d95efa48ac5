"""Walking a repository's code graph: definitions, callers, callees, references, entrypoints.

All functions read the repository's active index version (or ``run``) and
return plain dataclasses. Callers/callees follow ``calls`` edges to
``depth`` levels with a recursive CTE; unresolved calls are reported with
their raw text but cannot be followed further.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from django.db import connection

from rag.analysis.languages.spec import spec_for, written_name
from rag.models import Edge, Entrypoint, IndexRun, Repository, Symbol
from rag.query_analysis import dotted_name
from rag.terms import looks_like_test_path

MAX_DEPTH = 5

ENTRY_KIND_ALIASES = {
    "http": "http_route", "route": "http_route", "routes": "http_route", "http_route": "http_route",
    "cli": "cli_command", "command": "cli_command", "commands": "cli_command", "cli_command": "cli_command",
    "task": "task", "tasks": "task", "celery": "task", "job": "task", "jobs": "task", "worker": "task", "workers": "task",
    "scheduled": "task", "cron": "task", "queue": "task", "queues": "task", "listener": "task", "listeners": "task",
    "rpc": "rpc_service", "grpc": "rpc_service", "rpc_service": "rpc_service", "graphql": "rpc_service",
    "component": "app_component", "components": "app_component", "app_component": "app_component",
    "activity": "app_component", "activities": "app_component", "android": "app_component",
}


# The words a declaration names its kind of type by, as its signature writes them; the first one
# found is the kind (``pub struct``, ``enum class``, ``public interface``, ``module Sinatra``), and Go's
# ``type X struct`` is a struct, its ``type X func(...)`` a type.
_TYPE_WORDS = re.compile(
    r"(?<![\w@])(struct|enum|trait|interface|union|record|protocol|module|mod|namespace|object|impl|class|delegate)\b|(@interface)\b"
)
_TYPE_WORD_NAMES = {"mod": "module", "@interface": "annotation"}
# TypeScript's ``type X = ...``, Kotlin's ``typealias X = ...``.
_TYPE_ALIAS = re.compile(r"\s*(?:export\s+|public\s+|internal\s+|private\s+)?type(?:alias)?\b")


# A ``const`` that is a property: Kotlin's ``val``/``var`` (not ``const val``), PHP's ``$name``, or a declaration
# with no value (C#'s ``public int Count { get; }``, whose signature stops at its accessors; a record's ``int Id``).
_PROPERTY = re.compile(r"(?<![\w@])(?<!const )(?:val|var)\b|\$\w|^[^=]*$")
_CONSTANT = re.compile(r"(?<![\w@])const\b")


def declared_kind(kind: str, signature: str) -> str:
    """A catalog kind in the words of the symbol's language: ``class`` is what its declaration says it is
    (struct, enum, trait, interface, module ...), a ``const`` that is a property says so, and the other
    kinds stay as they are."""
    if kind == "const":
        first_line = signature.split("\n", 1)[0]
        return "property" if not _CONSTANT.search(first_line) and _PROPERTY.search(first_line) else kind
    if kind != "class":
        return kind
    first_line = signature.split("\n", 1)[0]
    found = _TYPE_WORDS.search(first_line)
    if found:
        word = found.group(1) or found.group(2)
        return _TYPE_WORD_NAMES.get(word, word)
    return "type" if _TYPE_ALIAS.match(first_line) else kind


def doc_word(path: str) -> str:
    """What a definition's documentation is called in its file's language: Python's docstring, others' doc comment."""
    return "doc comment" if spec_for(path) is not None else "docstring"


def written_names(run: IndexRun, qnames: Iterable[str | None]) -> dict[str, str]:
    """The written name (``SymbolInfo.written``) of each of ``qnames`` that is a symbol of version ``run``."""
    wanted = {q for q in qnames if q}
    if not wanted:
        return {}
    rows = Symbol.objects.in_version(run).filter(qname__in=wanted).values_list("qname", "module", "path", "kind")
    return {qname: written_name(qname, module, path, kind) for qname, module, path, kind in rows}


@dataclass(frozen=True)
class SymbolInfo:
    qname: str
    name: str
    kind: str
    path: str
    module: str
    start_line: int
    end_line: int
    signature: str
    docstring: str
    decorators: tuple[str, ...]
    parent: str | None
    is_async: bool
    is_entry_candidate: bool

    @property
    def written(self) -> str:
        """The name as the symbol's language writes it (``walk::WalkBuilder::new``, ``Shop::Base#route``);
        ``qname`` where the language has no other form."""
        return written_name(self.qname, self.module, self.path, self.kind)

    @property
    def kind_word(self) -> str:
        """The kind as the symbol's language says it (``declared_kind``): struct, trait, interface ..."""
        return declared_kind(self.kind, self.signature)


@dataclass(frozen=True)
class GraphEdge:
    """One edge met while walking; ``depth`` 1 is a direct caller/callee (or reference)."""

    src: str
    dst: str | None
    raw: str
    resolution: str
    path: str
    line: int
    depth: int
    kind: str = "calls"


@dataclass(frozen=True)
class EntrypointInfo:
    entry_type: str
    framework: str
    route_or_command: str
    methods: tuple[str, ...]
    handler: str | None
    path: str
    start_line: int
    end_line: int
    handler_raw: str = ""  # as written, kept when it does not resolve too (``block at app.rb:12``)

    @property
    def unresolved_handler(self) -> str:
        """What is known of a handler that is no symbol of the index: a block written in place (the
        entrypoint's lines hold it), a name as written, or nothing."""
        if self.handler_raw.startswith("block at "):
            return "the block written in place"
        return f"{self.handler_raw} (unresolved)" if self.handler_raw else "unresolved handler"


def _run(repository: Repository, run: IndexRun | None) -> IndexRun | None:
    return run or repository.active_run


def _symbol_info(s: Symbol) -> SymbolInfo:
    return SymbolInfo(
        qname=s.qname, name=s.name, kind=s.kind, path=s.path, module=s.module, start_line=s.start_line,
        end_line=s.end_line, signature=s.signature, docstring=s.docstring, decorators=tuple(s.decorators or ()),
        parent=s.parent, is_async=s.is_async, is_entry_candidate=s.is_entry_candidate,
    )


def find_symbol(repository: Repository, name: str, *, limit: int = 20, run: IndexRun | None = None) -> list[SymbolInfo]:
    """Definitions of ``name``: an exact qname (or written name) first, then qnames ending in ``.name``, then short
    names; in each, definitions in test files last.

    ``name`` may be written in its language's own form (``WalkBuilder::new``, ``JsonParser#nextToken``,
    ``Slim\\Routing\\Route``, ``walk::WalkBuilder::new``): the index keeps qualified names dotted
    (``dotted_name``), and a symbol's written name (``SymbolInfo.written``) names it too.
    """
    run = _run(repository, run)
    name = dotted_name(name or "")
    if run is None or not name:
        return []
    short = name.rsplit(".", 1)[-1]
    candidates = [_symbol_info(s) for s in Symbol.objects.in_version(run).filter(name=short).order_by("path", "start_line")[:500]]
    # Within each tier, definitions in the code before those in its tests (a test's own ``Server`` helper).
    candidates.sort(key=lambda s: looks_like_test_path(s.path))
    exact = [s for s in candidates if s.qname == name or dotted_name(s.written) == name]
    taken = {id(s) for s in exact}
    suffix = [s for s in candidates if id(s) not in taken and s.qname.endswith("." + name)]
    taken.update(id(s) for s in suffix)
    plain = [s for s in candidates if id(s) not in taken] if "." not in name else []
    if not (exact or suffix or plain):
        # Case-insensitive fallback for names typed loosely ("loginview").
        plain = [_symbol_info(s) for s in Symbol.objects.in_version(run).filter(name__iexact=short).order_by("path", "start_line")[:limit]]
    return (exact + suffix + plain)[:limit]


def symbols_at(repository: Repository, places: Iterable[tuple[str, str]], *, run: IndexRun | None = None) -> list[SymbolInfo]:
    """The definitions of ``(qname, path)`` pairs (a search result's symbol and file), in one statement; a pair
    the index does not define is left out, and a qname defined twice in one file (overloads) is its first."""
    run = _run(repository, run)
    wanted = dict.fromkeys(places)
    if run is None or not wanted:
        return []
    found: dict[tuple[str, str], SymbolInfo] = {}
    rows = Symbol.objects.in_version(run).filter(qname__in={qname for qname, _ in wanted}).order_by("path", "start_line")
    for symbol in rows:
        found.setdefault((symbol.qname, symbol.path), _symbol_info(symbol))
    return [found[place] for place in wanted if place in found]


def _resolve_qnames(run: IndexRun, symbol: str) -> list[str]:
    if Symbol.objects.in_version(run).filter(qname=symbol).exists():
        return [symbol]
    return [s.qname for s in find_symbol(run.repository, symbol, run=run, limit=10)] or [symbol]


_WALK_SQL = """
WITH RECURSIVE walk(src, dst, raw, resolution, path, line, depth, visited) AS (
    SELECT e.src, e.dst, e.raw, e.resolution, e.path, e.line, 1, ARRAY[e.{near}, e.{far}]
    FROM rag_edge e
    WHERE e.store_id = %(store)s AND e.since_run <= %(run)s AND e.until_run > %(run)s AND e.kind = 'calls' AND e.{near} = ANY(%(start)s)
  UNION ALL
    SELECT e.src, e.dst, e.raw, e.resolution, e.path, e.line, w.depth + 1, w.visited || e.{far}
    FROM walk w JOIN rag_edge e ON e.store_id = %(store)s AND e.since_run <= %(run)s AND e.until_run > %(run)s AND e.kind = 'calls' AND e.{near} = w.{far}
    WHERE w.depth < %(depth)s AND w.{far} IS NOT NULL AND (e.{far} IS NULL OR NOT (e.{far} = ANY(w.visited)))
)
SELECT DISTINCT ON (src, dst, raw, line, path) src, dst, raw, resolution, path, line, depth
FROM walk ORDER BY src, dst, raw, line, path, depth
"""


def _walk(repository: Repository, symbol: str, depth: int, limit: int, run: IndexRun | None, direction: str) -> list[GraphEdge]:
    run = _run(repository, run)
    if run is None or not symbol:
        return []
    depth = max(1, min(int(depth), MAX_DEPTH))
    near, far = ("dst", "src") if direction == "callers" else ("src", "dst")
    start = _resolve_qnames(run, symbol.strip())
    with connection.cursor() as cursor:
        cursor.execute(_WALK_SQL.format(near=near, far=far), {"store": run.store_id, "run": run.pk, "start": start, "depth": depth})
        rows = cursor.fetchall()
    edges = [GraphEdge(src=r[0], dst=r[1], raw=r[2], resolution=r[3], path=r[4], line=r[5], depth=r[6]) for r in rows]
    # Nearest first; at each depth the code before its tests.
    edges.sort(key=lambda e: (e.depth, looks_like_test_path(e.path), e.path, e.line, e.src))
    return edges[:limit]


def callers(repository: Repository, symbol: str, *, depth: int = 1, limit: int = 200, run: IndexRun | None = None) -> list[GraphEdge]:
    """Edges ``caller -> ...`` reaching ``symbol`` within ``depth`` calls (``src`` is the caller)."""
    return _walk(repository, symbol, depth, limit, run, "callers")


def callees(repository: Repository, symbol: str, *, depth: int = 1, limit: int = 200, run: IndexRun | None = None) -> list[GraphEdge]:
    """Edges from ``symbol`` outwards within ``depth`` calls (``dst`` is the callee, None when unresolved)."""
    return _walk(repository, symbol, depth, limit, run, "callees")


# References read to put a symbol's uses in its code before those in its tests.
REFERENCES_ORDERED = 2000


def _reference_rows(run: IndexRun, symbol: str):
    return Edge.objects.in_version(run).filter(dst__in=_resolve_qnames(run, symbol.strip()))


def references(repository: Repository, symbol: str, *, limit: int = 200, run: IndexRun | None = None) -> list[GraphEdge]:
    """Every edge that points at ``symbol``: its calls, imports and subclasses (``src`` is where the reference is),
    of each kind the code's before its tests' (among the first ``REFERENCES_ORDERED`` the database lists)."""
    run = _run(repository, run)
    if run is None or not symbol.strip():
        return []
    found = _reference_rows(run, symbol).order_by("kind", "path", "line", "src")[: max(limit, REFERENCES_ORDERED)]
    edges = [
        GraphEdge(src=e.src, dst=e.dst, raw=e.raw, resolution=e.resolution, path=e.path, line=e.line, depth=1, kind=e.kind)
        for e in found
    ]
    edges.sort(key=lambda e: (e.kind, looks_like_test_path(e.path), e.path, e.line, e.src))
    return edges[:limit]


def count_references(repository: Repository, symbol: str, *, run: IndexRun | None = None) -> int:
    """How many edges ``references`` has for ``symbol`` without a limit (counted by the database)."""
    run = _run(repository, run)
    if run is None or not symbol.strip():
        return 0
    return _reference_rows(run, symbol).count()


def _entrypoint_rows(run: IndexRun, kind: str | None, framework: str | None):
    queryset = Entrypoint.objects.in_version(run)
    if kind:
        entry_type = ENTRY_KIND_ALIASES.get(kind.strip().lower())
        if entry_type is None:
            raise ValueError(f"unknown entrypoint kind {kind!r}; use http_route, rpc_service, cli_command, task or app_component")
        queryset = queryset.filter(entry_type=entry_type)
    if framework:
        queryset = queryset.filter(framework__iexact=framework.strip())
    return queryset


def list_entrypoints(
    repository: Repository,
    kind: str | None = None,
    *,
    framework: str | None = None,
    limit: int = 500,
    run: IndexRun | None = None,
) -> list[EntrypointInfo]:
    """Entrypoints of the index, optionally of one kind: ``http_route``, ``rpc_service``, ``cli_command``,
    ``task`` or ``app_component`` (or http/rpc/cli/celery/activity), and of one framework (``django``, ``express``, ...; any case)."""
    run = _run(repository, run)
    if run is None:
        return []
    queryset = _entrypoint_rows(run, kind, framework)
    return [
        EntrypointInfo(
            entry_type=e.entry_type, framework=e.framework, route_or_command=e.route_or_command,
            methods=tuple(e.methods or ()), handler=e.handler, path=e.path, start_line=e.start_line,
            end_line=e.end_line, handler_raw=e.handler_raw,
        )
        for e in queryset.order_by("entry_type", "path", "start_line")[:limit]
    ]


def count_entrypoints(
    repository: Repository, kind: str | None = None, *, framework: str | None = None, run: IndexRun | None = None
) -> int:
    """How many entrypoints ``list_entrypoints`` has with these filters without a limit (counted by the database)."""
    run = _run(repository, run)
    return _entrypoint_rows(run, kind, framework).count() if run is not None else 0

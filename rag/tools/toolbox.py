"""The repository tools and the toolbox that binds them to one repository.

``RepositoryToolbox.call_sync`` never raises for a bad call: unknown tools,
arguments that are not valid JSON or do not match the schema, and tools that
fail all come back as an error result whose text says what to change, so a
model can correct itself and an editor can show it to a person.

Every code excerpt is headed by its ``path:start-end`` and numbered; every
span shown is in the result's ``spans``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema

from llm.types import ToolCall, ToolSpec
from rag import services as rag
from rag.models import LAYERS, IndexRun, Repository, SourceFile

logger = logging.getLogger(__name__)

# Rough size of one search result as the model sees it, for the budget caps.
TOKENS_PER_ITEM = 250
# Share of the window's free room that search results may take before caps rise.
RESULT_SHARE = 0.25
EXCERPT_LINES = 30
EXCERPT_CHARS = 1800
READ_MAX_LINES = 400
GRAPH_MAX_DEPTH = 3
GRAPH_MAX_EDGES = 60
ENTRYPOINTS_SHOWN = 200
DEPENDENCIES_SHOWN = 200
# A list of this many packages or fewer, asked for by name, says where the code imports each.
IMPORTERS_LISTED_UP_TO = 10
IMPORTERS_SHOWN = 8
# The call graph's walks read every edge within their depth; they are counted up to this many to say how
# many a list leaves out, past it "more than" (references and entrypoints are counted by the database).
COUNTED_UP_TO = 5000
SEARCH_MAX_RESULTS = 50
TEXT_MATCHES_SHOWN = 100
# Results of one file shown before those of the next ranked file (the rest of them follow every file's first ones).
RESULTS_PER_FILE = 3
NUMBERED_LAYERS = frozenset({"C0_SOURCE_CHUNKS", "D0_DOCS"})


class ToolFailure(Exception):
    """A tool could not do what was asked; the message says what to change."""


@dataclass(frozen=True)
class Span:
    """A range of a file a tool has shown, with where it came from."""

    path: str
    start_line: int
    end_line: int
    layer: str = ""
    score: float = 0.0

    def overlaps(self, start: int, end: int) -> bool:
        return self.start_line <= end and start <= self.end_line


@dataclass(frozen=True)
class ToolResult:
    """What one call produced: ``content`` for the caller, ``summary`` for a trace."""

    content: str
    summary: str
    spans: tuple[Span, ...] = ()
    error: bool = False


@dataclass(frozen=True)
class Caps:
    """How many search results and file candidates a result may show, and how long it may be."""

    items: int
    files: int
    result_chars: int

    @classmethod
    def for_budget(cls, *, items: int, files: int, result_chars: int, window_tokens: int) -> Caps:
        """The given caps, raised (up to double) when the model's window has room for more."""
        room = int(window_tokens * RESULT_SHARE) // TOKENS_PER_ITEM
        raised_items = max(items, min(room, items * 2))
        raised_files = max(files, min(room, files * 2))
        # A window with room for more results also takes longer tool results.
        return cls(items=raised_items, files=raised_files, result_chars=result_chars * raised_items // items)


@dataclass(frozen=True)
class Tool:
    spec: ToolSpec
    run: Callable[..., ToolResult]
    validator: jsonschema.protocols.Validator


def version_label(run: IndexRun | None) -> str:
    """The index version a result was read from, as a person names it."""
    if run is None:
        return "no index"
    if run.commit_sha:
        return f"index version {run.pk}, commit {run.commit_sha[:12]}"
    upload = run.archive_name or "upload"
    return f"index version {run.pk}, {upload} (sha256 {run.archive_sha256[:12]})"


def _numbered(text: str, first_line: int) -> str:
    lines = text.splitlines()
    width = len(str(first_line + max(len(lines) - 1, 0)))
    return "\n".join(f"{first_line + i:>{width}} | {line}" for i, line in enumerate(lines))


def _excerpt(content: str, start_line: int, layer: str) -> str:
    lines = content.splitlines()
    cut = lines[:EXCERPT_LINES]
    text = "\n".join(cut)
    if len(text) > EXCERPT_CHARS:
        text = text[:EXCERPT_CHARS]
    shown = _numbered(text, start_line) if layer in NUMBERED_LAYERS else text
    if len(cut) < len(lines) or len(text) < len("\n".join(cut)):
        shown += "\n   ... (cut; use read_file for the rest)"
    return shown


class RepositoryToolbox:
    """The repository tools bound to one repository (for one chat turn or one editor call)."""

    def __init__(self, repository: Repository, caps: Caps) -> None:
        self.repository = repository
        self.caps = caps
        # Best retrieval score seen per path, so a span read later inherits it.
        self._path_scores: dict[str, float] = {}
        self.tools: dict[str, Tool] = TOOLS

    @property
    def specs(self) -> tuple[ToolSpec, ...]:
        return tuple(tool.spec for tool in self.tools.values())

    def call_sync(self, call: ToolCall) -> ToolResult:
        tool = self.tools.get(call.name)
        if tool is None:
            known = ", ".join(self.tools)
            return _error(f"there is no tool named {call.name!r}; the tools are: {known}")
        arguments, problem = _arguments(call)
        if problem:
            return _error(f"{call.name}: {problem}")
        problem = argument_problems(call.name, tool.validator, arguments)
        if problem:
            return _error(problem)
        try:
            result = tool.run(self, **arguments)
        except ToolFailure as exc:
            return _error(f"{call.name}: {exc}")
        except Exception as exc:
            logger.exception("tool %s failed on %s", call.name, arguments)
            failed = _error(f"{call.name} failed: {type(exc).__name__}: {exc}")
            # The trace shows the kind of failure only; the caller gets the message to adapt its call.
            return ToolResult(content=failed.content, summary=f"error: {type(exc).__name__}", error=True)
        return self._capped(result)

    def _capped(self, result: ToolResult) -> ToolResult:
        limit = self.caps.result_chars
        if len(result.content) <= limit:
            return result
        content = result.content[:limit] + "\n... (result cut to fit; narrow the request)"
        return ToolResult(content=content, summary=result.summary, spans=result.spans, error=result.error)

    def remember_scores(self, spans: Sequence[Span]) -> None:
        for span in spans:
            if span.score > self._path_scores.get(span.path, 0.0):
                self._path_scores[span.path] = span.score

    def path_score(self, path: str) -> float:
        return self._path_scores.get(path, 0.0)

    # --- the tools ---------------------------------------------------------------------

    def search_code(
        self,
        query: str,
        layers: Sequence[str] | None = None,
        path: str | None = None,
        k: int | None = None,
        language: str | None = None,
    ) -> ToolResult:
        shown = min(k or self.caps.items, SEARCH_MAX_RESULTS)
        try:
            response = rag.search(
                self.repository,
                query,
                mode="code",
                layers=list(layers) if layers else None,
                path_glob=path or None,
                limit=min(200, max(shown * 3, 30 if language else 0)),
            )
        except rag.SearchError as exc:
            raise ToolFailure(str(exc)) from exc
        items = list(response.items)
        if language:
            kept = set(
                SourceFile.objects.in_version(self.repository.active_run)
                .filter(path__in={item.path for item in items}, language__iexact=language)
                .values_list("path", flat=True)
            )
            items = [item for item in items if item.path in kept]
        if not items:
            notes = [*response.notes, *([f"language {language}"] if language else [])]
            note = f" ({'; '.join(notes)})" if notes else ""
            return ToolResult(content=f"No results for {query!r}{note}.", summary="no results")
        files = rag.ranked_files(response, limit=self.caps.files)
        items = in_file_order(items, files)[:shown]
        parts = [f"{len(items)} results for {query!r} (layers: {', '.join(response.layers)}):"]
        spans = []
        for number, item in enumerate(items, 1):
            parts.append(
                f"\n[{number}] {item.citation} | {item.layer} | score {item.score:.3f} | {item.title}\n"
                + _excerpt(item.content, item.start_line, item.layer)
            )
            spans.append(Span(item.path, item.start_line, item.end_line, item.layer, round(item.score, 6)))
        parts.append("\nFiles ranked for this query: " + ", ".join(f"{f.path} ({f.score:.3f})" for f in files))
        self.remember_scores(spans)
        return ToolResult(
            content="\n".join(parts),
            summary=f"{len(items)} results; top {items[0].citation}",
            spans=tuple(spans),
        )

    def search_text(
        self, pattern: str, regex: bool = False, case_sensitive: bool | None = None, path: str | None = None, k: int | None = None
    ) -> ToolResult:
        shown = min(k or TEXT_MATCHES_SHOWN, TEXT_MATCHES_SHOWN)
        try:
            found = rag.search_text(
                self.repository, pattern, regex=regex, case_sensitive=case_sensitive, path_glob=path or None, limit=shown
            )
        except rag.TextSearchError as exc:
            raise ToolFailure(str(exc)) from exc
        what = f"{'regular expression' if regex else 'text'} {pattern!r}" + (f" in {path}" if path else "")
        if not found.matches:
            return ToolResult(content=f"No line matches the {what}.", summary="no match")
        count = f"the first {len(found.matches)}" if found.truncated else str(len(found.matches))
        lines = [f"{count} lines matching the {what}" + (" (narrow it with path)" if found.truncated else "") + ":"]
        lines += [f"{match.citation}: {match.text}" for match in found.matches]
        spans = tuple(Span(m.path, m.line, m.line, "text", self.path_score(m.path)) for m in found.matches)
        files = len({match.path for match in found.matches})
        return ToolResult(content="\n".join(lines), summary=f"{count} lines in {_counted(files, 'file')}", spans=spans)

    def read_file(self, path: str, start: int, end: int) -> ToolResult:
        if end < start:
            raise ToolFailure(f"end ({end}) is before start ({start})")
        end = min(end, start + READ_MAX_LINES - 1)
        path = path.strip().removeprefix("./")
        try:
            piece = rag.read_source(self.repository, path, start, end, max_lines=READ_MAX_LINES)
        except rag.SourceNotFound as exc:
            candidates = [p for p in rag.list_files(self.repository) if p.endswith(path.rsplit("/", 1)[-1])][:5]
            hint = f"; files with that name: {', '.join(candidates)}" if candidates else ""
            raise ToolFailure(f"{exc}{hint}") from exc
        if piece.total_lines == 0:
            return ToolResult(content=f"{piece.path} is empty.", summary="empty file")
        if start > piece.total_lines:
            raise ToolFailure(f"{piece.path} has only {piece.total_lines} lines")
        header = f"{piece.path}:{piece.start_line}-{piece.end_line} (of {piece.total_lines} lines, {piece.language})"
        span = Span(piece.path, piece.start_line, piece.end_line, "file", self.path_score(piece.path))
        return ToolResult(
            content=f"{header}\n{_numbered(piece.text, piece.start_line)}",
            summary=f"read {piece.path}:{piece.start_line}-{piece.end_line}",
            spans=(span,),
        )

    def get_symbol(self, name: str) -> ToolResult:
        found = rag.find_symbol(self.repository, name, limit=self.caps.items)
        if not found:
            return ToolResult(content=f"No symbol named {name!r} in the index.", summary="not found")
        lines = [f"{_counted(len(found), 'definition')} of {name!r}:"]
        spans = []
        parents = rag.written_names(self.repository.active_run, (symbol.parent for symbol in found))
        for symbol in found:
            lines.append(f"- {symbol.kind_word} {symbol.written} at {symbol.path}:{symbol.start_line}-{symbol.end_line}")
            if symbol.written != symbol.qname:
                lines.append(f"    indexed as {symbol.qname}")
            if symbol.parent:
                lines.append(f"    in {parents.get(symbol.parent, symbol.parent)}")
            if symbol.signature:
                lines.append(f"    {symbol.signature}")
            if symbol.decorators:
                lines.append("    decorators: " + ", ".join(f"@{d}" for d in symbol.decorators))
            if symbol.docstring:
                lines.append(f"    {symbol.docstring.strip().splitlines()[0]}")
            spans.append(Span(symbol.path, symbol.start_line, symbol.end_line, "C1_SYMBOL_CATALOG", self.path_score(symbol.path)))
        first = found[0]
        return ToolResult(
            content="\n".join(lines),
            summary=f"{len(found)} found; {first.written} at {first.path}:{first.start_line}-{first.end_line}",
            spans=tuple(spans),
        )

    def find_references(self, symbol: str) -> ToolResult:
        edges = rag.references(self.repository, symbol, limit=GRAPH_MAX_EDGES + 1)
        if not edges:
            return ToolResult(content=f"No references to {symbol!r} in the index.", summary="no references")
        shown = edges[:GRAPH_MAX_EDGES]
        total = rag.count_references(self.repository, symbol) if len(edges) > len(shown) else len(shown)
        names = rag.written_names(self.repository.active_run, (edge.src for edge in shown))
        lines = [f"{_shown(len(shown), total, 'reference')} to {symbol!r}:"]
        spans = []
        for edge in shown:
            lines.append(f"- {edge.kind}: {names.get(edge.src, edge.src)} at {edge.path}:{edge.line}  [{edge.raw}]")
            spans.append(Span(edge.path, edge.line, edge.line, "C2_DEPENDENCY_GRAPH", self.path_score(edge.path)))
        return ToolResult(content="\n".join(lines), summary=_shown(len(shown), total, "reference"), spans=tuple(spans))

    def callers(self, symbol: str, depth: int = 1) -> ToolResult:
        edges = rag.callers(self.repository, symbol, depth=depth, limit=COUNTED_UP_TO + 1)
        return self._graph_result("caller", symbol, depth, edges, lambda e, names: names.get(e.src, e.src))

    def callees(self, symbol: str, depth: int = 1) -> ToolResult:
        edges = rag.callees(self.repository, symbol, depth=depth, limit=COUNTED_UP_TO + 1)
        return self._graph_result(
            "callee", symbol, depth, edges, lambda e, names: names.get(e.dst, e.dst) if e.dst else f"{e.raw} (unresolved)"
        )

    def _graph_result(
        self, kind: str, symbol: str, depth: int, edges: Sequence[rag.GraphEdge],
        other: Callable[[rag.GraphEdge, Mapping[str, str]], str],
    ) -> ToolResult:
        if not edges:
            return ToolResult(content=f"No {kind}s of {symbol!r} within depth {depth}.", summary=f"no {kind}s")
        shown = edges[:GRAPH_MAX_EDGES]
        names = rag.written_names(self.repository.active_run, (q for edge in shown for q in (edge.src, edge.dst)))
        lines = [f"{_shown(len(shown), len(edges), kind)} of {symbol!r} (depth up to {depth}):"]
        spans = []
        for edge in shown:
            arrow = f"{names.get(edge.src, edge.src)} -> {names.get(edge.dst, edge.dst) if edge.dst else edge.raw}"
            lines.append(f"- depth {edge.depth}: {other(edge, names)}  [{arrow} at {edge.path}:{edge.line}]")
            spans.append(Span(edge.path, edge.line, edge.line, "C2_DEPENDENCY_GRAPH", self.path_score(edge.path)))
        return ToolResult(content="\n".join(lines), summary=_shown(len(shown), len(edges), kind), spans=tuple(spans))

    def changes_since(self, since: str, until: str | None = None) -> ToolResult:
        try:
            changes = rag.changes_between(self.repository, since, until or None)
        except rag.VersionNotFound as exc:
            raise ToolFailure(str(exc)) from exc
        spans = tuple(
            Span(change.path, change.start_line, change.end_line, "C1_SYMBOL_CATALOG", self.path_score(change.path))
            for change in changes.symbols
            if change.status != "removed"
        )
        summary = f"{len(changes.files)} files, {len(changes.symbols)} symbols changed since {changes.since.label}"
        return ToolResult(content=changes.as_text(), summary=summary, spans=spans)

    def list_entrypoints(self, kind: str | None = None, framework: str | None = None) -> ToolResult:
        try:
            entries = rag.list_entrypoints(self.repository, kind or None, framework=framework or None, limit=ENTRYPOINTS_SHOWN + 1)
        except ValueError as exc:
            raise ToolFailure(str(exc)) from exc
        if not entries:
            which = " ".join(part for part in (framework, kind) if part)
            return ToolResult(content="No entrypoints" + (f" ({which})" if which else "") + " in the index.", summary="none")
        shown = entries[:ENTRYPOINTS_SHOWN]
        total = (
            rag.count_entrypoints(self.repository, kind or None, framework=framework or None)
            if len(entries) > len(shown) else len(shown)
        )
        handlers = rag.written_names(self.repository.active_run, (entry.handler for entry in shown))
        lines = [f"{_shown(len(shown), total, 'entrypoint')}:"]
        if len(shown) < total:
            lines[0] += " (narrow them with kind or framework)"
        spans = []
        for entry in shown:
            methods = f" {','.join(entry.methods)}" if entry.methods else ""
            handler = handlers.get(entry.handler, entry.handler) if entry.handler else entry.unresolved_handler
            lines.append(
                f"- {entry.entry_type} ({entry.framework}){methods} {entry.route_or_command} -> {handler} "
                f"at {entry.path}:{entry.start_line}-{entry.end_line}"
            )
            spans.append(Span(entry.path, entry.start_line, entry.end_line, "C3_ENTRYPOINTS", self.path_score(entry.path)))
        return ToolResult(content="\n".join(lines), summary=_shown(len(shown), total, "entrypoint"), spans=tuple(spans))

    def list_dependencies(self, name: str | None = None, ecosystem: str | None = None) -> ToolResult:
        found = rag.list_dependencies(self.repository, name=name or None, ecosystem=ecosystem or None)
        declared = found.dependencies
        if not declared:
            which = " ".join(part for part in (ecosystem, f"matching {name!r}" if name else "") if part)
            read = f"{_counted(found.manifests, 'manifest')} read" if found.manifests else "no manifest in the index"
            return ToolResult(content=f"No dependencies{' ' + which if which else ''} ({read}).", summary="none")
        shown = declared[:DEPENDENCIES_SHOWN]
        lines = [f"{_shown(len(shown), len(declared), 'dependency')} declared in {_counted(len(found.manifest_paths()), 'manifest')}:"]
        if len(shown) < len(declared):
            lines[0] += " (narrow them with name or ecosystem)"
        if found.left_out:
            lines[0] += f" ({_counted(found.left_out, 'more manifest')} not read: past the reading budget)"
        spans = []
        for dependency in shown:
            version = f" {dependency.version}" if dependency.version else " (no version)"
            lines.append(
                f"- {dependency.ecosystem} {dependency.name}{version} [{dependency.scope}] at {dependency.path}:{dependency.line}"
            )
            if name and len(shown) <= IMPORTERS_LISTED_UP_TO:
                # Asked about a package: where the code imports it, in the ecosystems whose imports name it.
                importers = rag.importing_files(self.repository, dependency)
                if importers is not None:
                    where = ", ".join(importers[:IMPORTERS_SHOWN]) + (f" and {len(importers) - IMPORTERS_SHOWN} more" if len(importers) > IMPORTERS_SHOWN else "")
                    lines.append(
                        f"  imported by {_counted(len(importers), 'file')}: {where}" if importers
                        else "  imported by no file of the index (a tool or a configuration may load it)"
                    )
            spans.append(Span(dependency.path, dependency.line, dependency.line, "C0_SOURCE_CHUNKS", self.path_score(dependency.path)))
        return ToolResult(content="\n".join(lines), summary=_shown(len(shown), len(declared), "dependency"), spans=tuple(spans))


def in_file_order(items: Sequence[rag.SearchResult], files: Sequence[rag.FileScore]) -> list[rag.SearchResult]:
    """Results grouped by file in the file ranking's order (the learned one, held to the evaluation sets'
    figures), each file's in the search's order: the first ``RESULTS_PER_FILE`` of every ranked file,
    then the rest of theirs, then the results of files the ranking leaves out."""
    place = {f.path: number for number, f in enumerate(files)}
    seen: dict[str, int] = {}

    keyed = []
    for item in items:
        seen[item.path] = seen.get(item.path, 0) + 1
        keyed.append(((seen[item.path] > RESULTS_PER_FILE, place.get(item.path, len(place))), item))
    return [item for _, item in sorted(keyed, key=lambda pair: pair[0])]


def _counted(count: int, noun: str) -> str:
    """``1 definition``, ``3 definitions``, ``2 dependencies``."""
    return f"{count} {noun if count == 1 else _plural(noun)}"


def _plural(noun: str) -> str:
    return noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s"


def _shown(shown: int, total: int, noun: str) -> str:
    """How many of how many a list shows: ``12 callers``, ``the first 60 of 181 references``, ``more than 5000``."""
    if shown == total:
        return _counted(total, noun)
    counted = f"more than {COUNTED_UP_TO:,}" if total > COUNTED_UP_TO else f"{total:,}"
    return f"the first {shown} of {counted} {_plural(noun)}"


def _error(message: str) -> ToolResult:
    return ToolResult(content=f"Error: {message}", summary=f"error: {message[:160]}", error=True)


def _arguments(call: ToolCall) -> tuple[dict[str, Any], str]:
    """The call's arguments, or a problem when the caller's text was not a JSON object."""
    if call.arguments:
        return dict(call.arguments), ""
    raw = (call.raw_arguments or "").strip()
    if not raw:
        return {}, ""
    try:
        value = json.loads(raw)
    except ValueError as exc:
        return {}, f"the arguments are not valid JSON ({exc.msg} at position {exc.pos})"
    if not isinstance(value, dict):
        return {}, "the arguments must be a JSON object"
    return value, ""


def schema_validator(schema: Mapping[str, Any]) -> jsonschema.protocols.Validator:
    """A validator of a tool's arguments (the schema itself checked first)."""
    validator_class = jsonschema.validators.validator_for(schema)
    validator_class.check_schema(schema)
    return validator_class(schema)


def argument_problems(name: str, validator: jsonschema.protocols.Validator, arguments: Mapping[str, Any]) -> str:
    """What is wrong with a call's arguments, for its caller to correct ("" when nothing)."""
    errors = sorted(validator.iter_errors(arguments), key=lambda e: list(e.path))
    if not errors:
        return ""
    return f"{name}: invalid arguments: " + "; ".join(_describe(error) for error in errors[:5])


def _describe(error: jsonschema.ValidationError) -> str:
    where = ".".join(str(part) for part in error.path)
    return f"{where}: {error.message}" if where else error.message


def _spec(name: str, description: str, properties: Mapping[str, Any], required: Sequence[str]) -> ToolSpec:
    schema = {"type": "object", "properties": dict(properties), "required": list(required), "additionalProperties": False}
    return ToolSpec(name=name, description=description, parameters=schema)


def _tool(spec: ToolSpec, run: Callable[..., ToolResult]) -> Tool:
    return Tool(spec=spec, run=run, validator=schema_validator(spec.parameters))


def tool_definitions() -> tuple[Tool, ...]:
    """Every repository tool, in the order they are offered."""
    return tuple(TOOLS.values())


def _tools() -> dict[str, Tool]:
    depth = {"type": "integer", "minimum": 1, "maximum": GRAPH_MAX_DEPTH, "description": "How many calls away (1 = direct)."}
    symbol = {"type": "string", "minLength": 1, "description": "A short or qualified name, dotted or in its language's own form, e.g. 'login', 'accounts.views.login', 'WalkBuilder::new', 'JsonParser#nextToken'."}
    tools = [
        _tool(
            _spec(
                "search_code",
                "Hybrid search (full text, vectors, identifiers) over the repository's index. Returns code "
                "excerpts with path:start-end, layer and score, and the files ranked for the query.",
                {
                    "query": {"type": "string", "minLength": 1, "description": "What to look for: words, identifiers, paths."},
                    "layers": {
                        "type": "array",
                        "items": {"type": "string", "enum": list(LAYERS)},
                        "description": "Only these layers (C0 source chunks, C1 symbols, C2 dependencies, C3 entrypoints, D0 docs).",
                    },
                    "path": {"type": "string", "description": "Only paths matching this glob, e.g. 'app/**/*.py'."},
                    "k": {"type": "integer", "minimum": 1, "maximum": SEARCH_MAX_RESULTS, "description": "How many results to show."},
                    "language": {"type": "string", "minLength": 1, "description": "Only files of this language, e.g. 'python', 'go'."},
                },
                ["query"],
            ),
            RepositoryToolbox.search_code,
        ),
        _tool(
            _spec(
                "search_text",
                "Every line of the repository's files that contains a text (or matches a regular expression), as "
                "grep finds them: path:line and the line. For exact strings the ranking may not put first: a "
                "dependency in a manifest, an error message, a setting's name.",
                {
                    "pattern": {"type": "string", "minLength": 1, "maxLength": 500, "description": "The text to find, or a regular expression with regex."},
                    "regex": {"type": "boolean", "description": "The pattern is a regular expression (PostgreSQL's, much like Perl's); ^ and $ are a line's ends."},
                    "case_sensitive": {"type": "boolean", "description": "Match case exactly, or ignore it (default: a text with a capital letter is matched as written, others ignore case; a regular expression ignores case)."},
                    "path": {"type": "string", "description": "Only paths matching this glob, e.g. '**/pom.xml'."},
                    "k": {"type": "integer", "minimum": 1, "maximum": TEXT_MATCHES_SHOWN, "description": "How many lines to show."},
                },
                ["pattern"],
            ),
            RepositoryToolbox.search_text,
        ),
        _tool(
            _spec(
                "read_file",
                f"Read lines start..end (1-based, inclusive, at most {READ_MAX_LINES}) of a file, numbered.",
                {
                    "path": {"type": "string", "minLength": 1, "description": "The file's path in the repository."},
                    "start": {"type": "integer", "minimum": 1},
                    "end": {"type": "integer", "minimum": 1},
                },
                ["path", "start", "end"],
            ),
            RepositoryToolbox.read_file,
        ),
        _tool(
            _spec(
                "get_symbol",
                "Where a class, function, method or constant is defined: qualified name, kind, parent, signature, "
                "docstring, lines.",
                {"name": symbol},
                ["name"],
            ),
            RepositoryToolbox.get_symbol,
        ),
        _tool(
            _spec(
                "find_references",
                "Every place that refers to a symbol: its calls, imports and subclasses, with the lines.",
                {"symbol": symbol},
                ["symbol"],
            ),
            RepositoryToolbox.find_references,
        ),
        _tool(
            _spec(
                "callers",
                "The functions that call a symbol, up to depth calls away, with the call sites.",
                {"symbol": symbol, "depth": depth},
                ["symbol"],
            ),
            RepositoryToolbox.callers,
        ),
        _tool(
            _spec(
                "callees",
                "The functions a symbol calls, up to depth calls away, with the call sites.",
                {"symbol": symbol, "depth": depth},
                ["symbol"],
            ),
            RepositoryToolbox.callees,
        ),
        _tool(
            _spec(
                "changes_since",
                "What changed between two index versions: files added, changed, deleted and renamed, and the "
                "symbols added, removed, changed or moved, with their lines in the newer version.",
                {
                    "since": {"type": "string", "minLength": 1, "description": "A commit SHA (or its prefix) or a version number."},
                    "until": {"type": "string", "minLength": 1, "description": "The newer version (default: the one being served)."},
                },
                ["since"],
            ),
            RepositoryToolbox.changes_since,
        ),
        _tool(
            _spec(
                "list_entrypoints",
                "The repository's entrypoints: HTTP routes, RPC services and GraphQL operations (rpc_service, "
                "named Query.field), CLI commands, background tasks (scheduled jobs, queue and topic listeners, "
                "workers), app components (Android activities, services, receivers, providers and the links an "
                "activity opens), with their handlers.",
                {
                    "kind": {
                        "type": "string", "enum": ["http_route", "rpc_service", "cli_command", "task", "app_component"],
                        "description": "Only this kind.",
                    },
                    "framework": {"type": "string", "minLength": 1, "description": "Only this framework, e.g. 'django', 'express'."},
                },
                [],
            ),
            RepositoryToolbox.list_entrypoints,
        ),
        _tool(
            _spec(
                "list_dependencies",
                "The packages the repository's manifests declare (package.json, Cargo.toml, go.mod, pom.xml, "
                "build.gradle, requirements.txt, pyproject.toml, Gemfile, *.csproj ...): ecosystem, name, the "
                "version as written, scope (runtime, dev, test, a group ...) and the manifest's path:line; asked for by "
                "name, also the files that import it (npm, Go, Rust, Python, .NET and Dart code).",
                {
                    "name": {"type": "string", "minLength": 1, "description": "Only packages whose name contains this, e.g. 'jackson', 'react'."},
                    "ecosystem": {"type": "string", "minLength": 1, "description": "Only this registry's: npm, composer, cargo, go, maven, pypi, rubygems, nuget, pub, hex, swift, vcpkg, conan."},
                },
                [],
            ),
            RepositoryToolbox.list_dependencies,
        ),
    ]
    return {tool.spec.name: tool for tool in tools}


TOOLS: dict[str, Tool] = _tools()

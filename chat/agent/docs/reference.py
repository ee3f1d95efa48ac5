"""The reference document written without a model, from the index alone.

When no model is configured, a documentation request still gets a useful
answer: the repository's HTTP routes, CLI commands and tasks (C3), then each
module with its classes (and their methods) and functions (C1), each with its
signature and the first line of its docstring, then the packages its manifests
declare. Every entry cites the lines it
was read from. The document says at the top that no model wrote it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from rag.analysis.filetypes import is_test_path
from rag.services import Dependency, EntrypointInfo, SymbolInfo

NO_MODEL_LABEL = (
    "> **Generated without a language model.** No model is configured, so this reference was "
    "assembled from the repository's index: its symbol catalog, its entrypoints and the code's own "
    "docstrings. Nothing in it was written or checked by a model."
)

# (entry type, section title, noun for one, noun for several)
ENTRY_SECTIONS = (
    ("http_route", "HTTP routes", "HTTP route", "HTTP routes"),
    ("rpc_service", "RPC services and GraphQL operations", "RPC service or GraphQL operation", "RPC services and GraphQL operations"),
    ("cli_command", "CLI commands", "CLI command", "CLI commands"),
    ("task", "Background tasks", "background task", "background tasks"),
    ("app_component", "App components", "app component", "app components"),
)


def first_line(docstring: str) -> str:
    """The docstring's summary line (its first non-empty line)."""
    for line in docstring.strip().splitlines():
        if line.strip():
            return line.strip()
    return ""


def _span(path: str, start: int, end: int) -> str:
    return f"{path}:{start}" if start == end else f"{path}:{start}-{end}"


def _count(number: int, one: str, several: str) -> str:
    return f"{number} {one if number == 1 else several}"


def _cell(text: str) -> str:
    # A pipe would end the table cell.
    return text.replace("|", "\\|")


def _entry_rows(entry_type: str, entries: Sequence[EntrypointInfo]) -> list[str]:
    if entry_type in ("http_route", "app_component"):
        # An app's components are listed as routes are: their kind (``activity``, ``deep link``) as the methods.
        columns = "| Methods | Route |" if entry_type == "http_route" else "| Kind | Component or link |"
        rows = [f"{columns} Handler | Framework | Source |", "|---|---|---|---|---|"]
        for entry in sorted(entries, key=lambda e: (e.route_or_command, e.methods, e.path, e.start_line)):
            methods = ", ".join(entry.methods) or "any"
            rows.append(
                f"| {methods} | `{_cell(entry.route_or_command)}` | {_handler(entry)} | {entry.framework} "
                f"| `{_span(entry.path, entry.start_line, entry.end_line)}` |"
            )
        return rows
    header = {"cli_command": "Command", "rpc_service": "Service"}.get(entry_type, "Task")
    rows = [f"| {header} | Handler | Framework | Source |", "|---|---|---|---|"]
    for entry in sorted(entries, key=lambda e: (e.route_or_command, e.path, e.start_line)):
        rows.append(
            f"| `{_cell(entry.route_or_command)}` | {_handler(entry)} | {entry.framework} "
            f"| `{_span(entry.path, entry.start_line, entry.end_line)}` |"
        )
    return rows


def entrypoint_tables(entrypoints: Iterable[EntrypointInfo], *, level: int) -> list[str]:
    """Markdown lines: one table per kind of entrypoint (routes, commands, tasks), headed at ``level``."""
    by_type: dict[str, list[EntrypointInfo]] = defaultdict(list)
    for entry in entrypoints:
        by_type[entry.entry_type].append(entry)
    lines: list[str] = []
    for entry_type, title, _, _ in ENTRY_SECTIONS:
        if by_type[entry_type]:
            lines += [f"{'#' * level} {title}", "", *_entry_rows(entry_type, by_type[entry_type]), ""]
    return lines


def dependency_tables(dependencies: Iterable[Dependency], *, level: int) -> list[str]:
    """Markdown lines: one table per manifest of the packages it declares, headed at ``level``."""
    by_manifest: dict[tuple[str, str], list[Dependency]] = defaultdict(list)
    for dependency in dependencies:
        by_manifest[(dependency.path, dependency.ecosystem)].append(dependency)
    lines: list[str] = []
    for (path, ecosystem), declared in by_manifest.items():
        lines += [f"{'#' * level} `{_cell(path)}` ({ecosystem})", "", "| Package | Version | Scope | Source |", "|---|---|---|---|"]
        for dependency in declared:
            version = f"`{_cell(dependency.version)}`" if dependency.version else "none written"
            lines.append(f"| `{_cell(dependency.name)}` | {version} | {_cell(dependency.scope)} | `{path}:{dependency.line}` |")
        lines.append("")
    return lines


def _handler(entry: EntrypointInfo) -> str:
    return f"`{_cell(entry.handler)}`" if entry.handler else _cell(entry.unresolved_handler)


def _symbol_line(symbol: SymbolInfo, indent: str = "") -> str:
    signature = symbol.signature or f"{symbol.kind} {symbol.name}"
    doc = first_line(symbol.docstring)
    line = f"{indent}- `{signature}` ({_span(symbol.path, symbol.start_line, symbol.end_line)})"
    return f"{line}: {doc}" if doc else line


def _module_lines(module: str, path: str, symbols: Sequence[SymbolInfo], module_doc: str) -> list[str]:
    classes = [s for s in symbols if s.kind == "class"]
    class_names = {s.qname for s in classes}
    methods: dict[str, list[SymbolInfo]] = defaultdict(list)
    for symbol in symbols:
        if symbol.kind == "method" and symbol.parent in class_names:
            methods[symbol.parent].append(symbol)
    # Top-level functions only: a function nested in another is an implementation detail.
    functions = [s for s in symbols if s.kind == "function" and s.qname == f"{module}.{s.name}"]
    if not classes and not functions:
        return []
    lines = [f"### `{module}`", "", f"Source: `{path}`"]
    summary = first_line(module_doc)
    if summary:
        lines += ["", summary]
    if classes:
        lines += ["", "**Classes**", ""]
        for cls in sorted(classes, key=lambda s: s.start_line):
            lines.append(_symbol_line(cls))
            for method in sorted(methods.get(cls.qname, ()), key=lambda s: s.start_line):
                lines.append(_symbol_line(method, indent="  "))
    if functions:
        lines += ["", "**Functions**", ""]
        for function in sorted(functions, key=lambda s: s.start_line):
            lines.append(_symbol_line(function))
    lines.append("")
    return lines


def reference_document(
    repository_name: str,
    symbols: Iterable[SymbolInfo],
    entrypoints: Iterable[EntrypointInfo],
    module_docs: Mapping[str, str] | None = None,
    *,
    modules_left_out: int = 0,
    dependencies: Sequence[Dependency] = (),
) -> str:
    """The Markdown reference of an index; ``module_docs`` maps a file path to its module docstring.

    Test modules are left out (and counted), as they document nothing a reader
    of the reference looks for.
    """
    module_docs = module_docs or {}
    by_module: dict[tuple[str, str], list[SymbolInfo]] = defaultdict(list)
    test_paths: set[str] = set()
    for symbol in symbols:
        if is_test_path(symbol.path):
            test_paths.add(symbol.path)
            continue
        by_module[(symbol.module, symbol.path)].append(symbol)
    entries_by_type: dict[str, list[EntrypointInfo]] = defaultdict(list)
    for entry in entrypoints:
        entries_by_type[entry.entry_type].append(entry)

    module_lines: list[str] = []
    listed = 0
    for module, path in sorted(by_module):
        block = _module_lines(module, path, by_module[(module, path)], module_docs.get(path, ""))
        listed += bool(block)
        module_lines += block

    lines = [f"# {repository_name}: reference", "", NO_MODEL_LABEL, ""]
    counts = [_count(listed, "module", "modules") + " with classes or functions"] + [
        _count(len(entries_by_type[kind]), one, several)
        for kind, _, one, several in ENTRY_SECTIONS
        if entries_by_type[kind]
    ]
    lines += [f"The index lists {', '.join(counts)}. Sources are given as `path:start-end`.", ""]
    lines += entrypoint_tables(entrypoints, level=2)
    if module_lines:
        lines += ["## Modules", "", *module_lines]
    if modules_left_out:
        more = _count(modules_left_out, "more module is", "more modules are")
        lines += [f"_{more} not listed; ask for one by name to document it._", ""]
    if test_paths:
        tests = _count(len(test_paths), "test module is", "test modules are")
        lines += [f"_{tests} not listed._", ""]
    if dependencies:
        lines += ["## Dependencies", "", *dependency_tables(dependencies, level=3)]
    return "\n".join(lines).rstrip() + "\n"

"""What a document is written from: the index of one repository, pinned to one version (``chat.agent.writing``).

Everything here is synchronous Django code that stands alone (call it through ``database_pool.in_database_pool``).
Inputs handed to the model are capped, and what goes in is chosen by
retrieval, never by cutting text at a character count:

- the module catalog summary (``CATALOG_CHARS``): one line per module, the
  modules that retrieval ranks highest for the request first, whole lines
  only, then a count of the modules left out;
- the policy text (``POLICY_CHARS``): the repository's own documentation
  conventions (contributing guides, style notes) as whole sections ranked by
  retrieval;
- a section's sources (``chat.agent.writing.section_sources``).
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from chat.agent.docs.reference import first_line
from chat.agent.writing import SOURCE_MAX_LINES, IndexView, file_texts, numbered
from rag import services as rag
from rag.analysis.filetypes import is_test_path
from rag.models import Symbol
from rag.terms import is_vendored

CATALOG_CHARS = 4000
POLICY_CHARS = 4000
# The offline reference lists at most this many modules, the most relevant first.
REFERENCE_MODULES = 150
POLICY_QUERY = "documentation conventions style guide contributing docstrings writing docs"
# Files that state how the repository writes (CONTRIBUTING.md, docs/STYLE.md, WRITING_DOCS.rst, ...).
POLICY_FILE = re.compile(r"(^|/)[^/]*(contributing|conventions?|style|guidelines|writing)[^/]*$", re.I)
NAMES_PER_KIND = 6


def ranked_paths(view: IndexView, query: str, *, limit: int = 60) -> list[str]:
    """Indexed code files, the most relevant to ``query`` first."""
    if not query.strip():
        return []
    try:
        return [f.path for f in rag.search_files(view.repository, query, limit=limit, run=view.run)]
    except rag.SearchError:
        return []


def _select_lines(entries: Sequence[str], cap: int, left_out_note: str) -> str:
    """Whole entries in order while they fit in ``cap`` characters, then a note of how many were left out."""
    kept: list[str] = []
    used = 0
    for number, entry in enumerate(entries):
        after = len(entries) - number - 1
        reserve = len(left_out_note.format(after)) + 1 if after else 0
        if used + len(entry) + 1 + reserve > cap:
            kept.append(left_out_note.format(len(entries) - number))
            break
        kept.append(entry)
        used += len(entry) + 1
    return "\n".join(kept)


def _module_docstring(text: str) -> str:
    try:
        return ast.get_docstring(ast.parse(text)) or ""
    except (SyntaxError, ValueError):
        return ""


def module_catalog_summary(view: IndexView, query: str, *, cap: int = CATALOG_CHARS) -> str:
    """One line per module (classes, functions, docstring summary), most relevant to ``query`` first."""
    rows = Symbol.objects.in_version(view.run).filter(kind__in=("class", "function")).values_list(
        "module", "path", "kind", "name", "qname"
    )
    modules: dict[tuple[str, str], dict[str, list[str]]] = defaultdict(lambda: {"class": [], "function": []})
    for module, path, kind, name, qname in rows.order_by("path", "start_line"):
        if qname == f"{module}.{name}" and not is_vendored(path):
            modules[(module, path)][kind].append(name)
    if not modules:
        return ""
    rank = {path: number for number, path in enumerate(ranked_paths(view, query))}
    order = sorted(modules, key=lambda key: (is_test_path(key[1]), rank.get(key[1], len(rank)), key[1]))
    # Docstrings are read only for modules that can still fit (about 60 characters a line at least).
    docs = {path: _module_docstring(text) for path, text in file_texts(view, [p for _, p in order[: cap // 60]]).items()}
    entries = []
    for module, path in order:
        names = modules[(module, path)]
        parts = []
        for kind, label in (("class", "classes"), ("function", "functions")):
            listed = names[kind]
            if listed:
                more = f", +{len(listed) - NAMES_PER_KIND} more" if len(listed) > NAMES_PER_KIND else ""
                parts.append(f"{label} {', '.join(listed[:NAMES_PER_KIND])}{more}")
        summary = first_line(docs.get(path, ""))
        entries.append(f"- {path} ({module}): {'; '.join(parts)}" + (f". {summary}" if summary else ""))
    return _select_lines(entries, cap, "- ... {} more modules not listed")


def policy_text(view: IndexView, query: str, *, cap: int = POLICY_CHARS) -> str:
    """The repository's documentation conventions: whole docs sections ranked by retrieval."""
    try:
        response = rag.search(
            view.repository, f"{POLICY_QUERY} {query}".strip(), mode="docs", limit=20, run=view.run
        )
    except rag.SearchError:
        return ""
    sections = [
        f"From {item.citation}:\n{item.content.strip()}"
        for item in response.items
        if item.layer == "D0_DOCS" and POLICY_FILE.search(item.path)
    ]
    kept: list[str] = []
    used = 0
    for section in sections:
        if used + len(section) + 2 > cap:
            # A section that does not fit is skipped whole; a smaller, lower-ranked one may still fit.
            continue
        kept.append(section)
        used += len(section) + 2
    return "\n\n".join(kept)


def cited_text(view: IndexView, path: str, start: int, end: int, *, max_lines: int = SOURCE_MAX_LINES) -> str:
    """The numbered lines a citation points at (for the self-check)."""
    text = file_texts(view, [path]).get(path)
    if text is None:
        return ""
    lines = text.splitlines()
    end = min(end, len(lines), start + max_lines - 1)
    return numbered("\n".join(lines[start - 1 : end]), start) if end >= start else ""


def entrypoints_under(view: IndexView, target: str) -> list[rag.EntrypointInfo]:
    """The index's entrypoints, only those defined under ``target`` (a file or folder) when it is given."""
    entries = rag.list_entrypoints(view.repository, limit=5000, run=view.run)
    target = target.strip().strip("/")
    if not target:
        return entries
    return [e for e in entries if e.path == target or e.path.startswith(f"{target}/")]


def dependencies_under(view: IndexView, target: str) -> tuple[rag.Dependency, ...]:
    """The packages the index's manifests declare, only those of manifests under ``target`` (a folder) when it is given."""
    declared = rag.list_dependencies(view.repository, run=view.run).dependencies
    target = target.strip().strip("/")
    return tuple(d for d in declared if not target or d.path.startswith(f"{target}/"))


@dataclass(frozen=True)
class ReferenceMaterial:
    symbols: tuple[rag.SymbolInfo, ...]
    entrypoints: tuple[rag.EntrypointInfo, ...]
    module_docs: Mapping[str, str]
    modules_left_out: int = 0
    dependencies: tuple[rag.Dependency, ...] = ()


def reference_material(
    view: IndexView, query: str, *, only: str | None = None, max_modules: int = REFERENCE_MODULES
) -> ReferenceMaterial:
    """The symbol catalog, entrypoints and module docstrings for the offline reference.

    ``only`` narrows it to one file (its symbols, and the entrypoints defined
    in it or handled by it). A large repository keeps the ``max_modules``
    modules retrieval ranks highest for the request; the others are counted,
    not listed.
    """
    symbols = [
        rag.SymbolInfo(
            qname=s.qname, name=s.name, kind=s.kind, path=s.path, module=s.module, start_line=s.start_line,
            end_line=s.end_line, signature=s.signature, docstring=s.docstring, decorators=tuple(s.decorators or ()),
            parent=s.parent, is_async=s.is_async, is_entry_candidate=s.is_entry_candidate,
        )
        for s in Symbol.objects.in_version(view.run).filter(kind__in=("class", "function", "method")).order_by("path", "start_line")
        if not is_vendored(s.path)  # code the project carries but did not write (``html5shiv.min.js``)
    ]
    entrypoints = rag.list_entrypoints(view.repository, limit=5000, run=view.run)
    if only is not None:
        symbols = [s for s in symbols if s.path == only]
        handlers = {s.qname for s in symbols}
        entrypoints = [e for e in entrypoints if e.path == only or e.handler in handlers]
    paths = sorted({s.path for s in symbols if not is_test_path(s.path)})
    left_out = 0
    if len(paths) > max_modules:
        rank = {path: number for number, path in enumerate(ranked_paths(view, query, limit=max_modules))}
        kept = set(sorted(paths, key=lambda p: (rank.get(p, len(rank)), p))[:max_modules])
        left_out = len(paths) - len(kept)
        symbols = [s for s in symbols if s.path in kept or is_test_path(s.path)]
        paths = sorted(kept)
    docs = {path: _module_docstring(text) for path, text in file_texts(view, paths).items()}
    return ReferenceMaterial(
        symbols=tuple(symbols), entrypoints=tuple(entrypoints), module_docs=docs, modules_left_out=left_out,
        dependencies=dependencies_under(view, "") if only is None else (),
    )

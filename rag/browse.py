"""The repository home: its files as a tree, its README, what its index holds in
plain words, a search of its code grouped by file, and symbol pages (definition,
callers, callees, the entrypoints that reach it).

Everything reads the repository's active index version and goes through
``get_repository_for_user``, so a person only ever browses what they may see.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from urllib.parse import unquote

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from rag.markdown import render_markdown
from rag.models import DOC_LAYERS, IndexRun, Repository, SourceFile, Symbol
from rag.services import (
    SearchError,
    SourceNotFound,
    TextSearchError,
    callees,
    callers,
    count_entrypoints,
    declarations_of,
    find_symbol,
    get_repository_for_user,
    importing_files,
    list_dependencies,
    list_entrypoints,
    ranked_files,
    read_source,
    search,
    search_text,
)
from rag.services.changes import VersionNotFound, resolve_version
from rag.services.graph import MAX_DEPTH, declared_kind, written_names
from rag.source_view import highlight_excerpt
from rag.tools import in_file_order

SEARCH_LIMIT = 40
# Lines an exact text search shows.
TEXT_HITS_SHOWN = 200
# Lines of a definition shown on its symbol page; the source view has the rest.
DEFINITION_LINES = 40
DEFINITIONS_SHOWN = 8
# A query that can be a symbol's name, short or qualified (``Cart.total``, ``crate::walk``, ``Foo#bar``).
_NAME = re.compile(r"[A-Za-z_][\w.:#$]{0,200}")
# Which layer's text a search hit shows when several found the same lines: the code first.
LAYER_SHOWN_FIRST = {"C0_SOURCE_CHUNKS": 0, "D0_DOCS": 1, "C1_SYMBOL_CATALOG": 2, "C3_ENTRYPOINTS": 3, "C2_DEPENDENCY_GRAPH": 4}
# Lines of an item shown under a search hit.
SNIPPET_LINES = 4
README_NAMES = ("readme.md", "readme.markdown", "readme.rst", "readme.txt", "readme")
README_MAX_CHARS = 200_000
# A folder's table lists this many entries, then says how many more there are (a vendored folder may hold
# tens of thousands of files; code hosts stop at about a thousand too).
FOLDER_ENTRIES_SHOWN = 1000
LANGUAGE_NAMES = {
    "python": "Python", "javascript": "JavaScript", "typescript": "TypeScript", "tsx": "TypeScript", "go": "Go",
    "java": "Java", "rust": "Rust", "c": "C", "cpp": "C++", "csharp": "C#", "kotlin": "Kotlin", "ruby": "Ruby",
    "swift": "Swift", "scala": "Scala", "dart": "Dart", "lua": "Lua", "elixir": "Elixir",
    "php": "PHP", "markdown": "Markdown", "rst": "reStructuredText", "text": "Text", "json": "JSON",
    "yaml": "YAML", "toml": "TOML", "html": "HTML", "css": "CSS", "shell": "Shell", "sql": "SQL",
}


def language_name(language: str) -> str:
    return LANGUAGE_NAMES.get(language, language.replace("_", " ").capitalize() if language else "")


@dataclass(frozen=True)
class TreeEntry:
    """A file or a folder directly inside the folder being listed."""

    name: str
    path: str
    is_folder: bool
    size: int
    language: str = ""
    lines: int = 0
    files: int = 0


@dataclass
class FileHits:
    """The search hits of one file, in the order the search ranked them."""

    path: str
    hits: list[dict] = field(default_factory=list)


def index_sentence(run: IndexRun) -> str:
    """``Indexed 231 files, 3,331 symbols`` (the page adds when)."""
    files, symbols = int(run.counts.get("files", 0)), int(run.counts.get("symbols", 0))
    return f"Indexed {files:,} file{'s' if files != 1 else ''}, {symbols:,} symbol{'s' if symbols != 1 else ''}"


def folder_entries(run: IndexRun, folder: str) -> list[TreeEntry] | None:
    """Folders first, then files, directly in ``folder`` ("" is the root); None when no file is under it."""
    prefix = f"{folder}/" if folder else ""
    rows = SourceFile.objects.in_version(run).filter(path__startswith=prefix).values_list("path", "language", "size", "line_count")
    folders: dict[str, list[int]] = {}
    files: list[TreeEntry] = []
    for path, language, size, lines in rows.iterator(chunk_size=2000):
        rest = path[len(prefix) :]
        name, _, below = rest.partition("/")
        if below:
            totals = folders.setdefault(name, [0, 0])
            totals[0] += 1
            totals[1] += size
        else:
            files.append(TreeEntry(name=name, path=path, is_folder=False, size=size, language=language_name(language), lines=lines))
    if not folders and not files:
        return None
    listed = [
        TreeEntry(name=name, path=prefix + name, is_folder=True, size=size, files=count)
        for name, (count, size) in sorted(folders.items(), key=lambda kv: kv[0].lower())
    ]
    return listed + sorted(files, key=lambda entry: entry.name.lower())


def readme_html(run: IndexRun, entries: list[TreeEntry]) -> tuple[str, SafeString] | None:
    """The folder's README (its path and HTML): Markdown rendered, other text shown as it is."""
    by_name = {entry.name.lower(): entry for entry in entries if not entry.is_folder}
    entry = next((by_name[name] for name in README_NAMES if name in by_name), None)
    if entry is None:
        return None
    text = SourceFile.objects.in_version(run).filter(path=entry.path).values_list("text", flat=True).first() or ""
    text = text[:README_MAX_CHARS]
    if entry.name.lower().endswith((".md", ".markdown")):
        folder = posixpath.dirname(entry.path)
        return entry.path, mark_safe(render_markdown(text, resolve_link=lambda href: _repository_link(run, folder, href), document=True))
    return entry.path, format_html('<pre class="readme-text">{}</pre>', text)


def _repository_link(run: IndexRun, folder: str, href: str) -> str | None:
    """A README's relative link to a file or folder of the repository, as the source view's address."""
    target, _, fragment = href.partition("#")
    target = posixpath.normpath(posixpath.join(folder, unquote(target.split("?", 1)[0])))
    if target.startswith("..") or target in ("", "."):
        return None
    url = reverse("rag-source", args=[run.repository_id, target])
    if not SourceFile.objects.in_version(run).filter(path=target).exists():
        url += "/"  # a folder (the source view lists it, or says it is not there)
    line = re.fullmatch(r"L(\d+)(?:-L?(\d+))?", fragment)
    return f"{url}?lines={line.group(1)}-{line.group(2) or line.group(1)}#L{line.group(1)}" if line else url


def file_symbols(run: IndexRun | None, path: str) -> list[dict]:
    """The definitions of one file of the index, in the file's order (for the source view's symbol list)."""
    if run is None:
        return []
    rows = Symbol.objects.in_version(run).filter(path=path).order_by("start_line", "id").values(
        "qname", "name", "kind", "signature", "start_line", "parent"
    )
    # A method is shown under the type it belongs to: a Rust or Go type's methods need not follow it.
    return [
        {**row, "kind": declared_kind(row["kind"], row["signature"]), "owner": (row["parent"] or "").rsplit(".", 1)[-1]}
        for row in rows
    ]


def breadcrumbs(path: str) -> list[tuple[str, str]]:
    """(name, folder path) for each folder above and including ``path``."""
    parts = [part for part in path.split("/") if part]
    return [(part, "/".join(parts[: index + 1])) for index, part in enumerate(parts)]


def grouped_hits(repository: Repository, query: str) -> tuple[list[FileHits], list[str]]:
    """Search hits grouped by file (files in the order of their best hit) and the search's notes."""
    response = search(repository, query, mode="auto", limit=SEARCH_LIMIT)
    groups: dict[str, FileHits] = {}
    items = list(response.items)
    if response.mode != "docs":
        # The code's files in the learned file ranking's order, as ``search_code`` lists them (the ranking whose
        # held-out figures are reported); the docs' hits keep their places in a search of both groups.
        at = [position for position, item in enumerate(items) if item.layer not in DOC_LAYERS]
        ranked = in_file_order([items[position] for position in at], ranked_files(response, limit=SEARCH_LIMIT))
        for position, item in zip(at, ranked):
            items[position] = item
    # The layers find the same lines several times (the code, its catalog entry, its calls): one hit
    # per range, showing the code itself when a layer has it and named after its symbol when one is.
    by_range: dict[tuple[str, int, int], dict] = {}
    for item in items:
        group = groups.setdefault(item.path, FileHits(path=item.path))
        qname = (item.metadata or {}).get("qname") or ""
        rank = LAYER_SHOWN_FIRST.get(item.layer, len(LAYER_SHOWN_FIRST))
        snippet = "\n".join(item.content.splitlines()[:SNIPPET_LINES])
        key = (item.path, item.start_line, item.end_line)
        hit = by_range.get(key)
        if hit is None:
            hit = by_range[key] = {"start": item.start_line, "end": item.end_line, "title": qname or item.title, "snippet": snippet, "qname": qname, "rank": rank}
            group.hits.append(hit)
            continue
        if rank < hit["rank"]:
            hit.update(snippet=snippet, rank=rank)
        if qname and not hit["qname"]:
            hit.update(qname=qname, title=qname)
    for group in groups.values():
        group.hits.sort(key=lambda hit: (hit["start"], hit["end"]))
    return list(groups.values()), list(response.notes)


def text_hits(repository: Repository, query: str, *, regex: bool) -> tuple[list[FileHits], list[str]]:
    """The lines that contain the query (or match it as a regular expression), grouped by file in path order."""
    found = search_text(repository, query, regex=regex, limit=TEXT_HITS_SHOWN)
    # The text is marked where the line holds it, in the case the search matched (a regular expression's
    # matches are PostgreSQL's to say).
    marked = None if regex else re.compile(re.escape(query), 0 if found.case_sensitive else re.IGNORECASE)
    groups: dict[str, FileHits] = {}
    for match in found.matches:
        group = groups.setdefault(match.path, FileHits(path=match.path))
        snippet = _marked(match.text, marked) if marked is not None else match.text
        group.hits.append({"start": match.line, "end": match.line, "title": "", "snippet": snippet, "qname": ""})
    notes = [f"only the first {TEXT_HITS_SHOWN} matching lines are shown"] if found.truncated else []
    return list(groups.values()), notes


def _marked(line: str, text: re.Pattern[str]) -> SafeString:
    """The line, escaped, with each place that holds the text in ``<mark>``."""
    parts, end = [], 0
    for found in text.finditer(line):
        parts += [escape(line[end : found.start()]), f"<mark>{escape(found.group())}</mark>"]
        end = found.end()
    parts.append(escape(line[end:]))
    return mark_safe("".join(parts))  # every piece of the line is escaped above


def shown_entries(entries: list[TreeEntry]) -> dict:
    """A folder's entries as its table shows them: the first ``FOLDER_ENTRIES_SHOWN``, and how many more."""
    return {"entries": entries[:FOLDER_ENTRIES_SHOWN], "more_entries": max(0, len(entries) - FOLDER_ENTRIES_SHOWN)}


def home_context(repository: Repository) -> dict:
    """What the repository page shows above its index runs: summary, root tree, README and the dependencies' count."""
    run = repository.active_run
    entries = folder_entries(run, "") if run else None
    declared = list_dependencies(repository, run=run) if run else None
    return {
        "entrypoint_count": count_entrypoints(repository, run=run) if run else 0,
        **shown_entries(entries or []),
        "readme": readme_html(run, entries) if run and entries else None,
        "dependency_count": len(declared.dependencies) if declared else 0,
        "manifest_count": len(declared.manifest_paths()) if declared else 0,
    }


# The kinds of entrypoints, in the order the entrypoints page shows them, with their headings.
ENTRYPOINT_KINDS = (
    ("http_route", "HTTP routes"),
    ("rpc_service", "RPC services and GraphQL operations"),
    ("cli_command", "Commands"),
    ("task", "Background tasks"),
    ("app_component", "App components"),
)
ENTRYPOINTS_SHOWN = 2000


@require_GET
def entrypoints(request: HttpRequest, pk: int) -> HttpResponse:
    """The repository's HTTP routes, RPC services, commands and tasks with their handlers, kind by kind
    (``?framework=`` one framework's)."""
    repository = get_repository_for_user(request.user, pk)
    framework = request.GET.get("framework", "").strip()[:60]
    everything = list_entrypoints(repository, limit=ENTRYPOINTS_SHOWN)
    shown = [e for e in everything if not framework or e.framework.lower() == framework.lower()]
    names = written_names(repository.active_run, (e.handler for e in shown if e.handler)) if repository.active_run else {}
    kinds = [
        (title, [(entry, names.get(entry.handler, entry.handler) if entry.handler else "") for entry in shown if entry.entry_type == kind])
        for kind, title in ENTRYPOINT_KINDS
    ]
    return render(
        request,
        "rag/browse/entrypoints.html",
        {
            "repository": repository, "framework": framework, "kinds": [(title, rows) for title, rows in kinds if rows],
            "frameworks": sorted({e.framework for e in everything}, key=str.lower), "total": len(everything),
            "shown": len(shown), "more": count_entrypoints(repository) - len(everything) if len(everything) == ENTRYPOINTS_SHOWN else 0,
        },
    )


@dataclass
class ManifestDependencies:
    """One manifest's dependencies, as the dependencies page lists them: each with how many files import it
    (None where its ecosystem's imports do not name packages)."""

    path: str
    ecosystem: str
    dependencies: list = field(default_factory=list)


@require_GET
def dependencies(request: HttpRequest, pk: int) -> HttpResponse:
    """The packages the repository's manifests declare, manifest by manifest (``?q=`` a part of a name, ``?ecosystem=``)."""
    repository = get_repository_for_user(request.user, pk)
    query = request.GET.get("q", "").strip()[:200]
    ecosystem = request.GET.get("ecosystem", "").strip().lower()[:40]
    everything = list_dependencies(repository)
    found = list_dependencies(repository, name=query or None, ecosystem=ecosystem or None)
    manifests: dict[str, ManifestDependencies] = {}
    for dependency in found.dependencies:
        manifest = manifests.setdefault(dependency.path, ManifestDependencies(dependency.path, dependency.ecosystem))
        importers = importing_files(repository, dependency)
        manifest.dependencies.append((dependency, len(importers) if importers is not None else None))
    return render(
        request,
        "rag/browse/dependencies.html",
        {
            "repository": repository, "query": query, "ecosystem": ecosystem, "manifests": list(manifests.values()),
            "shown": len(found.dependencies), "total": len(everything.dependencies), "manifests_read": everything.manifests,
            "left_out": everything.left_out,
            "ecosystems": everything.by_ecosystem(),
        },
    )


def folder(request: HttpRequest, repository: Repository, path: str) -> HttpResponse:
    """A folder of the index (the source view's answer for a path that is a folder, not a file)."""
    run = repository.active_run
    path = path.strip("/")
    entries = folder_entries(run, path) if run and path else None
    if entries is None:
        raise Http404("No such file or folder in this repository's index")
    parent = posixpath.dirname(path)
    return render(
        request,
        "rag/browse/folder.html",
        {
            "repository": repository, "path": path, "name": posixpath.basename(path), "parent": parent, "crumbs": breadcrumbs(path)[:-1],
            **shown_entries(entries), "readme": readme_html(run, entries),
        },
    )


@require_GET
@gzip_page
def source_raw(request: HttpRequest, pk: int, path: str) -> HttpResponse:
    """A file of the index as plain text (``?at=`` a kept version, as the source view takes it)."""
    repository = get_repository_for_user(request.user, pk)
    at = request.GET.get("at", "").strip()
    try:
        run = resolve_version(repository, at) if at else repository.active_run
        whole = read_source(repository, path, max_lines=10**9, run=run)
    except (VersionNotFound, SourceNotFound):
        raise Http404("No such file in this repository's index") from None
    response = HttpResponse(whole.text + ("\n" if whole.text else ""), content_type="text/plain; charset=utf-8")
    # Shown, not run: a raw .html or .svg file must not become a page of this site.
    response["Content-Security-Policy"] = "sandbox"
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_GET
def code_search(request: HttpRequest, pk: int) -> HttpResponse:
    repository = get_repository_for_user(request.user, pk)
    query = request.GET.get("q", "").strip()[:2000]
    match = request.GET.get("match", "")
    match = match if match in ("text", "regex") else ""
    groups: list[FileHits] = []
    notes: list[str] = []
    error = ""
    definitions = []
    packages: tuple = ()
    if query:
        try:
            groups, notes = text_hits(repository, query, regex=match == "regex") if match else grouped_hits(repository, query)
        except (SearchError, TextSearchError) as exc:
            error = str(exc)
        if _NAME.fullmatch(query) and not match:
            # A name (``Cart``, ``shop.views.login_view``): its definitions lead to their symbol pages.
            definitions = find_symbol(repository, query, limit=DEFINITIONS_SHOWN)
        if not match and len(query.split()) == 1:
            # A package's name (``react``, ``jackson-databind``): where the manifests declare it.
            packages = declarations_of(repository, query)[:DEFINITIONS_SHOWN]
    context = {
        "repository": repository, "query": query, "match": match, "groups": groups, "notes": notes, "error": error, "definitions": definitions, "packages": packages,
        "hit_count": sum(len(group.hits) for group in groups),
    }
    if request.htmx and request.htmx.target == "search-results":
        return render(request, "rag/browse/search_results.html", context)
    return render(request, "rag/browse/search.html", context)


def _reaching_entrypoints(repository: Repository, qname: str) -> list:
    """Entrypoints whose handler is ``qname`` or calls it within ``MAX_DEPTH`` calls."""
    reaching = {qname} | {edge.src for edge in callers(repository, qname, depth=MAX_DEPTH, limit=5000)}
    return [entry for entry in list_entrypoints(repository) if entry.handler and entry.handler in reaching]


@require_GET
def symbol(request: HttpRequest, pk: int, qname: str) -> HttpResponse:
    repository = get_repository_for_user(request.user, pk)
    definitions = find_symbol(repository, qname)
    if not definitions:
        raise Http404("No such symbol in this repository's index")
    exact = [definition for definition in definitions if definition.qname == qname]
    if not exact:
        # A loose name (``Cart``) with its own definitions: the page lists them to choose from.
        return render(request, "rag/browse/symbol_choices.html", {"repository": repository, "name": qname, "definitions": definitions})
    definition = exact[0]
    calling, called = callers(repository, definition.qname, depth=1), callees(repository, definition.qname, depth=1)
    entrypoints = _reaching_entrypoints(repository, definition.qname)
    names = written_names(
        repository.active_run,
        [definition.parent, *(e.src for e in calling), *(e.dst for e in called), *(e.handler for e in entrypoints)],
    )
    try:
        code = read_source(repository, definition.path, definition.start_line, definition.end_line, max_lines=DEFINITION_LINES)
    except SourceNotFound:
        code = None
    return render(
        request,
        "rag/browse/symbol.html",
        {
            "repository": repository, "symbol": definition, "others": exact[1:],
            "code": highlight_excerpt(code.path, code.text, code.start_line) if code and code.text else [],
            "code_cut": bool(code and code.end_line < definition.end_line),
            "definition_lines": definition.end_line - definition.start_line + 1,
            # Each edge or entrypoint with the name its language writes for the symbol it links to.
            "callers": [(e, names.get(e.src, e.src)) for e in calling],
            "callees": [(e, names.get(e.dst, e.dst)) for e in called],
            "entrypoints": [(e, names.get(e.handler, e.handler)) for e in entrypoints],
            "parent_name": names.get(definition.parent, definition.parent),
            "language": language_name(
                SourceFile.objects.in_version(repository.active_run).filter(path=definition.path).values_list("language", flat=True).first() or ""
            ),
        },
    )

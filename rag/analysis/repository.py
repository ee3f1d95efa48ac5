"""Analysing files and whole repositories into index layers.

Two passes: ``extract_file`` reads one file on its own (chunks, symbols and the
file's facts; cacheable by content hash), then the repository pass resolves
names across all files into edges and entrypoints.
"""

from __future__ import annotations

import ast
import gc
import hashlib
import logging
import posixpath
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace

from rag.analysis.android_manifest import android_components
from rag.analysis.app_config import context_paths
from rag.analysis.candidates import lookup_work
from rag.analysis.chunking import split_lines, symbol_chunks, window_chunks
from rag.analysis.console_scripts import (
    automake_programs,
    cargo_bins,
    cargo_crate_name,
    cmake_executables,
    go_module_path,
    package_json_name,
    package_json_scripts,
    pubspec_name,
    pyproject_scripts,
    setup_cfg_scripts,
    setup_py_scripts,
    tsconfig_paths,
)
from rag.analysis.docs import doc_chunks
from rag.analysis.entrypoints import find_entrypoints
from rag.analysis.entrypoints.mounts import across_files
from rag.analysis.facts import ConsoleScript, FileFacts
from rag.analysis.filetypes import (
    DOC_LANGUAGES,
    artifact_type,
    detect_language,
    is_generated,
    is_minified,
    module_name,
)
from rag.analysis.languages.parsing import NotParsed, parse_ahead, parse_budget
from rag.analysis.languages.spec import LanguageSpec, code_of, spec_named, unit_name
from rag.analysis.languages.walker import extract_tree_sitter
from rag.analysis.names import repository_names
from rag.analysis.play_routes import play_router, play_routes
from rag.analysis.python_source import extract_python
from rag.analysis.razor_components import is_razor_component, razor_routes
from rag.analysis.records import Edge, Entrypoint, Symbol
from rag.analysis.resolution import RepositoryEdges
from rag.analysis.results import FileAnalysis, RepositoryAnalysis
from rag.analysis.serverless import (
    SERVERLESS_FRAMEWORKS,
    is_serverless_config,
    serverless_functions,
)

logger = logging.getLogger(__name__)

_NON_WORD = re.compile(r"\W+")


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _fallback_unit(path: str) -> str:
    """A dotted name for Python files whose path has none (a root ``__init__.py``, ``my-tool.py``)."""
    stem = posixpath.splitext(path)[0]
    return ".".join(part for part in (_NON_WORD.sub("_", piece) for piece in stem.split("/")) if part) or "_"


def extract_file(path: str, text: str) -> FileAnalysis:
    """The per-file pass: C0/D0 chunks, C1 symbols and facts; no edges or entrypoints yet.

    A file that does not parse gets window chunks and ``error`` set. So does a file the analysis itself
    fails on (a fault of ours that shape of code meets): it is logged, counted in the run's report with
    the others (``analysis_errors``) and searchable as lines, and the rest of the repository is analysed.
    """
    try:
        return _extract_file(path, text)
    except Exception as error:
        logger.exception("the analysis of %s failed; the file is read as lines", path)
        language = detect_language(path)
        artifact = artifact_type(path, language)
        analysis = FileAnalysis(path=path, content_hash=content_hash(text), language=language, artifact_type=artifact)
        analysis.error = f"the analysis failed: {type(error).__name__}: {error}"[:500]
        analysis.chunks = window_chunks(path, split_lines(text.removeprefix("\ufeff")), path, artifact)
        return analysis


def _extract_file(path: str, text: str) -> FileAnalysis:
    language = detect_language(path)
    artifact = artifact_type(path, language)
    analysis = FileAnalysis(
        path=path, content_hash=content_hash(text), language=language, artifact_type=artifact,
        generated=is_minified(path, text) or is_generated(text),
    )
    text = text.removeprefix("\ufeff")  # a byte order mark decoded as text; Python's parser refuses it
    lines = split_lines(text)
    name = posixpath.basename(path).lower()

    if language == "python":
        module, is_package = module_name(path)
        unit = module or _fallback_unit(path)
        try:
            tree = ast.parse(text, filename=path)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as error:
            return _read_as_lines(analysis, _describe_parse_error(error), lines, unit, FileFacts(module=unit, is_package=is_package))
        symbols, blocks, facts = extract_python(path, lines, tree, unit, is_package)
        if (overlong := _overlong_name(symbols, facts)) is not None:
            return _read_as_lines(analysis, overlong, lines, unit, FileFacts(module=unit, is_package=is_package))
        if name == "setup.py":
            facts = _with_scripts(facts, setup_py_scripts(tree, lines))
        analysis.symbols = symbols
        analysis.chunks = symbol_chunks(path, lines, unit, artifact, blocks)
        analysis.facts = facts
        return analysis

    if language in DOC_LANGUAGES:
        analysis.chunks = doc_chunks(path, lines, language)
    else:
        read = _tree_sitter_code(path, text, language, artifact)
        if read is not None:
            spec, code = read
            analysis.language = spec.name
            unit = unit_name(path, spec)
            try:
                symbols, blocks, facts = extract_tree_sitter(path, code, spec)
            except (NotParsed, RecursionError) as error:
                # Code nested hundreds deep, or whose parse runs past its time (no one writes it; an upload may).
                return _read_as_lines(analysis, _describe_parse_error(error), lines, unit, FileFacts(module=unit))
            if (overlong := _overlong_name(symbols, facts)) is not None:
                return _read_as_lines(analysis, overlong, lines, unit, FileFacts(module=unit))
            analysis.symbols = symbols
            analysis.chunks = symbol_chunks(path, lines, unit, artifact, blocks)
            analysis.facts = facts
            return analysis
        analysis.chunks = window_chunks(path, lines, path, artifact)
    analysis.facts = _manifest_facts(name, path, text, lines)
    return analysis


def _tree_sitter_code(path: str, text: str, language: str, artifact: str) -> tuple[LanguageSpec, str] | None:
    """The grammar and the code tree-sitter reads of a file (its text, or a component's scripts), if it reads it."""
    if language == "python" or language in DOC_LANGUAGES or artifact not in ("code", "test"):
        return None
    return code_of(path, text)


def _foresee(path: str, text: str) -> None:
    """Ask for the file's parse before ``extract_file`` wants it (``parse_ahead``)."""
    language = detect_language(path)
    read = _tree_sitter_code(path, text.removeprefix("\ufeff"), language, artifact_type(path, language))
    if read is not None:
        parse_ahead(*read)


def _manifest_facts(name: str, path: str, text: str, lines: list[str]) -> FileFacts | None:
    """What a packaging or build file declares: the commands and programs it builds, the name it is imported by;
    what a Play routes file routes; the components an Android manifest declares; the path a JVM server's
    configuration serves its routes under; the pages a Blazor component is routed at; the functions a serverless
    configuration deploys."""
    if name == "pyproject.toml":
        return _with_scripts(FileFacts(), pyproject_scripts(text, lines))
    if name == "setup.cfg":
        return _with_scripts(FileFacts(), setup_cfg_scripts(text, lines))
    if name == "package.json":
        return _with_scripts(FileFacts(manifest_name=package_json_name(text)), package_json_scripts(text, lines))
    if name == "jsconfig.json" or (name.startswith("tsconfig") and name.endswith(".json")):
        paths = tsconfig_paths(path, text)
        return FileFacts(module_paths=paths) if paths else None
    if name == "cargo.toml":
        return _with_scripts(FileFacts(manifest_name=cargo_crate_name(text)), cargo_bins(path, text, lines))
    if name == "go.mod":
        return FileFacts(manifest_name=go_module_path(text))
    if name == "pubspec.yaml":
        return FileFacts(manifest_name=pubspec_name(text))
    if name == "makefile.am":
        return _with_scripts(FileFacts(), automake_programs(path, text))
    if name == "cmakelists.txt":  # read as text (its suffix says so), and a build file too
        return _with_scripts(FileFacts(), cmake_executables(path, text))
    if (router := play_router(path)) is not None:
        return play_routes(path, router, lines)
    if name == "androidmanifest.xml":
        return android_components(path, text)
    if name.startswith("application."):
        return context_paths(path, text)
    if is_razor_component(name):
        return razor_routes(path, lines)
    if is_serverless_config(path):
        return serverless_functions(path, text)
    return None


def _with_scripts(facts: FileFacts, scripts: list[ConsoleScript]) -> FileFacts:
    if not scripts:
        return facts
    return replace(facts, console_scripts=tuple(scripts))


def _read_as_lines(analysis: FileAnalysis, error: str, lines: list[str], unit: str, facts: FileFacts) -> FileAnalysis:
    """The file as windows of lines, without symbols, ``error`` saying why."""
    analysis.error = error
    analysis.chunks = window_chunks(analysis.path, lines, unit, analysis.artifact_type)
    analysis.facts = facts
    return analysis


# The longest name a file may define, in bytes of UTF-8: a symbol's qualified name, or a module-level
# name another file may import. The index looks names up by value (PostgreSQL's B-tree entries hold at
# most about 2,700 bytes); real code's longest is a few hundred.
MAX_NAME_BYTES = 2_000


def _overlong_name(symbols: list[Symbol], facts: FileFacts) -> str | None:
    """Why a file is read as lines when it defines a name longer than ``MAX_NAME_BYTES``; None when not."""
    names = [s.qname for s in symbols] + [f"{facts.module}.{name}" for name in (*facts.top_level, *(i.name for i in facts.instances))]
    if max((len(name.encode("utf-8", "surrogatepass")) for name in names), default=0) <= MAX_NAME_BYTES:
        return None
    return f"NotParsed: it defines a name longer than {MAX_NAME_BYTES:,} bytes"


def _describe_parse_error(error: BaseException) -> str:
    if isinstance(error, SyntaxError):
        return f"SyntaxError: {error.msg} (line {error.lineno})"
    return f"{type(error).__name__}: {error}"


def analyze_repository(
    files: Mapping[str, str], previous: Mapping[str, FileAnalysis] | None = None, lookups: int | None = None
) -> RepositoryAnalysis:
    """Analyse ``{path: text}``; files whose content hash matches ``previous`` reuse its per-file pass.
    ``lookups``: the symbols the repository pass's lookups may read (``resolve_repository``).

    Paths are POSIX-style and relative to the repository root.
    """
    with _collector_paused():
        analyses: dict[str, FileAnalysis] = {}
        reused: set[str] = set()
        for path, text in files.items():
            earlier = previous.get(path) if previous else None
            if earlier is not None and earlier.content_hash == content_hash(text):
                analyses[path] = earlier
                reused.add(path)
        changed = [(path, text) for path, text in files.items() if path not in reused]
        with parse_budget(sum(len(text) for _, text in changed)):
            # Each file's parse is tried in the parse guard's process while this one extracts the file before.
            for path, text in changed[:1]:
                _foresee(path, text)
            for index, (path, text) in enumerate(changed):
                for later, text_later in changed[index + 1 : index + 2]:
                    _foresee(later, text_later)
                analyses[path] = extract_file(path, text)
        analyses = {path: analyses[path] for path in files}
        return replace(resolve_repository(analyses, frozenset(reused), lookups), extracted=analyses)


# What the repository pass's lookups may read (``LookupWork``): this many symbols, and this many more per
# symbol and reference of the repository. Real repositories read at most about 10 per symbol and
# reference (Vue's core, 630,000 in all); an upload of one name in each of 6,000 files of a folder reads
# 2,150 per symbol and reference (docs/BENCHMARKS.md, "Lookups of a repository pass, counted").
LOOKUP_ALLOWANCE = 2_000_000
LOOKUP_PER_NAME = 100


def resolve_repository(
    analyses: dict[str, FileAnalysis], reused: frozenset[str] = frozenset(), lookups: int | None = None
) -> RepositoryAnalysis:
    """The repository pass: edges and entrypoints for every file; entry candidates marked on symbols.
    Its lookups read at most ``lookups`` symbols (by default ``LOOKUP_ALLOWANCE`` and ``LOOKUP_PER_NAME``
    per symbol and reference); the references left when that is spent stay unresolved
    (``RepositoryAnalysis.unresolved``)."""
    if lookups is None:
        size = sum(len(analysis.symbols) + (len(analysis.facts.references) if analysis.facts else 0) for analysis in analyses.values())
        lookups = LOOKUP_ALLOWANCE + LOOKUP_PER_NAME * size
    with lookup_work(lookups) as work:
        resolved = _resolved(analyses, reused)
    return replace(resolved, unresolved=work.unresolved)


def _resolved(analyses: dict[str, FileAnalysis], reused: frozenset[str]) -> RepositoryAnalysis:
    names = repository_names(analyses)
    edges = RepositoryEdges(names, analyses.values())
    # A test registers routes and commands to exercise them (Laravel's ``Route::get`` in a test method,
    # Sinatra's ``mock_app { get '/' do ... end }``): they are no entrypoints of the project.
    tests = {path for path, analysis in analyses.items() if analysis.artifact_type == "test"}
    entrypoints = {path: entries for path, entries in find_entrypoints(names, analyses).items() if path not in tests}
    handlers = {entry.handler for entries in entrypoints.values() for entry in entries if entry.handler}
    handlers |= {handler.rsplit(".", 1)[0] for handler in handlers if handler.endswith(".Command.handle")}
    file_edges = {path: edges.of(analysis) for path, analysis in analyses.items()}
    found = across_files(edges.imports, analyses, file_edges, {
        path: [
            *entrypoints.get(path, []),
            *(
                _with_named_handler(edges, analysis, entry, file_edges[path])
                for entry in (analysis.facts.entrypoints if analysis.facts is not None else ())
            ),
        ]
        for path, analysis in analyses.items() if path not in tests
    })
    resolved: dict[str, FileAnalysis] = {}
    for path, analysis in analyses.items():
        candidates = handlers | (analysis.facts.entry_candidates if analysis.facts is not None else frozenset())
        symbols = [
            symbol
            if symbol.is_entry_candidate == (symbol.qname in candidates)
            else replace(symbol, is_entry_candidate=symbol.qname in candidates)
            for symbol in analysis.symbols
        ]
        resolved[path] = replace(
            analysis,
            symbols=symbols,
            edges=file_edges[path],
            entrypoints=found.get(path, []),
        )
    return RepositoryAnalysis(files=resolved, reused=reused)


# The language whose names a file that is no code gives its handlers in: Play's ``conf/routes`` names
# the methods of Scala and Java classes, an Android manifest the classes of Kotlin and Java.
_HANDLER_LANGUAGES = {"play": "scala", "android": "kotlin", "blazor": "csharp"}


def _with_named_handler(edges: RepositoryEdges, analysis: FileAnalysis, entry: Entrypoint, file_edges: list[Edge]) -> Entrypoint:
    """The entrypoint with its handler when the file does not define it but imports it by the name the route
    gives (Rust's ``get().to(get_site)`` with ``use lemmy_api_crud::site::read::get_site``; an ES module's
    ``import About from './About'``: what that module exports by default), or names a class's method the
    repository has (a route's controller action: ``[UserController::class, 'index']``)."""
    if entry.handler is not None or not entry.handler_raw:
        return entry
    language = analysis.language
    if spec_named(language) is None:
        language = _HANDLER_LANGUAGES.get(entry.framework, language)
    if entry.framework in ("android", "blazor"):
        handler = edges.named_class(language, entry.handler_raw)
    elif entry.framework in SERVERLESS_FRAMEWORKS:
        handler = edges.module_function(entry.handler_raw)
    else:
        handler = (
            _imported(edges, language, entry.handler_raw, file_edges) or _es_imported(edges, analysis, entry.handler_raw)
            or edges.named_handler(
                language, entry.handler_raw, entry.path,
                imported=frozenset(edge.dst for edge in file_edges if edge.kind == "imports" and edge.dst),
            )
        )
    return replace(entry, handler=handler) if handler is not None else entry


_BARE_NAME = re.compile(r"[A-Za-z_]\w*")


def _es_imported(edges: RepositoryEdges, analysis: FileAnalysis, written: str) -> str | None:
    """The definition an ES module's import binds a bare name to (``import About from './About'``: the
    module's default export; ``import { About } from './pages'``: what it exports by that name)."""
    if analysis.facts is None or not _BARE_NAME.fullmatch(written):
        return None
    for binding in analysis.facts.named_imports:
        if binding.name == written and not binding.reexport and binding.member != "*":
            module = edges.imports.target(binding.source, analysis)
            return edges.imports.exported(module, binding.member) if module is not None else None
    return None


def _imported(edges: RepositoryEdges, language: str, written: str, file_edges: list[Edge]) -> str | None:
    """The function, method or class a bare name is when the file imports it by that name (the only one so
    imported; not a namespace or module of that name: C#'s ``using AspireShop.BasketService;``)."""
    if not _BARE_NAME.fullmatch(written):
        return None
    found = {
        edge.dst for edge in file_edges
        if edge.kind == "imports" and edge.dst and edge.dst.endswith("." + written)
        and (edge.raw == written or edge.raw.endswith(("::" + written, "." + written, "\\" + written)))
        and any(s.kind in ("function", "method", "class") for s in edges.choices.named(language, written, edge.dst))
    }
    return found.pop() if len(found) == 1 else None


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while analysing.

    Analysis allocates millions of small acyclic objects (AST nodes, records)
    while its results grow; the collector's repeated passes over them cost
    about a third of the run on a large tree and free nothing. Reference
    counting still frees everything as usual.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def analyze_file(path: str, text: str) -> FileAnalysis:
    """One file analysed as a repository of its own (names resolve within the file only)."""
    return analyze_repository({path: text}).files[path]

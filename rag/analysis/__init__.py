"""Repository analysis: ``{path: text}`` -> index layers C0-C3 and D0, pure Python.

``analyze_repository(files, previous=None)`` is the entry point for indexing;
``analyze_file(path, text)`` analyses one file on its own. See ``records`` and
``results`` for what comes out and ``serialization`` for storing per-file results between runs.
``dependencies.declared_dependencies(path, text)`` reads the packages a manifest declares.

May import only ``rag.analysis`` itself and the parsers it reads files with (the tree-sitter grammars,
pyjson5, ``packaging``'s requirements, PyYAML's safe loader, the standard library's expat): no
Django settings, models or database, so it runs in index workers and tests
alike (``rag.benchmarks.analysis`` times it on Django's own source tree).
"""

from __future__ import annotations

from rag.analysis.records import Chunk, Edge, Entrypoint, Symbol
from rag.analysis.results import FileAnalysis, RepositoryAnalysis
from rag.analysis.repository import analyze_file, analyze_repository, content_hash, extract_file
from rag.analysis.serialization import ANALYSIS_VERSION, file_analysis_from_dict, file_analysis_to_dict

__all__ = [
    "ANALYSIS_VERSION",
    "Chunk",
    "Edge",
    "Entrypoint",
    "FileAnalysis",
    "RepositoryAnalysis",
    "Symbol",
    "analyze_file",
    "analyze_repository",
    "content_hash",
    "extract_file",
    "file_analysis_from_dict",
    "file_analysis_to_dict",
]

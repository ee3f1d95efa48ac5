"""The public Python API of the repositories app.

Other apps (the chat agent, evaluation) import from here::

    from rag.services import get_repository_for_user, search, read_source, callers

Results are plain dataclasses; lines are 1-based and inclusive. Every
function reads the repository's active index version unless given ``run``.

The modules behind it: ``repositories`` (upload, runs, the atomic switch of
index versions), ``indexing`` (an index run's stages), ``index_items`` (the items
of a file, their hashes and embeddings), ``retrieval/`` (hybrid
search), ``file_ranker`` (the learned file ranking), ``graph`` (symbols,
callers, callees, entrypoints), ``source`` (reading indexed files), ``text_search`` (exact text and
regular-expression search, line by line), ``dependencies`` (the packages the
manifests declare), ``git_sync``
(repositories that follow a git branch), ``changes`` (what changed between two
index versions), ``jobs`` (the background jobs they queue, by name: ``rag/tasks.py``
runs them and is the only module that imports both).

May import the rest of ``rag`` and ``llm``; nothing of ``chat`` or ``agentsite``.
"""

from __future__ import annotations

from rag.services.dependencies import Dependencies, Dependency, declarations_of, importing_files, list_dependencies, named_dependencies
from rag.services.changes import FileChange, RepositoryChanges, SymbolChange, VersionNotFound, changes_between
from rag.services.graph import (
    EntrypointInfo,
    GraphEdge,
    SymbolInfo,
    callees,
    callers,
    count_entrypoints,
    count_references,
    doc_word,
    find_symbol,
    list_entrypoints,
    references,
    symbols_at,
    written_names,
)
from rag.services.indexing import run_index
from rag.services.repositories import (
    activate_index,
    cancel_index_run,
    delete_repository,
    get_repository_for_user,
    reindex,
    repositories_for_user,
    start_index_run,
)
from rag.services.retrieval import (
    DEFAULT_PARAMS,
    FileScore,
    RankingParams,
    SearchError,
    SearchResponse,
    SearchResult,
    rank_files,
    search,
)
from rag.services.file_ranker import ranked_files, search_files
from rag.services.source import SourceNotFound, SourceSlice, list_files, read_source
from rag.services.text_search import TextMatch, TextMatches, TextSearchError, search_text

__all__ = [
    "DEFAULT_PARAMS", "Dependencies", "Dependency", "EntrypointInfo", "FileChange", "FileScore", "GraphEdge", "RankingParams", "RepositoryChanges",
    "SearchError", "SearchResponse", "SearchResult", "SourceNotFound", "SourceSlice", "SymbolChange", "SymbolInfo",
    "TextMatch", "TextMatches", "TextSearchError",
    "VersionNotFound", "activate_index", "callees", "cancel_index_run", "callers", "changes_between", "declarations_of", "count_entrypoints", "count_references", "delete_repository", "doc_word", "find_symbol", "get_repository_for_user", "importing_files", "list_dependencies", "list_entrypoints", "named_dependencies", "list_files", "rank_files", "ranked_files",
    "read_source", "references", "reindex", "repositories_for_user", "run_index", "search", "search_files", "search_text", "symbols_at", "start_index_run",
    "written_names",
]

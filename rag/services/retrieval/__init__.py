"""Hybrid retrieval over a repository's index version.

Three channels find candidates: full-text search scored by BM25 (``lexical``),
vector similarity through HNSW with the embedder that built the index
(``vector``), and the code hints of the query: identifiers, dotted names, file
paths, traceback frames (``symbols``). Their rankings are fused by weighted
reciprocal rank fusion and adjusted by priors (``fusion``); ``search`` runs a
query through them, without the lines it repeats from the repository's issue
templates (``templates``). Every weight is in ``RankingParams`` (``params``);
what comes back is in ``results``.

May import: Django, ``rag.models``, ``rag.storage``, ``rag.embeddings``,
``rag.query_analysis``, ``rag.terms``; nothing of ``rag.services`` outside
this package, nothing of ``chat``. Other apps import the public names from
``rag.services``.
"""

from __future__ import annotations

from rag.services.retrieval.fusion import AUXILIARY_FOLDERS, rank_files
from rag.services.retrieval.lexical import GroupStatistics, QueryTerm, group_statistics, query_terms
from rag.services.retrieval.params import DEFAULT_LIMIT, DEFAULT_PARAMS, Mode, RankingParams, SearchError, glob_to_regex
from rag.services.retrieval.results import FileScore, SearchResponse, SearchResult
from rag.services.retrieval.search import search

__all__ = [
    "AUXILIARY_FOLDERS", "DEFAULT_LIMIT", "DEFAULT_PARAMS", "FileScore", "GroupStatistics", "Mode", "QueryTerm",
    "RankingParams", "SearchError", "SearchResponse", "SearchResult", "glob_to_regex", "group_statistics",
    "query_terms", "rank_files", "search",
]

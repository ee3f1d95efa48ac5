"""Repositories: upload and intake, indexing into layers, embeddings, hybrid retrieval, the index's admin and pages.

- ``services/``: the public Python API other apps use (``from rag.services import search, ...``);
- ``analysis/``: ``{path: text}`` to index layers, pure Python; ``sources/``: where an index's files come from;
- ``tools/``: the repository tools shared by the chat agent and MCP;
- ``models``, ``storage``, ``embeddings``, ``query_analysis``, ``terms``: the index and how it is read;
- ``evaluation/``: retrieval measured against datasets; ``benchmarks/``: indexing, analysis and pages, timed.

May import ``llm`` and ``database_pool``; never ``chat`` (nothing here knows about messages)
nor ``agentsite``.
"""

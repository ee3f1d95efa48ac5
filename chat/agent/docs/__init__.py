"""The ``docs`` subgraph: documentation written from a repository's index (see ``graph``).

What is written from (``material``: the index pinned to one version, read on
the database pool), the document's shape (``document``), the model calls
(``model_calls``), progress notes and the reference tables (``reference``).

May import ``chat.agent`` (events, turn, citations, prompts), ``rag``, ``llm``
and ``database_pool``; nothing of ``chat`` outside ``chat.agent``.
"""

from __future__ import annotations

from chat.agent.docs.graph import DOCS_GRAPH, build_docs_graph

__all__ = ["DOCS_GRAPH", "build_docs_graph"]

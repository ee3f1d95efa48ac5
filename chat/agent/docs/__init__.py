"""The ``docs`` subgraph: documentation written from a repository's index (see ``graph``).

What is written from (``material``: the module catalog, the repository's
documentation conventions and the offline reference's material, read on the
database pool), the document's shape (``document``) and the reference tables
(``reference``). The index view, the model calls and the progress steps it
shares with the ``edits`` subgraph live in ``chat.agent.writing``.

May import ``chat.agent`` (events, turn, citations, prompts, writing), ``rag``,
``llm`` and ``database_pool``; nothing of ``chat`` outside ``chat.agent``.
"""

from __future__ import annotations

from chat.agent.docs.graph import DOCS_GRAPH, build_docs_graph

__all__ = ["DOCS_GRAPH", "build_docs_graph"]

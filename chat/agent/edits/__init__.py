"""The ``edits`` subgraph: code changes proposed as patches checked against the index (see ``graph``).

``diffs`` parses, applies and checks unified diffs; ``graph`` plans, writes,
checks and reviews them. It reads the index through ``chat.agent.docs``'s
``material`` and model calls.

May import ``chat.agent`` (the docs subgraph's material included), ``rag``,
``llm`` and ``database_pool``; nothing of ``chat`` outside ``chat.agent``.
"""

from __future__ import annotations

from chat.agent.edits.graph import EDITS_GRAPH, build_edits_graph

__all__ = ["EDITS_GRAPH", "build_edits_graph"]

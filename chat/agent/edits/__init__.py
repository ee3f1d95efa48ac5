"""The ``edits`` subgraph: code changes proposed as patches checked against the index (see ``graph``).

``diffs`` parses, applies and checks unified diffs; ``graph`` plans, writes,
checks and reviews them. It reads the index and calls the model through
``chat.agent.writing``, as the ``docs`` subgraph does.

May import ``chat.agent`` (not the ``docs`` subgraph), ``rag``, ``llm`` and
``database_pool``; nothing of ``chat`` outside ``chat.agent``.
"""

from __future__ import annotations

from chat.agent.edits.graph import EDITS_GRAPH, build_edits_graph

__all__ = ["EDITS_GRAPH", "build_edits_graph"]

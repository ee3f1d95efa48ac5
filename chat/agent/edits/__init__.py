"""The ``edits`` subgraph: code changes proposed as patches checked against the index (see ``graph``)."""

from __future__ import annotations

from chat.agent.edits.graph import EDITS_GRAPH, build_edits_graph

__all__ = ["EDITS_GRAPH", "build_edits_graph"]

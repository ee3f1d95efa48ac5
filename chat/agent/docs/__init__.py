"""The ``docs`` subgraph: documentation written from a repository's index (see ``graph``)."""

from __future__ import annotations

from chat.agent.docs.graph import DOCS_GRAPH, build_docs_graph

__all__ = ["DOCS_GRAPH", "build_docs_graph"]

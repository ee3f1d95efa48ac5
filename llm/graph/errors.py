"""Errors raised by the graph engine.

Build-time problems are reported together in one ``GraphBuildError``. Run-time
errors carry the context the graph had when it stopped, so a caller can keep a
partial answer instead of losing the turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any


class GraphError(Exception):
    """Base class of the engine's own errors."""


class GraphBuildError(GraphError):
    """The graph as declared cannot run; ``problems`` lists every reason found."""

    def __init__(self, graph: str, problems: Sequence[str]) -> None:
        self.graph = graph
        self.problems = tuple(problems)
        super().__init__(f"graph {graph!r} is invalid: " + "; ".join(self.problems))


class NodeError(GraphError):
    """A node failed for good (after its retry policy gave up).

    ``context`` is the context the node was given; ``error`` is the node's own
    exception (also the ``__cause__``).
    """

    def __init__(
        self, graph: str, node: str, context: Any, error: BaseException, attempts: int
    ) -> None:
        self.graph = graph
        self.node = node
        self.context = context
        self.error = error
        self.attempts = attempts
        plural = "attempt" if attempts == 1 else "attempts"
        super().__init__(
            f"node {node!r} of graph {graph!r} failed after {attempts} {plural}: "
            f"{type(error).__name__}: {error}"
        )


class RoutingError(GraphError):
    """A dynamic edge chose a node that is not one of its targets."""

    def __init__(self, graph: str, node: str, target: object, context: Any, reason: str) -> None:
        self.graph = graph
        self.node = node
        self.target = target
        self.context = context
        super().__init__(f"route after {node!r} in graph {graph!r} chose {target!r}: {reason}")


class MaxStepsExceeded(GraphError):
    """The run executed more than ``max_steps`` nodes, almost always a cycle.

    ``looping`` names the nodes of the cycle in the order they ran (empty when
    no node repeated, i.e. the limit is simply too low for the graph).
    """

    def __init__(self, graph: str, max_steps: int, looping: Sequence[str], context: Any) -> None:
        self.graph = graph
        self.max_steps = max_steps
        self.looping = tuple(looping)
        self.context = context
        where = (
            f"; looping nodes: {' -> '.join(self.looping)}"
            if self.looping
            else "; no node repeated, so the limit is too low for this graph"
        )
        super().__init__(f"graph {graph!r} exceeded max_steps={max_steps}{where}")


class GraphCancelled(asyncio.CancelledError):
    """The run was cancelled; ``context`` is the last context a node completed.

    It subclasses ``CancelledError`` so cancellation keeps its asyncio meaning
    (a cancelled task stays cancelled, ``TaskGroup`` and ``wait_for`` behave).
    Python 3.11's ``asyncio.timeout`` converts only a bare ``CancelledError``
    into ``TimeoutError``; under it this error escapes as itself.
    """

    def __init__(self, graph: str, node: str, context: Any) -> None:
        self.graph = graph
        self.node = node
        self.context = context
        super().__init__(f"graph {graph!r} was cancelled while node {node!r} ran")

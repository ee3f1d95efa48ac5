"""A small graph engine for agents: pure asyncio, no Django.

The model:

- An ``AgentContext`` is an immutable value (input, history, settings, tools,
  system prompt, free ``state``). Nodes never change it; they return a new one.
- A ``Node`` is anything with a ``name`` and ``async run(ctx, runtime) -> ctx``;
  ``@node`` makes one from an async function. Nodes hold no run state, so one
  node can serve several graphs.
- ``GraphBuilder`` joins nodes with static edges (``edge(a, b)``) and dynamic
  ones (``route(a, fn, targets=...)``, ``fn(ctx)`` naming the next node),
  between a named entry and one or more exits. ``build()`` checks the shape
  once and returns an immutable ``Graph``, which is itself a node: any graph
  can be a subgraph.
- A ``Runner`` executes a graph: per-node retry policies (``llm.retry.RetryPolicy``),
  a ``max_steps`` guard against cycles, ``on_step``/``on_emit`` callbacks or the
  ``iter()`` async iterator for live progress, and cancellation that keeps the
  last context (``GraphCancelled.context``).
- The ``Runtime`` handed to each node carries the caller's services and an
  ``emit`` function that streams events (tokens, tool calls) to the caller
  while the node runs.

May import ``llm.retry`` and ``llm.types``; no Django and nothing else of ours.

Example::

    @node
    async def retrieve(ctx, runtime):
        return ctx.with_state(chunks=await runtime.services.search(ctx.input))

    @node
    async def answer(ctx, runtime):
        await runtime.emit("Hello")
        return ctx.evolve(input="Hello")

    qa = GraphBuilder("qa").entry(retrieve).edge(retrieve, answer).exit(answer).build()
    final = await Runner().run(qa, AgentContext(input="question"), services=services)
"""

from __future__ import annotations

from llm.graph.context import AgentContext, AgentSettings
from llm.graph.errors import (
    GraphBuildError,
    GraphCancelled,
    GraphError,
    MaxStepsExceeded,
    NodeError,
    RoutingError,
)
from llm.graph.graph import Graph, GraphBuilder, Route, Router
from llm.graph.nodes import FunctionNode, Node, node
from llm.graph.runner import (
    DEFAULT_MAX_STEPS,
    Emitted,
    GraphRun,
    RunEvent,
    Runner,
    Runtime,
    Step,
)

__all__ = [
    "DEFAULT_MAX_STEPS",
    "AgentContext",
    "AgentSettings",
    "Emitted",
    "FunctionNode",
    "Graph",
    "GraphBuildError",
    "GraphBuilder",
    "GraphCancelled",
    "GraphError",
    "GraphRun",
    "MaxStepsExceeded",
    "Node",
    "NodeError",
    "Route",
    "Router",
    "RoutingError",
    "RunEvent",
    "Runner",
    "Runtime",
    "Step",
    "node",
]

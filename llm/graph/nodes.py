"""Nodes: named async steps from one context to the next.

Anything with a ``name`` and ``async run(ctx, runtime) -> ctx`` is a node, a
built ``Graph`` included. ``@node`` turns an async function into one. A node
holds no per-run state, so the same node may appear in several graphs.

``NodeRuntime`` is what a node may use of the runtime it is given; the runner's
``Runtime`` implements it. Nodes and graphs know only this interface, so the
runner sits above them and imports them, never the other way round.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, overload, runtime_checkable

from llm.graph.context import AgentContext

In = TypeVar("In")
Out = TypeVar("Out")
I = TypeVar("I")
O = TypeVar("O")
S_co = TypeVar("S_co", covariant=True)


class NodeRuntime(Protocol[S_co]):
    """What a running node receives besides its context (implemented by ``llm.graph.runner.Runtime``)."""

    @property
    def services(self) -> S_co: ...

    @property
    def graph(self) -> str: ...

    @property
    def node(self) -> str: ...

    @property
    def depth(self) -> int: ...

    async def emit(self, event: object) -> None: ...

    async def run_subgraph(self, graph: Node[Any, Any], ctx: AgentContext[Any]) -> AgentContext[Any]:
        """Run ``graph`` (a built ``Graph``) one level below the current node."""
        ...


NodeFunction = Callable[[AgentContext[I], NodeRuntime[Any]], Awaitable[AgentContext[O]]]


@runtime_checkable
class Node(Protocol[In, Out]):
    """A step of a graph: takes a context whose input is ``In``, returns one whose input is ``Out``."""

    @property
    def name(self) -> str: ...

    async def run(self, ctx: AgentContext[In], runtime: NodeRuntime[Any]) -> AgentContext[Out]: ...


@dataclass(frozen=True)
class FunctionNode(Generic[I, O]):
    """A node backed by an async function ``fn(ctx, runtime) -> ctx``."""

    name: str
    fn: NodeFunction[I, O]

    async def run(self, ctx: AgentContext[I], runtime: NodeRuntime[Any]) -> AgentContext[O]:
        return await self.fn(ctx, runtime)


@overload
def node(fn: NodeFunction[I, O], /) -> FunctionNode[I, O]: ...
@overload
def node(*, name: str) -> Callable[[NodeFunction[I, O]], FunctionNode[I, O]]: ...


def node(
    fn: NodeFunction[I, O] | None = None, /, *, name: str | None = None
) -> FunctionNode[I, O] | Callable[[NodeFunction[I, O]], FunctionNode[I, O]]:
    """Make a node of an async function, named after it unless ``name`` is given.

    Use as ``@node`` or ``@node(name="retrieve")``.
    """

    def wrap(function: NodeFunction[I, O]) -> FunctionNode[I, O]:
        if not inspect.iscoroutinefunction(function):
            raise TypeError(f"@node needs an async function, got {function!r}")
        return FunctionNode(name=name or function.__name__, fn=function)

    return wrap if fn is None else wrap(fn)

"""Nodes: named async steps from one context to the next.

Anything with a ``name`` and ``async run(ctx, runtime) -> ctx`` is a node, a
built ``Graph`` included. ``@node`` turns an async function into one. A node
holds no per-run state, so the same node may appear in several graphs.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar, overload, runtime_checkable

from llm.graph.context import AgentContext

if TYPE_CHECKING:
    from llm.graph.runner import Runtime

In = TypeVar("In")
Out = TypeVar("Out")
I = TypeVar("I")
O = TypeVar("O")

NodeFunction = Callable[[AgentContext[I], "Runtime[Any]"], Awaitable[AgentContext[O]]]


@runtime_checkable
class Node(Protocol[In, Out]):
    """A step of a graph: takes a context whose input is ``In``, returns one whose input is ``Out``."""

    @property
    def name(self) -> str: ...

    async def run(self, ctx: AgentContext[In], runtime: Runtime[Any]) -> AgentContext[Out]: ...


@dataclass(frozen=True)
class FunctionNode(Generic[I, O]):
    """A node backed by an async function ``fn(ctx, runtime) -> ctx``."""

    name: str
    fn: NodeFunction[I, O]

    async def run(self, ctx: AgentContext[I], runtime: Runtime[Any]) -> AgentContext[O]:
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

"""Graphs: nodes joined by static and dynamic edges, validated once at build time.

A graph starts at its entry node and ends after one of its exit nodes. Every
other node has exactly one way out: a static edge (``edge(a, b)``) or a route
(``route(a, fn)``), where ``fn(ctx)`` returns the name of the next node.
Declaring a route's possible ``targets`` lets the builder check the whole
shape; without them the builder has to assume the route may go anywhere.

A built ``Graph`` is immutable and is itself a node, so it can be placed in
another graph as a subgraph.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from llm.graph.context import AgentContext
from llm.graph.errors import GraphBuildError, RoutingError
from llm.graph.nodes import Node, NodeRuntime
from llm.retry import RetryPolicy

if TYPE_CHECKING:
    from typing import Self

Router = Callable[[AgentContext[Any]], str]


@dataclass(frozen=True)
class Route:
    """A dynamic edge; ``targets`` None means undeclared (checked only at run time)."""

    fn: Router
    targets: frozenset[str] | None = None


@dataclass(frozen=True)
class Graph:
    """An immutable, validated graph; build it with ``GraphBuilder``.

    Running it as a node (``await graph.run(ctx, runtime)``) executes its nodes
    one level deeper than the node that holds it.
    """

    name: str
    entry: str
    exits: frozenset[str]
    nodes: Mapping[str, Node[Any, Any]]
    edges: Mapping[str, str]
    routes: Mapping[str, Route]
    retries: Mapping[str, RetryPolicy]

    async def run(self, ctx: AgentContext[Any], runtime: NodeRuntime[Any]) -> AgentContext[Any]:
        return await runtime.run_subgraph(self, ctx)

    def next_node(self, current: str, ctx: AgentContext[Any]) -> str:
        """The node after ``current`` (which must not be an exit) for this context."""
        if current in self.edges:
            return self.edges[current]
        route = self.routes[current]
        try:
            target = route.fn(ctx)
        except Exception as exc:
            raise RoutingError(self.name, current, None, ctx, f"the route raised {exc!r}") from exc
        if not isinstance(target, str) or target not in self.nodes:
            raise RoutingError(self.name, current, target, ctx, "no such node in the graph")
        if route.targets is not None and target not in route.targets:
            raise RoutingError(
                self.name, current, target, ctx,
                f"not a declared target ({', '.join(sorted(route.targets))})",
            )
        return target


class GraphBuilder:
    """Collects nodes and edges; ``build()`` checks them all and reports every problem at once.

    Methods accept a node object or a node name; a node object is added on first
    mention. Each method returns the builder so calls can be chained.
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._nodes: dict[str, Node[Any, Any]] = {}
        self._retries: dict[str, RetryPolicy] = {}
        self._edges: dict[str, str] = {}
        self._routes: dict[str, Route] = {}
        self._entry: str | None = None
        self._exits: list[str] = []
        self._problems: list[str] = []

    def add(self, node: Node[Any, Any], *, retry: RetryPolicy | None = None) -> Self:
        """Add a node; ``retry`` is its retry policy in this graph (default: one attempt)."""
        name = node.name
        if not name:
            self._problems.append(f"a node has an empty name: {node!r}")
            return self
        known = self._nodes.get(name)
        if known is not None and known is not node:
            self._problems.append(f"two different nodes are named {name!r}")
            return self
        self._nodes[name] = node
        if retry is not None:
            self._retries[name] = retry
        return self

    def entry(self, node: str | Node[Any, Any]) -> Self:
        self._entry = self._ref(node)
        return self

    def exit(self, *nodes: str | Node[Any, Any]) -> Self:
        """Declare exit nodes: the graph returns the context after any of them ran."""
        self._exits.extend(self._ref(n) for n in nodes)
        return self

    def edge(self, source: str | Node[Any, Any], target: str | Node[Any, Any]) -> Self:
        """After ``source`` always run ``target``."""
        name = self._ref(source)
        self._check_single_way_out(name)
        self._edges[name] = self._ref(target)
        return self

    def route(
        self,
        source: str | Node[Any, Any],
        fn: Router,
        *,
        targets: Iterable[str | Node[Any, Any]] | None = None,
    ) -> Self:
        """After ``source`` run the node named by ``fn(ctx)``, one of ``targets`` if given."""
        name = self._ref(source)
        self._check_single_way_out(name)
        declared = None if targets is None else frozenset(self._ref(t) for t in targets)
        self._routes[name] = Route(fn=fn, targets=declared)
        return self

    def build(self) -> Graph:
        problems = list(self._problems) + self._structure_problems()
        if not problems:
            problems = self._reachability_problems()
        if problems:
            raise GraphBuildError(self.name, problems)
        assert self._entry is not None
        return Graph(
            name=self.name,
            entry=self._entry,
            exits=frozenset(self._exits),
            nodes=MappingProxyType(dict(self._nodes)),
            edges=MappingProxyType(dict(self._edges)),
            routes=MappingProxyType(dict(self._routes)),
            retries=MappingProxyType(dict(self._retries)),
        )

    def _ref(self, node: str | Node[Any, Any]) -> str:
        if isinstance(node, str):
            return node
        self.add(node)
        return node.name

    def _check_single_way_out(self, name: str) -> None:
        if name in self._edges or name in self._routes:
            self._problems.append(f"node {name!r} has more than one outgoing edge or route")

    def _structure_problems(self) -> list[str]:
        problems = []
        known = self._nodes
        if self._entry is None:
            problems.append("no entry node is set")
        elif self._entry not in known:
            problems.append(f"entry {self._entry!r} is not a node of the graph")
        if not self._exits:
            problems.append("no exit node is set")
        for name in self._exits:
            if name not in known:
                problems.append(f"exit {name!r} is not a node of the graph")
            elif name in self._edges or name in self._routes:
                problems.append(f"exit {name!r} has an outgoing edge, but the graph ends after it")
        for source, target in self._edges.items():
            if source not in known:
                problems.append(f"edge source {source!r} is not a node of the graph")
            if target not in known:
                problems.append(f"edge {source!r} -> {target!r}: target is not a node of the graph")
        for source, route in self._routes.items():
            if source not in known:
                problems.append(f"route source {source!r} is not a node of the graph")
            for target in sorted(route.targets or ()):
                if target not in known:
                    problems.append(f"route from {source!r}: target {target!r} is not a node of the graph")
        return problems

    def _successors(self, name: str) -> Iterable[str]:
        if name in self._edges:
            return (self._edges[name],)
        if name in self._routes:
            targets = self._routes[name].targets
            # An undeclared route may choose any node.
            return self._nodes.keys() if targets is None else targets
        return ()

    def _reachability_problems(self) -> list[str]:
        assert self._entry is not None
        reached = _closure([self._entry], self._successors)
        predecessors: dict[str, set[str]] = {name: set() for name in self._nodes}
        for name in self._nodes:
            for target in self._successors(name):
                predecessors[target].add(name)
        reaches_exit = _closure(self._exits, lambda n: predecessors[n])

        problems = []
        unreachable_exits = [name for name in self._exits if name not in reached]
        if unreachable_exits:
            problems.append(
                f"exit {_names(unreachable_exits)} cannot be reached from entry {self._entry!r}"
            )
        unreachable = [n for n in self._nodes if n not in reached and n not in self._exits]
        if unreachable:
            problems.append(f"nodes cannot be reached from entry {self._entry!r}: {_names(unreachable)}")
        stuck = [n for n in self._nodes if n not in reaches_exit]
        if stuck:
            problems.append(f"nodes cannot reach an exit: {_names(stuck)}")
        return problems


def _closure(start: Iterable[str], step: Callable[[str], Iterable[str]]) -> set[str]:
    seen: set[str] = set()
    todo = list(start)
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(step(name))
    return seen


def _names(names: Iterable[str]) -> str:
    return ", ".join(repr(n) for n in names)

"""Build-time validation: a graph that cannot run is refused before it runs."""

from __future__ import annotations

import dataclasses

import pytest

from llm.graph import AgentContext, Graph, GraphBuildError, GraphBuilder, Node, Runtime, node


def _passthrough(name: str) -> Node:
    async def run(ctx: AgentContext, runtime: Runtime) -> AgentContext:
        return ctx

    return node(name=name)(run)


a, b, c, d = (_passthrough(n) for n in "abcd")


def _problems(builder: GraphBuilder) -> tuple[str, ...]:
    with pytest.raises(GraphBuildError) as raised:
        builder.build()
    assert raised.value.graph == builder.name
    return raised.value.problems


def test_a_valid_graph_builds_into_an_immutable_graph() -> None:
    graph = GraphBuilder("g").entry(a).edge(a, b).exit(b).build()
    assert isinstance(graph, Graph)
    assert (graph.entry, graph.exits, graph.edges) == ("a", frozenset({"b"}), {"a": "b"})
    with pytest.raises(TypeError):
        graph.nodes["c"] = c  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        graph.entry = "b"  # type: ignore[misc]


def test_a_built_graph_is_itself_a_node() -> None:
    graph = GraphBuilder("sub").entry(a).exit(a).build()
    assert isinstance(graph, Node)
    assert graph.name == "sub"


def test_it_reports_a_missing_entry() -> None:
    assert _problems(GraphBuilder("g").add(a).exit(a)) == ("no entry node is set",)


def test_it_reports_an_entry_that_is_not_a_node() -> None:
    assert _problems(GraphBuilder("g").add(a).entry("nope").exit(a)) == (
        "entry 'nope' is not a node of the graph",
    )


def test_it_reports_a_missing_exit() -> None:
    assert _problems(GraphBuilder("g").entry(a)) == ("no exit node is set",)


def test_it_reports_an_edge_to_an_unknown_node() -> None:
    problems = _problems(GraphBuilder("g").entry(a).edge(a, "ghost").exit(a))
    assert "edge 'a' -> 'ghost': target is not a node of the graph" in problems


def test_it_reports_a_route_target_that_is_not_a_node() -> None:
    builder = GraphBuilder("g").entry(a).route(a, lambda ctx: "b", targets=[b, "ghost"]).exit(b)
    assert _problems(builder) == ("route from 'a': target 'ghost' is not a node of the graph",)


def test_it_reports_nodes_that_cannot_reach_the_exit() -> None:
    # c is a dead end: the route may pick it, and nothing leads on from there.
    builder = (
        GraphBuilder("g").entry(a).route(a, lambda ctx: "b", targets=[b, c]).edge(b, d).exit(d)
    )
    assert _problems(builder) == ("nodes cannot reach an exit: 'c'",)


def test_it_reports_an_exit_that_cannot_be_reached_and_the_cycle_that_traps_the_run() -> None:
    builder = GraphBuilder("g").entry(a).edge(a, b).edge(b, a).add(c).exit(c)
    assert _problems(builder) == (
        "exit 'c' cannot be reached from entry 'a'",
        "nodes cannot reach an exit: 'a', 'b'",
    )


def test_it_reports_nodes_no_path_leads_to() -> None:
    builder = GraphBuilder("g").entry(a).edge(a, b).edge(c, b).exit(b)
    assert _problems(builder) == ("nodes cannot be reached from entry 'a': 'c'",)


def test_it_reports_an_exit_with_an_outgoing_edge() -> None:
    builder = GraphBuilder("g").entry(a).edge(a, b).edge(b, c).exit(b, c)
    assert _problems(builder) == ("exit 'b' has an outgoing edge, but the graph ends after it",)


def test_it_reports_a_node_with_two_ways_out() -> None:
    builder = GraphBuilder("g").entry(a).edge(a, b).route(a, lambda ctx: "b").exit(b)
    assert "node 'a' has more than one outgoing edge or route" in _problems(builder)


def test_it_reports_two_different_nodes_with_one_name() -> None:
    impostor = _passthrough("a")
    builder = GraphBuilder("g").entry(a).edge(a, b).add(impostor).exit(b)
    assert _problems(builder) == ("two different nodes are named 'a'",)


def test_it_reports_every_problem_at_once() -> None:
    builder = GraphBuilder("g").add(a).edge(a, "ghost").route("phantom", lambda ctx: "a")
    assert _problems(builder) == (
        "no entry node is set",
        "no exit node is set",
        "edge 'a' -> 'ghost': target is not a node of the graph",
        "route source 'phantom' is not a node of the graph",
    )


def test_a_route_without_declared_targets_is_assumed_to_reach_any_node() -> None:
    graph = GraphBuilder("g").entry(a).route(a, lambda ctx: "c").add(b).edge(b, c).exit(c).build()
    assert graph.routes["a"].targets is None

"""Running graphs: edges, subgraphs, retries, limits, cancellation and progress reports."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from llm.graph import (
    AgentContext,
    Emitted,
    GraphBuilder,
    GraphCancelled,
    MaxStepsExceeded,
    NodeError,
    RoutingError,
    Runner,
    Runtime,
    Step,
    node,
)
from llm.retry import ProviderTimeout, RetryPolicy


def appender(name: str):
    """A node that appends its name to ``state["path"]``."""

    async def run(ctx: AgentContext, runtime: Runtime) -> AgentContext:
        return ctx.with_state(path=(*ctx.state.get("path", ()), name))

    return node(name=name)(run)


a, b, c, d, x, y = (appender(n) for n in ("a", "b", "c", "d", "x", "y"))


class Flaky(Exception):
    pass


@dataclass
class FailingService:
    """Fails ``failures`` times, then answers."""

    failures: int
    calls: int = 0

    def call(self) -> str:
        self.calls += 1
        if self.calls <= self.failures:
            raise Flaky(f"failure {self.calls}")
        return "answer"


@node
async def call_service(ctx: AgentContext, runtime: Runtime[FailingService]) -> AgentContext:
    return ctx.with_state(answer=runtime.services.call())


def retries(attempts: int, on: type[BaseException] = Flaky) -> RetryPolicy:
    return RetryPolicy(
        max_attempts=attempts, initial_interval=0, jitter=False, retry_on=lambda exc: isinstance(exc, on)
    )


@dataclass
class Recorder:
    steps: list[Step] = field(default_factory=list)

    def __call__(self, step: Step) -> None:
        self.steps.append(step)

    @property
    def trail(self) -> list[tuple[int, int, str]]:
        return [(s.index, s.depth, s.node) for s in self.steps]


async def test_static_edges_run_nodes_in_order_and_return_the_exit_context() -> None:
    graph = GraphBuilder("line").entry(a).edge(a, b).edge(b, c).exit(c).build()
    final = await Runner().run(graph, AgentContext(input="q"))
    assert final.state["path"] == ("a", "b", "c")
    assert final.input == "q"


@pytest.mark.parametrize(("question", "expected"), [("short", ("a", "b", "d")), ("a long one", ("a", "c", "d"))])
async def test_a_route_chooses_the_next_node_from_the_context(question: str, expected: tuple[str, ...]) -> None:
    graph = (
        GraphBuilder("fork")
        .entry(a)
        .route(a, lambda ctx: "c" if " " in ctx.input else "b", targets=[b, c])
        .edge(b, d)
        .edge(c, d)
        .exit(d)
        .build()
    )
    final = await Runner().run(graph, AgentContext(input=question))
    assert final.state["path"] == expected


async def test_a_route_can_loop_until_the_context_says_stop() -> None:
    graph = (
        GraphBuilder("loop")
        .entry(a)
        .route(a, lambda ctx: "a" if len(ctx.state["path"]) < 3 else "b", targets=[a, b])
        .exit(b)
        .build()
    )
    final = await Runner().run(graph, AgentContext(input="q"))
    assert final.state["path"] == ("a", "a", "a", "b")


async def test_a_route_choosing_an_undeclared_target_stops_the_run() -> None:
    graph = (
        GraphBuilder("g").entry(a).route(a, lambda ctx: "d", targets=[b, c]).edge(c, d).edge(d, b).exit(b).build()
    )
    with pytest.raises(RoutingError, match="not a declared target") as raised:
        await Runner().run(graph, AgentContext(input="q"))
    assert (raised.value.node, raised.value.target) == ("a", "d")
    assert raised.value.context.state["path"] == ("a",)


async def test_a_route_naming_no_node_stops_the_run() -> None:
    graph = GraphBuilder("g").entry(a).route(a, lambda ctx: "nowhere").exit(b).build()
    with pytest.raises(RoutingError, match="'nowhere': no such node"):
        await Runner().run(graph, AgentContext(input="q"))


async def test_a_graph_runs_as_a_subgraph_of_another() -> None:
    inner = GraphBuilder("inner").entry(x).edge(x, y).exit(y).build()
    outer = GraphBuilder("outer").entry(a).edge(a, inner).edge(inner, b).exit(b).build()
    final = await Runner().run(outer, AgentContext(input="q"))
    assert final.state["path"] == ("a", "x", "y", "b")


async def test_a_node_serves_several_graphs_and_a_graph_runs_alone_or_nested() -> None:
    first = GraphBuilder("first").entry(a).edge(a, b).exit(b).build()
    second = GraphBuilder("second").entry(b).edge(b, a).exit(a).build()
    both = GraphBuilder("both").entry(first).edge(first, second).exit(second).build()
    runner = Runner()
    assert (await runner.run(first, AgentContext(input=0))).state["path"] == ("a", "b")
    assert (await runner.run(second, AgentContext(input=0))).state["path"] == ("b", "a")
    assert (await runner.run(both, AgentContext(input=0))).state["path"] == ("a", "b", "b", "a")


async def test_a_graph_called_directly_as_a_node_runs_with_a_default_runner() -> None:
    graph = GraphBuilder("g").entry(a).edge(a, b).exit(b).build()
    final = await graph.run(AgentContext(input="q"), Runtime())
    assert final.state["path"] == ("a", "b")


async def test_a_failing_node_is_retried_until_it_succeeds() -> None:
    service = FailingService(failures=2)
    graph = GraphBuilder("g").add(call_service, retry=retries(3)).entry(call_service).exit(call_service).build()
    recorder = Recorder()
    final = await Runner(on_step=recorder).run(graph, AgentContext(input="q"), services=service)
    assert final.state["answer"] == "answer"
    assert service.calls == 3
    assert [(s.attempt, type(s.error).__name__ if s.error else None) for s in recorder.steps] == [
        (1, "Flaky"),
        (2, "Flaky"),
        (3, None),
    ]


async def test_the_llm_layers_default_policy_retries_retryable_provider_errors() -> None:
    attempts = []

    @node
    async def ask_model(ctx: AgentContext, runtime: Runtime) -> AgentContext:
        attempts.append(1)
        if len(attempts) == 1:
            raise ProviderTimeout(provider="fake")
        return ctx.evolve(input="answered")

    policy = RetryPolicy(max_attempts=2, initial_interval=0, jitter=False)
    graph = GraphBuilder("g").add(ask_model, retry=policy).entry(ask_model).exit(ask_model).build()
    assert (await Runner().run(graph, AgentContext(input="q"))).input == "answered"
    assert len(attempts) == 2


async def test_exhausted_retries_raise_a_node_error_with_every_attempt_reported() -> None:
    service = FailingService(failures=5)
    graph = (
        GraphBuilder("g").entry(a).edge(a, call_service).add(call_service, retry=retries(3)).exit(call_service).build()
    )
    recorder = Recorder()
    with pytest.raises(NodeError) as raised:
        await Runner(on_step=recorder).run(graph, AgentContext(input="q"), services=service)
    error = raised.value
    assert (error.graph, error.node, error.attempts) == ("g", "call_service", 3)
    assert isinstance(error.error, Flaky) and error.__cause__ is error.error
    assert str(error.error) == "failure 3"
    assert error.context.state["path"] == ("a",)
    assert service.calls == 3
    assert [(s.node, s.attempt, s.ok) for s in recorder.steps] == [
        ("a", 1, True),
        ("call_service", 1, False),
        ("call_service", 2, False),
        ("call_service", 3, False),
    ]


async def test_an_error_the_policy_does_not_retry_fails_at_once() -> None:
    service = FailingService(failures=1)
    graph = (
        GraphBuilder("g")
        .add(call_service, retry=retries(5, on=ProviderTimeout))
        .entry(call_service)
        .exit(call_service)
        .build()
    )
    with pytest.raises(NodeError) as raised:
        await Runner().run(graph, AgentContext(input="q"), services=service)
    assert raised.value.attempts == 1
    assert service.calls == 1


async def test_a_node_without_a_policy_runs_once() -> None:
    service = FailingService(failures=1)
    graph = GraphBuilder("g").entry(call_service).exit(call_service).build()
    with pytest.raises(NodeError, match="failed after 1 attempt: Flaky: failure 1"):
        await Runner().run(graph, AgentContext(input="q"), services=service)
    assert service.calls == 1


async def test_a_node_returning_something_else_than_a_context_fails_clearly() -> None:
    @node
    async def sloppy(ctx: AgentContext, runtime: Runtime) -> AgentContext:
        return "not a context"  # type: ignore[return-value]

    graph = GraphBuilder("g").entry(sloppy).exit(sloppy).build()
    with pytest.raises(NodeError, match="returned str, not an AgentContext"):
        await Runner().run(graph, AgentContext(input="q"))


def _cycle() -> object:
    return (
        GraphBuilder("cycle")
        .entry(a)
        .edge(a, b)
        .edge(b, c)
        .route(c, lambda ctx: "b", targets=[b, d])
        .exit(d)
        .build()
    )


async def test_max_steps_stops_a_cycle_and_names_the_looping_nodes() -> None:
    recorder = Recorder()
    with pytest.raises(MaxStepsExceeded) as raised:
        await Runner(max_steps=20, on_step=recorder).run(_cycle(), AgentContext(input="q"))
    error = raised.value
    assert error.looping == ("b", "c")
    assert error.graph == "cycle"
    assert "exceeded max_steps=20; looping nodes: b -> c" in str(error)
    assert len(recorder.steps) == 20
    assert error.context.state["path"][-3:] == ("b", "c", "b")


async def test_max_steps_defaults_to_one_thousand() -> None:
    recorder = Recorder()
    with pytest.raises(MaxStepsExceeded) as raised:
        await Runner(on_step=recorder).run(_cycle(), AgentContext(input="q"))
    assert raised.value.max_steps == 1000
    assert len(recorder.steps) == 1000


async def test_max_steps_counts_subgraph_steps_and_finds_a_loop_through_a_subgraph() -> None:
    inner = GraphBuilder("inner").entry(x).edge(x, y).exit(y).build()
    outer = (
        GraphBuilder("outer").entry(a).edge(a, inner).route(inner, lambda ctx: "a", targets=[a, b]).exit(b).build()
    )
    with pytest.raises(MaxStepsExceeded) as raised:
        await Runner(max_steps=10).run(outer, AgentContext(input="q"))
    assert (raised.value.graph, raised.value.looping) == ("outer", ("a", "inner"))


async def test_on_step_reports_steps_in_finishing_order_with_subgraph_depth() -> None:
    @node
    async def slow(ctx: AgentContext, runtime: Runtime) -> AgentContext:
        await asyncio.sleep(0.02)
        return ctx

    deepest = GraphBuilder("deepest").entry(slow).exit(slow).build()
    inner = GraphBuilder("inner").entry(x).edge(x, deepest).exit(deepest).build()
    outer = GraphBuilder("outer").entry(a).edge(a, inner).edge(inner, b).exit(b).build()
    seen: list[Step] = []

    async def on_step(step: Step) -> None:
        await asyncio.sleep(0)
        seen.append(step)

    await Runner(on_step=on_step).run(outer, AgentContext(input="q"))
    assert [(s.index, s.depth, s.graph, s.node) for s in seen] == [
        (0, 0, "outer", "a"),
        (1, 1, "inner", "x"),
        (2, 2, "deepest", "slow"),
        (3, 1, "inner", "deepest"),
        (4, 0, "outer", "inner"),
        (5, 0, "outer", "b"),
    ]
    assert all(s.ok for s in seen)
    durations = {s.node: s.duration for s in seen}
    assert durations["slow"] >= 0.02
    assert durations["inner"] >= durations["deepest"] >= durations["slow"]


async def test_on_step_reports_the_failing_step_with_its_error() -> None:
    service = FailingService(failures=1)
    inner = GraphBuilder("inner").entry(call_service).exit(call_service).build()
    outer = GraphBuilder("outer").entry(a).edge(a, inner).exit(inner).build()
    recorder = Recorder()
    with pytest.raises(NodeError) as raised:
        await Runner(on_step=recorder).run(outer, AgentContext(input="q"), services=service)
    assert raised.value.node == "call_service"
    assert recorder.trail == [(0, 0, "a"), (1, 1, "call_service"), (2, 0, "inner")]
    assert isinstance(recorder.steps[1].error, Flaky)
    assert recorder.steps[2].error is raised.value


def _blocking_graph(started: asyncio.Event, released: list[str]):
    """a, then a subgraph (x, then a node that waits until cancelled), then b."""

    @node
    async def wait_forever(ctx: AgentContext, runtime: Runtime) -> AgentContext:
        started.set()
        try:
            await asyncio.Event().wait()
        finally:
            released.append("wait_forever")
        return ctx

    inner = GraphBuilder("inner").entry(x).edge(x, wait_forever).exit(wait_forever).build()
    return GraphBuilder("outer").entry(a).edge(a, inner).edge(inner, b).exit(b).build()


async def test_cancelling_a_run_raises_an_error_carrying_the_last_context() -> None:
    started, released = asyncio.Event(), []
    recorder = Recorder()
    task = asyncio.create_task(Runner(on_step=recorder).run(_blocking_graph(started, released), AgentContext(input="q")))
    await asyncio.wait_for(started.wait(), 2)
    task.cancel()
    with pytest.raises(GraphCancelled) as raised:
        await task
    assert task.cancelled()
    stopped = raised.value
    assert isinstance(stopped, asyncio.CancelledError)
    assert (stopped.graph, stopped.node) == ("inner", "wait_forever")
    assert stopped.context.state["path"] == ("a", "x")
    assert released == ["wait_forever"]
    assert [(s.node, s.ok) for s in recorder.steps] == [("a", True), ("x", True), ("wait_forever", False), ("inner", False)]


async def test_a_timeout_around_a_run_keeps_the_last_context_as_its_cause() -> None:
    started, released = asyncio.Event(), []
    with pytest.raises(TimeoutError) as raised:
        await asyncio.wait_for(Runner().run(_blocking_graph(started, released), AgentContext(input="q")), 0.05)
    assert isinstance(raised.value.__cause__, GraphCancelled)
    assert raised.value.__cause__.context.state["path"] == ("a", "x")


async def test_iter_yields_steps_while_running_and_then_offers_the_final_context() -> None:
    inner = GraphBuilder("inner").entry(x).edge(x, y).exit(y).build()
    outer = GraphBuilder("outer").entry(a).edge(a, inner).edge(inner, b).exit(b).build()
    run = Runner().iter(outer, AgentContext(input="q"))
    with pytest.raises(RuntimeError):
        run.context
    items = [item async for item in run]
    assert [(s.index, s.depth, s.node) for s in items if isinstance(s, Step)] == [
        (0, 0, "a"),
        (1, 1, "x"),
        (2, 1, "y"),
        (3, 0, "inner"),
        (4, 0, "b"),
    ]
    assert run.context.state["path"] == ("a", "x", "y", "b")


async def test_iter_delivers_emitted_events_while_the_node_is_still_running() -> None:
    consumer_saw_token = asyncio.Event()

    @node
    async def speak(ctx: AgentContext, runtime: Runtime) -> AgentContext:
        await runtime.emit("Hel")
        # Finishes only once the caller has shown the first token.
        await asyncio.wait_for(consumer_saw_token.wait(), 2)
        await runtime.emit("lo")
        return ctx.evolve(input="Hello")

    inner = GraphBuilder("inner").entry(speak).exit(speak).build()
    outer = GraphBuilder("outer").entry(a).edge(a, inner).exit(inner).build()
    emitted_to_callback: list[Emitted] = []
    run = Runner(on_emit=emitted_to_callback.append).iter(outer, AgentContext(input="q"))
    items = []
    async for item in run:
        items.append(item)
        if isinstance(item, Emitted):
            consumer_saw_token.set()
    assert [
        (item.node, item.depth, item.event) if isinstance(item, Emitted) else (item.node, item.depth, "step")
        for item in items
    ] == [
        ("a", 0, "step"),
        ("speak", 1, "Hel"),
        ("speak", 1, "lo"),
        ("speak", 1, "step"),
        ("inner", 0, "step"),
    ]
    assert [e.event for e in emitted_to_callback] == ["Hel", "lo"]
    assert run.context.input == "Hello"


async def test_iter_raises_the_runs_error_after_the_steps_before_it() -> None:
    service = FailingService(failures=1)
    graph = GraphBuilder("g").entry(a).edge(a, call_service).exit(call_service).build()
    seen = []
    with pytest.raises(NodeError):
        async for item in Runner().iter(graph, AgentContext(input="q"), services=service):
            seen.append((item.node, item.ok))
    assert seen == [("a", True), ("call_service", False)]


async def test_cancelling_the_consumer_of_iter_stops_the_run_and_keeps_its_context() -> None:
    started, released = asyncio.Event(), []
    run = Runner().iter(_blocking_graph(started, released), AgentContext(input="q"))

    async def consume() -> list[str]:
        return [item.node async for item in run]

    consumer = asyncio.create_task(consume())
    await asyncio.wait_for(started.wait(), 2)
    consumer.cancel()
    with pytest.raises(GraphCancelled) as raised:
        await consumer
    assert raised.value.context.state["path"] == ("a", "x")
    assert released == ["wait_forever"]


async def test_leaving_iter_early_cancels_the_run() -> None:
    started, released = asyncio.Event(), []
    async with Runner().iter(_blocking_graph(started, released), AgentContext(input="q")) as run:
        async for item in run:
            if item.node == "x":
                break
        await asyncio.wait_for(started.wait(), 2)
    assert released == ["wait_forever"]
    with pytest.raises(RuntimeError):
        run.context


async def test_runtime_carries_the_callers_services_and_where_the_node_runs() -> None:
    @dataclass(frozen=True)
    class Services:
        greeting: str

    seen = []

    @node
    async def look(ctx: AgentContext, runtime: Runtime[Services]) -> AgentContext:
        seen.append((runtime.services.greeting, runtime.graph, runtime.node, runtime.depth))
        return ctx

    inner = GraphBuilder("inner").entry(look).exit(look).build()
    outer = GraphBuilder("outer").entry(look).edge(look, inner).exit(inner).build()
    await Runner().run(outer, AgentContext(input="q"), services=Services("hi"))
    assert seen == [("hi", "outer", "look", 0), ("hi", "inner", "look", 1)]


def test_node_refuses_a_plain_function_and_takes_an_explicit_name() -> None:
    def not_async(ctx: AgentContext, runtime: Runtime) -> AgentContext:
        return ctx

    with pytest.raises(TypeError, match="needs an async function"):
        node(not_async)  # type: ignore[arg-type]
    assert call_service.name == "call_service"
    assert node(name="renamed")(call_service.fn).name == "renamed"


def test_a_runner_needs_a_positive_step_limit() -> None:
    with pytest.raises(ValueError):
        Runner(max_steps=0)

"""Running graphs: retries, step limits, cancellation, progress reports.

``Runner.run`` executes a graph from its entry to an exit and returns the last
context. While it runs, every node attempt becomes a ``Step`` (reported to
``on_step`` when it finishes, in finishing order) and whatever a node sends
through ``runtime.emit`` becomes an ``Emitted`` (reported to ``on_emit`` at
once, so streamed tokens reach the caller while the node still runs).
``Runner.iter`` offers both as one async iterator.

Depth: the nodes of the graph given to the runner run at depth 0; the nodes of
a subgraph run one level deeper than the node that holds it, and the subgraph's
own step is reported after its inner steps.
"""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, Generic, TypeVar

from llm.graph.context import AgentContext
from llm.graph.errors import GraphCancelled, GraphError, MaxStepsExceeded, NodeError
from llm.graph.graph import Graph
from llm.retry import NO_RETRY, RetryPolicy

S = TypeVar("S")

DEFAULT_MAX_STEPS = 1000


@dataclass(frozen=True)
class Step:
    """One finished node attempt.

    ``index`` counts steps across the whole run (subgraphs included) in the
    order they finished; ``duration`` is in seconds; ``error`` is set when the
    attempt failed (a later ``attempt`` of the same node may still succeed).
    """

    index: int
    depth: int
    graph: str
    node: str
    duration: float
    error: BaseException | None = None
    attempt: int = 1

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class Emitted:
    """An event a node sent through ``runtime.emit`` (a text delta, a tool call...)."""

    depth: int
    graph: str
    node: str
    event: object


RunEvent = Step | Emitted
StepCallback = Callable[[Step], Awaitable[None] | None]
EmitCallback = Callable[[Emitted], Awaitable[None] | None]


class Runtime(Generic[S]):
    """What a running node receives besides its context (the ``NodeRuntime`` of ``llm.graph.nodes``).

    ``services`` is the caller's own typed container (a provider, tool
    implementations, a repository handle); the engine never looks inside it.
    A runtime made by hand (``Runtime(services)``) runs subgraphs with a
    default ``Runner`` and drops emitted events.
    """

    __slots__ = ("services", "graph", "node", "depth", "_run", "_frame")

    def __init__(self, services: S = None) -> None:  # type: ignore[assignment]
        self.services = services
        self.graph = ""
        self.node = ""
        self.depth = 0
        self._run: _Run | None = None
        self._frame: _Frame | None = None

    async def emit(self, event: object) -> None:
        """Send an event to the caller now, tagged with this node and depth."""
        if self._run is not None:
            await self._run.publish(
                self._run.emit_sinks, Emitted(self.depth, self.graph, self.node, event)
            )

    async def run_subgraph(self, graph: Graph, ctx: AgentContext[Any]) -> AgentContext[Any]:
        """Run ``graph`` one level below this node, within the same run and step budget."""
        if self._run is None:
            return await Runner().run(graph, ctx, services=self.services)
        return await self._run.execute(graph, ctx, depth=self.depth + 1, parent=self._frame)

    @classmethod
    def _for_node(cls, run: _Run, frame: _Frame, node: str) -> Runtime[Any]:
        runtime: Runtime[Any] = cls(run.services)
        runtime.graph = frame.graph.name
        runtime.node = node
        runtime.depth = frame.depth
        runtime._run = run
        runtime._frame = frame
        return runtime


class Runner:
    """Executes graphs; one runner may run many graphs, one after another or at once."""

    def __init__(
        self,
        *,
        max_steps: int = DEFAULT_MAX_STEPS,
        on_step: StepCallback | None = None,
        on_emit: EmitCallback | None = None,
    ) -> None:
        if max_steps < 1:
            raise ValueError("max_steps must be at least 1")
        self.max_steps = max_steps
        self.on_step = on_step
        self.on_emit = on_emit

    async def run(self, graph: Graph, ctx: AgentContext[Any], *, services: Any = None) -> AgentContext[Any]:
        """Run ``graph`` to an exit and return the final context.

        Raises ``NodeError`` when a node fails after its retries, ``RoutingError``
        when a route picks an impossible node, ``MaxStepsExceeded`` past
        ``max_steps`` node executions (all depths counted), and ``GraphCancelled``
        (carrying the last completed context) when the run is cancelled.
        """
        return await self._start(services, [], []).execute(graph, ctx, depth=0, parent=None)

    def iter(self, graph: Graph, ctx: AgentContext[Any], *, services: Any = None) -> GraphRun:
        """Run ``graph`` in a task and yield its steps and emitted events as they happen.

        After the iteration ends, ``GraphRun.context`` holds the final context;
        a failed run raises its error from the iteration once every earlier
        item was yielded. Leaving early: ``await run.aclose()`` or
        ``async with runner.iter(...) as run``, which cancel the run.
        """
        return GraphRun(self, graph, ctx, services)

    def _start(self, services: Any, step_sinks: list[StepCallback], emit_sinks: list[EmitCallback]) -> _Run:
        if self.on_step is not None:
            step_sinks = [self.on_step, *step_sinks]
        if self.on_emit is not None:
            emit_sinks = [self.on_emit, *emit_sinks]
        return _Run(self.max_steps, services, step_sinks, emit_sinks)


@dataclass
class _Frame:
    """One execution of one graph: where it is and what it has done."""

    graph: Graph
    depth: int
    parent: _Frame | None
    context: AgentContext[Any]
    trace: list[str] = field(default_factory=list)


@dataclass
class _Run:
    """The state shared by every graph level of one top-level run."""

    max_steps: int
    services: Any
    step_sinks: list[StepCallback]
    emit_sinks: list[EmitCallback]
    started: int = 0
    finished: int = 0

    async def execute(
        self, graph: Graph, ctx: AgentContext[Any], *, depth: int, parent: _Frame | None
    ) -> AgentContext[Any]:
        frame = _Frame(graph, depth, parent, ctx)
        current = graph.entry
        while True:
            ctx = await self._run_node(frame, current, ctx)
            if current in graph.exits:
                return ctx
            current = graph.next_node(current, ctx)

    async def _run_node(self, frame: _Frame, name: str, ctx: AgentContext[Any]) -> AgentContext[Any]:
        graph = frame.graph
        self.started += 1
        frame.trace.append(name)
        if self.started > self.max_steps:
            looping_graph, looping = _find_loop(frame)
            raise MaxStepsExceeded(looping_graph, self.max_steps, looping, ctx)

        node = graph.nodes[name]
        runtime = Runtime._for_node(self, frame, name)
        attempts = 0

        async def attempt() -> AgentContext[Any]:
            nonlocal attempts
            attempts += 1
            started = perf_counter()
            try:
                result = await node.run(ctx, runtime)
                if not isinstance(result, AgentContext):
                    raise TypeError(f"node {name!r} returned {type(result).__name__}, not an AgentContext")
            except (Exception, asyncio.CancelledError) as exc:
                await self._report(frame, name, started, exc, attempts)
                raise
            # Recorded before the report is awaited, so a cancellation that lands
            # during the report still keeps this node's result.
            frame.context = result
            await self._report(frame, name, started, None, attempts)
            return result

        try:
            return await _policy(graph.retries.get(name, NO_RETRY)).run(attempt)
        except GraphCancelled:
            raise
        except asyncio.CancelledError as exc:
            raise GraphCancelled(graph.name, name, frame.context) from exc
        except GraphError:
            # Raised inside a subgraph, which already named the failing node.
            raise
        except Exception as exc:
            raise NodeError(graph.name, name, ctx, exc, attempts) from exc

    async def _report(
        self, frame: _Frame, name: str, started: float, error: BaseException | None, attempt: int
    ) -> None:
        step = Step(
            index=self.finished,
            depth=frame.depth,
            graph=frame.graph.name,
            node=name,
            duration=perf_counter() - started,
            error=error,
            attempt=attempt,
        )
        self.finished += 1
        await self.publish(self.step_sinks, step)

    async def publish(self, sinks: list[Callable[[Any], Awaitable[None] | None]], item: object) -> None:
        for sink in sinks:
            outcome = sink(item)
            # Most sinks are plain functions (a queue's put_nowait); skip the awaitable check for them.
            if outcome is not None and inspect.isawaitable(outcome):
                await outcome


def _policy(policy: RetryPolicy) -> RetryPolicy:
    # Past max_steps every further step fails the same way; never retry it.
    return dataclasses.replace(
        policy, retry_on=lambda exc: not isinstance(exc, MaxStepsExceeded) and policy.retry_on(exc)
    )


def _find_loop(frame: _Frame | None) -> tuple[str, list[str]]:
    """The innermost graph level whose recent nodes repeat, and that repeating stretch."""
    innermost = frame.graph.name if frame is not None else ""
    while frame is not None:
        trace = frame.trace
        last = trace[-1]
        previous = [i for i, name in enumerate(trace[:-1]) if name == last]
        if previous:
            cycle = trace[previous[-1] + 1 :]
            return frame.graph.name, list(dict.fromkeys(cycle))
        frame = frame.parent
    return innermost, []


class _Done:
    """Marks the end of a run in a ``GraphRun`` queue."""


class GraphRun(AsyncIterator[RunEvent]):
    """A run in progress, iterated for its steps and emitted events."""

    def __init__(self, runner: Runner, graph: Graph, ctx: AgentContext[Any], services: Any) -> None:
        self._runner = runner
        self._graph = graph
        self._initial = ctx
        self._services = services
        self._queue: asyncio.Queue[RunEvent | _Done] = asyncio.Queue()
        self._task: asyncio.Task[AgentContext[Any]] | None = None
        self._result: AgentContext[Any] | None = None
        self._over = False

    @property
    def context(self) -> AgentContext[Any]:
        """The final context; only after the iteration ended without an error."""
        if self._result is None:
            raise RuntimeError("the run has not finished successfully")
        return self._result

    def __aiter__(self) -> GraphRun:
        return self

    async def __anext__(self) -> RunEvent:
        if self._over:
            raise StopAsyncIteration
        task = self._task or self._launch()
        try:
            item = await self._queue.get()
        except asyncio.CancelledError as cancelled:
            # The consumer was cancelled: stop the graph too and pass on what it had.
            stopped = await self._cancel()
            raise (stopped or cancelled) from None
        if isinstance(item, _Done):
            self._over = True
            self._result = task.result()
            raise StopAsyncIteration
        return item

    async def aclose(self) -> None:
        """Cancel the run if it is still going; its items and errors are discarded."""
        await self._cancel()

    async def __aenter__(self) -> GraphRun:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    def _launch(self) -> asyncio.Task[AgentContext[Any]]:
        queue = self._queue
        run = self._runner._start(self._services, [queue.put_nowait], [queue.put_nowait])
        task = asyncio.ensure_future(run.execute(self._graph, self._initial, depth=0, parent=None))
        task.add_done_callback(_finish(queue))
        self._task = task
        return task

    async def _cancel(self) -> GraphCancelled | None:
        self._over = True
        task = self._task
        if task is None or task.done():
            return None
        task.cancel()
        try:
            await task
        except GraphCancelled as stopped:
            return stopped
        except (Exception, asyncio.CancelledError):
            return None
        return None


def _finish(queue: asyncio.Queue[RunEvent | _Done]) -> Callable[[asyncio.Task[Any]], None]:
    def done(task: asyncio.Task[Any]) -> None:
        if not task.cancelled():
            # Mark the error as retrieved; __anext__ re-raises it via result().
            task.exception()
        queue.put_nowait(_Done())

    return done

"""One turn of the agent: prepare its services, run the graph, hand on ``AgentEvent``s.

The entry point is ``run_turn(turn, on_event)`` with a ``TurnInput``: the turn
runs through the agent graph (``chat/agent/graph.py``, built once per process)
in the calling task, and each event goes to ``on_event`` as it happens. The
router picks the intent, its subgraph answers. ``stream_turn`` offers the same
events as an iterator, for callers that read a turn in a loop of their own.

The graph's own steps become ``step`` events (node, depth, duration, and the
detail a node noted); what nodes emit (intent, text deltas, tool calls
starting and finished, citations, safety verdicts) passes straight through.
The turn ends with ``usage`` (and ``structured`` after structured answers),
then ``done`` or ``error``. Cancelling the calling task cancels the graph
(``GraphCancelled``), and the provider's stream closes at once; the text
already handed on stays with the caller.

The history in ``TurnInput`` is used as given: the chat's conversation manager
has already fitted it to the window.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404

from database_pool import in_database_pool
from chat import user_errors
from chat.agent.config import AgentConfig
from chat.agent.events import AgentEvent
from chat.agent.graph import StepNote, agent_graph
from chat.agent.tools import ProjectToolbox
from chat.agent.turn import TurnServices, UsageMeter
from llm import audit
from llm.graph import AgentContext, Emitted, GraphError, NodeError, Runner, Step
from llm.providers.base import Provider
from llm.registry import get_provider
from llm.retry import LLMError
from llm.types import Message
from rag.services import get_repository_for_user

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnInput:
    session_id: int
    user_id: int
    repository_id: int | None
    text: str
    # The dialog before this message, oldest first, already fitted to the window.
    history: tuple[Message, ...]
    # Links the LLM calls of this turn to the answer in the audit (``llm.audit.correlation``).
    correlation_id: str
    # The room left for the answer in the model's window (the conversation manager's answer reserve).
    max_answer_tokens: int | None = None


@dataclass(frozen=True)
class Prepared:
    services: TurnServices
    context: AgentContext[str]


@dataclass(frozen=True)
class _Project:
    """The chat's repository as the turn sees it."""

    visible: bool = False
    name: str = ""
    toolbox: ProjectToolbox | None = None


def _project(turn: TurnInput, config: AgentConfig, provider: Provider) -> _Project:
    """The project tools over the chat's repository, when the user may see it and it has an index."""
    if turn.repository_id is None:
        return _Project()
    user = get_user_model().objects.filter(pk=turn.user_id).first()
    try:
        repository = get_repository_for_user(user, turn.repository_id)
    except Http404:
        return _Project()
    if repository.active_run_id is None:
        return _Project(visible=True, name=repository.name)
    toolbox = ProjectToolbox(repository, config, window_tokens=provider.context_window("main"))
    return _Project(visible=True, name=repository.name, toolbox=toolbox)


def prepare_turn(turn: TurnInput, provider: Provider | None = None) -> Prepared:
    """The services and the first context of a turn (reads the database when the chat has a repository)."""
    provider = provider or get_provider()
    config = AgentConfig.from_settings()
    project = _project(turn, config, provider)
    services = TurnServices(
        provider=provider,
        config=config,
        toolbox=project.toolbox,
        repository_name=project.name,
        usage=UsageMeter(model=provider.model_for("main")),
        max_answer_tokens=turn.max_answer_tokens,
    )
    context: AgentContext[str] = AgentContext(
        input=turn.text,
        history=tuple(turn.history),
        state={"has_repository": project.visible, "index_ready": project.toolbox is not None},
    )
    return Prepared(services=services, context=context)


def _step_event(step: Step, note: StepNote | None) -> AgentEvent:
    detail: dict[str, Any] = {"graph": step.graph}
    if note is not None:
        detail.update(note.detail)
    if step.error is not None:
        # Shown in the trace: the kind of failure only; the message is in the logs and the audit.
        detail["error"] = type(step.error).__name__
        detail["attempt"] = step.attempt
    return AgentEvent(type="step", node=step.node, depth=step.depth, duration_ms=step.duration * 1000, detail=detail)


def _user_error(exc: BaseException) -> str:
    cause = exc.error if isinstance(exc, NodeError) else exc
    if isinstance(cause, LLMError):
        return user_errors.for_provider_error(cause)
    return user_errors.INTERNAL_ERROR


def _closing_events(services: TurnServices) -> list[AgentEvent]:
    """What the turn gathered for the record: its usage, and its structured answers when there were any."""
    events = [AgentEvent(type="usage", detail=services.usage.as_detail())]
    if services.verdicts.calls:
        events.append(AgentEvent(type="structured", detail=services.verdicts.as_detail()))
    return events


EventSink = Callable[[AgentEvent], Awaitable[None]]


async def run_turn(turn: TurnInput, on_event: EventSink, *, provider: Provider | None = None) -> None:
    """Run one turn through the agent graph in the calling task, handing each event to ``on_event`` as it happens.

    Cancel the calling task to stop the turn early.
    """
    if turn.repository_id is None:
        # Nothing to read from the database: no hop to a thread of the database pool.
        prepared = prepare_turn(turn, provider)
    else:
        prepared = await in_database_pool(prepare_turn)(turn, provider)
    services = prepared.services
    notes: dict[tuple[str, str, int], StepNote] = {}

    async def emitted(item: Emitted) -> None:
        event = item.event
        if isinstance(event, AgentEvent):
            await on_event(event)
        elif isinstance(event, StepNote):
            notes[(item.graph, item.node, item.depth)] = event

    async def finished(step: Step) -> None:
        await on_event(_step_event(step, notes.pop((step.graph, step.node, step.depth), None)))

    # Every model call of the turn is linked to the answer in the audit.
    token = audit.correlation.set(turn.correlation_id)
    try:
        try:
            await Runner(on_step=finished, on_emit=emitted).run(agent_graph(), prepared.context, services=services)
        except (GraphError, LLMError) as exc:
            cause = exc.error if isinstance(exc, NodeError) else exc
            # A provider failure is expected and already audited; anything else is a bug worth a traceback.
            logger.warning("turn %s stopped: %s", turn.correlation_id, exc, exc_info=not isinstance(cause, LLMError))
            for event in _closing_events(services):
                await on_event(event)
            await on_event(AgentEvent(type="error", text=_user_error(exc)))
            return
        for event in _closing_events(services):
            await on_event(event)
        await on_event(AgentEvent(type="done"))
    finally:
        audit.correlation.reset(token)


async def stream_turn(turn: TurnInput, *, provider: Provider | None = None) -> AsyncIterator[AgentEvent]:
    """``run_turn``'s events as an iterator; the turn runs in a task of its own. Close the iterator
    (``aclosing``) or cancel the task reading it to stop the turn early."""
    events: asyncio.Queue[AgentEvent | None] = asyncio.Queue()

    async def put(event: AgentEvent) -> None:
        events.put_nowait(event)

    task = asyncio.create_task(run_turn(turn, put, provider=provider))
    task.add_done_callback(lambda _: events.put_nowait(None))
    try:
        while (event := await events.get()) is not None:
            yield event
        # A turn that failed outside the graph (preparing its services) raises here.
        task.result()
    finally:
        if not task.done():
            task.cancel()
            await asyncio.wait({task})

"""One turn of the agent: prepare its services, run the graph, stream ``AgentEvent``s.

The entry point is ``stream_turn(turn)`` with a ``TurnInput``. The turn runs
through the agent graph (``chat/agent/graph.py``): the router picks the intent,
its subgraph answers.

The graph's own steps become ``step`` events (node, depth, duration, and the
detail a node noted); what nodes emit (intent, text deltas, tool steps,
citations, safety verdicts) passes straight through. The turn ends with
``usage`` (and ``structured`` after structured answers), then ``done`` or
``error``. Cancelling the consumer of the stream cancels the
graph (``GraphCancelled``), and the provider's stream closes at once; the
text already streamed stays with the caller.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.http import Http404

from database_pool import in_database_pool
from chat import user_errors
from chat.agent.config import AgentConfig
from chat.agent.events import AgentEvent
from chat.agent.graph import StepNote, build_agent_graph
from chat.agent.tools import ProjectToolbox
from chat.agent.turn import TurnServices, UsageMeter
from llm import audit
from llm.graph import AgentContext, Emitted, GraphError, NodeError, Runner, Step
from llm.providers.base import Provider
from llm.registry import get_provider
from llm.retry import LLMError
from llm.tokens import estimate_message_tokens
from llm.types import Message
from rag.services import get_repository_for_user

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class TurnInput:
    session_id: int
    user_id: int
    repository_id: int | None
    text: str
    # Recent messages before this one, oldest first.
    history: tuple[Message, ...]
    # Links the LLM calls of this turn to the answer in the audit (``llm.audit.correlation``).
    correlation_id: str
    # The room left for the answer in the model's window (the conversation manager's answer reserve).
    max_answer_tokens: int | None = None


@dataclass(frozen=True)
class Prepared:
    services: TurnServices
    context: AgentContext[str]


def fitting_history(history: tuple[Message, ...], budget_tokens: int) -> tuple[Message, ...]:
    """The most recent messages of ``history`` whose estimated size fits ``budget_tokens``."""
    kept: list[Message] = []
    used = 0
    for message in reversed(history):
        size = estimate_message_tokens((message,))
        if used + size > budget_tokens:
            break
        kept.append(message)
        used += size
    return tuple(reversed(kept))


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
    history = fitting_history(tuple(turn.history), int(provider.context_window("main") * config.history_share))
    context: AgentContext[str] = AgentContext(
        input=turn.text,
        history=history,
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


async def stream_turn(turn: TurnInput, *, provider: Provider | None = None) -> AsyncIterator[AgentEvent]:
    """Run one turn through the agent graph and stream what happens.

    Close the iterator (``aclosing``) to stop the turn early.
    """
    if turn.repository_id is None:
        # Nothing to read from the database: no hop to a thread of the database pool.
        prepared = prepare_turn(turn, provider)
    else:
        prepared = await in_database_pool(prepare_turn)(turn, provider)
    services = prepared.services
    notes: dict[tuple[str, str, int], StepNote] = {}
    # Set before the run starts: the graph's task copies this context, so
    # every model call of the turn is linked to the answer in the audit.
    token = audit.correlation.set(turn.correlation_id)
    try:
        run = Runner().iter(build_agent_graph(), prepared.context, services=services)
        try:
            async for item in run:
                if isinstance(item, Step):
                    yield _step_event(item, notes.pop((item.graph, item.node, item.depth), None))
                elif isinstance(item, Emitted):
                    if isinstance(item.event, StepNote):
                        notes[(item.graph, item.node, item.depth)] = item.event
                    elif isinstance(item.event, AgentEvent):
                        yield item.event
        except (GraphError, LLMError) as exc:
            cause = exc.error if isinstance(exc, NodeError) else exc
            # A provider failure is expected and already audited; anything else is a bug worth a traceback.
            logger.warning("turn %s stopped: %s", turn.correlation_id, exc, exc_info=not isinstance(cause, LLMError))
            for event in _closing_events(services):
                yield event
            yield AgentEvent(type="error", text=_user_error(exc))
            return
        finally:
            await run.aclose()
        for event in _closing_events(services):
            yield event
        yield AgentEvent(type="done")
    finally:
        audit.correlation.reset(token)

"""The entry point of one agent turn: ``run_turn(turn)`` streams ``AgentEvent``s.

This version answers every turn as ``general`` with one streamed call to the
active provider; the routed graph of the agent replaces the body, keeping the
signature and the events.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from dataclasses import dataclass

from chat import user_errors
from chat.agent.events import AgentEvent
from llm import audit
from llm.registry import get_provider
from llm.types import ChatRequest, Message

GENERAL_SYSTEM_PROMPT = (
    "You are a helpful assistant for software engineers. Answer clearly and concisely in Markdown; "
    "put code in fenced code blocks with a language."
)


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


async def run_turn(turn: TurnInput) -> AsyncIterator[AgentEvent]:
    provider = get_provider()
    yield AgentEvent(type="intent", intent="general")
    request = ChatRequest(
        messages=(Message(role="system", content=GENERAL_SYSTEM_PROMPT), *turn.history, Message(role="user", content=turn.text)),
        prompt_name="general_answer",
    )
    started = time.monotonic()
    token = audit.correlation.set(turn.correlation_id)
    try:
        async for event in provider.stream(request):
            if event.type == "text":
                yield AgentEvent(type="text", text=event.text)
            elif event.type == "usage" and event.usage is not None:
                yield AgentEvent(
                    type="usage",
                    detail={"tokens_in": event.usage.prompt_tokens, "tokens_out": event.usage.completion_tokens},
                )
            elif event.type == "done":
                duration = (time.monotonic() - started) * 1000
                yield AgentEvent(type="step", node="general_answer", duration_ms=duration, detail={"model": event.model or ""})
                yield AgentEvent(type="usage", detail={"model": event.model or provider.model_for("main")})
                yield AgentEvent(type="done")
                return
            elif event.type == "error":
                yield AgentEvent(type="error", text=user_errors.for_provider_error(event.error))
                return
    finally:
        audit.correlation.reset(token)

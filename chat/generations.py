"""Writing one answer: one asyncio task per question, not tied to any socket.

The task asks the chat's conversation manager for the turn's context
(``prepare``: the dialog fitted to the window), runs the agent in itself
(``chat.agent.agent.run_turn``) and turns each of the agent's events into at
most one frame for the chat's pages (``chat.streams``); at the end the manager
records the answer as the user saw it (``record``) and the answer's final
state is stored. A run outlives the browser tab that started it; Stop or a
newer question cancels its task, keeping what was written.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from chat import frames, services, user_errors
from chat.agent.agent import EventSink, TurnInput, run_turn
from chat.agent.citing import Span, used_citations
from chat.agent.events import AgentEvent
from chat.answer_stream import StreamedMarkdown
from chat.conversations import CONVERSATIONS
from chat.models import Message
from chat.presentation import WRITING, activity, step_context, tool_activity
from chat.streams import REGISTRY, Frame
from database_pool import in_database_pool
from llm import audit
from llm.conversation.manager import ConversationManager
from llm.providers.base import stream_pace

log = logging.getLogger(__name__)


@dataclass
class Generation:
    """One answer being written and what it has gathered so far.

    ``seq`` counts text deltas, so a page joining mid-stream can drop the
    deltas already contained in its snapshot.
    """

    session_id: int
    user_id: int
    message_id: int
    repository_id: int | None
    # The question this answers, and how many messages of the dialog were stored before it.
    question_id: int = 0
    dialog_length: int = 0
    started: float = field(default_factory=time.monotonic)
    first_token_at: float | None = None
    parts: list[str] = field(default_factory=list)
    # The text's size in UTF-8 bytes (what the conversation manager counts the answer's tokens by).
    text_bytes: int = 0
    seq: int = 0
    stored_length: int = 0
    stored_at: float = field(default_factory=time.monotonic)
    intent: str = ""
    steps: list[dict[str, Any]] = field(default_factory=list)
    citations: list[dict[str, Any]] = field(default_factory=list)
    # The code spans the agent has seen: what a stopped answer's text is cited against.
    seen: list[Span] = field(default_factory=list)
    artifacts: list[dict[str, Any]] = field(default_factory=list)
    usage: dict[str, Any] = field(default_factory=dict)
    # The conversation manager's figures of the turn (context handovers, summary cache).
    conversation: dict[str, Any] = field(default_factory=dict)
    # Structured answers: the safety verdict, and the record kept for staff (never shown on the page).
    is_safe: bool | None = None
    structured: dict[str, Any] = field(default_factory=dict)
    status: str = Message.Status.COMPLETE
    error: str = ""
    # Why the answer was stopped when the user did not press Stop; shown in it if it ends stopped.
    stop_note: str = ""
    # The text's Markdown blocks as they finish (rendered into the pages while the answer streams).
    stream: StreamedMarkdown = field(default_factory=StreamedMarkdown)
    # The live status line: what the agent is doing.
    activity: str = ""
    task: asyncio.Task | None = None

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def snapshot(self) -> Frame:
        return Frame(frames.snapshot(self.message_id, self.text, self.activity), self.message_id)

    def append(self, delta: str) -> int:
        if self.first_token_at is None:
            self.first_token_at = time.monotonic()
        self.parts.append(delta)
        self.text_bytes += len(delta.encode("utf-8"))
        self.seq += 1
        return self.seq

    def metrics(self) -> dict[str, Any]:
        return {
            "ttft_ms": None if self.first_token_at is None else round((self.first_token_at - self.started) * 1000),
            "latency_ms": round((time.monotonic() - self.started) * 1000),
            "tokens_in": self.usage.get("tokens_in"),
            "tokens_out": self.usage.get("tokens_out"),
            **({"tokens_thinking": self.usage["tokens_thinking"]} if self.usage.get("tokens_thinking") else {}),
            "model": self.usage.get("model", ""),
            **({"conversation": self.conversation} if self.conversation else {}),
            **({"structured": self.structured} if self.structured else {}),
        }


def start_answer(generation: Generation, turn: TurnInput) -> Generation:
    """Start writing the answer in a task of its own; the registry knows it as the chat's running answer."""
    generation.task = asyncio.get_running_loop().create_task(_write(generation, turn))
    REGISTRY.add(generation)
    return generation


async def _broadcast(generation: Generation, html: str) -> None:
    await REGISTRY.broadcast(generation.session_id, Frame(html, generation.message_id))


def _step_record(event: AgentEvent, started: float) -> dict[str, Any]:
    """A finished step, with when it started (ms after the answer began): steps finish inside-out, a
    tool call before the step that made it, so the trace and admin list them by their start.

    Timed from when the event was made, as the step finished, not from when it is handled here:
    the answer's task may handle a step later than the tool call the step made (a busy loop)."""
    start_ms = max(0.0, (event.at - started) * 1000 - event.duration_ms)
    return {
        "node": event.node, "depth": event.depth, "start_ms": round(start_ms, 1), "duration_ms": event.duration_ms,
        "detail": dict(event.detail),
    }


def _step_dom_id(message_id: int, index: int) -> str:
    return f"msg-{message_id}-step-{index}"


def _add_step(generation: Generation, record: dict[str, Any]) -> str:
    """Keep the finished step; the element of the step shown after it on the page, or "" when it goes last.

    The page lists steps by their start, as the stored trace does (``presentation``): a step that
    starts with its parent (within the rounding) follows it, being deeper.
    """
    key = (record["start_ms"], record["depth"])
    later = [
        ((step["start_ms"], step["depth"]), index)
        for index, step in enumerate(generation.steps)
        if (step["start_ms"], step["depth"]) > key
    ]
    generation.steps.append(record)
    return _step_dom_id(generation.message_id, min(later)[1]) if later else ""


def _events_of(generation: Generation, manager: ConversationManager) -> EventSink:
    """What the answer does with each of the agent's events: at most one frame each."""
    message_id = generation.message_id

    async def text(delta: str) -> None:
        first = generation.first_token_at is None
        seq = generation.append(delta)
        html = frames.token(message_id, delta)
        # Only a delta with a newline can finish a Markdown block; the others cost a list append here.
        if fed := generation.stream.feed(delta):
            html += frames.blocks(message_id, fed, generation.stream)
        # The line says so at the first delta, and again when text follows a tool call.
        if first or generation.activity is not WRITING:
            generation.activity = WRITING
            html += frames.status(message_id, WRITING)
        manager.streaming(generation.text_bytes)
        await REGISTRY.broadcast(generation.session_id, Frame(html, message_id, seq))

    async def handle(event: AgentEvent) -> None:
        kind = event.type
        if kind == "text":
            if event.text:
                await text(event.text)
        elif kind == "tool":
            detail = event.detail
            generation.activity = tool_activity(detail.get("tool", ""), detail.get("arguments"), running=True) or (
                "Working with the code…"
            )
            await _broadcast(generation, frames.status(message_id, generation.activity))
        elif kind == "step":
            record = _step_record(event, generation.started)
            before = _add_step(generation, record)
            # A finished tool call says what it did, until the answer's text goes on; other steps leave the line.
            said = activity(step=record) if record["detail"].get("tool") and generation.activity is not WRITING else ""
            generation.activity = said or generation.activity
            shown = {**step_context(record), "dom_id": _step_dom_id(message_id, len(generation.steps) - 1)}
            await _broadcast(generation, frames.step(message_id, step=shown, status=said, before=before))
        elif kind == "intent":
            generation.intent = event.intent or ""
            generation.activity = activity(intent=generation.intent, writing=generation.first_token_at is not None)
            await _broadcast(generation, frames.step(message_id, intent=generation.intent, status=generation.activity))
        elif kind == "citations":
            generation.citations = [asdict(citation) for citation in event.citations]
        elif kind == "sources":
            generation.seen.extend(Span(**asdict(citation)) for citation in event.citations)
        elif kind == "artifact":
            generation.artifacts.append(dict(event.detail))
        elif kind == "usage":
            generation.usage.update(event.detail)
        elif kind == "verdict":
            generation.is_safe = event.detail.get("is_safe")
            await _broadcast(generation, frames.verdict(message_id, generation.is_safe))
        elif kind == "structured":
            generation.structured = dict(event.detail)
        elif kind == "error":
            generation.status, generation.error = Message.Status.ERROR, event.text or user_errors.INTERNAL_ERROR

    return handle


async def _answer(generation: Generation, turn: TurnInput) -> None:
    """Prepare the turn's context, run the agent on it, and record the answer the user saw."""
    async with CONVERSATIONS.turn(generation.session_id, generation.question_id, generation.dialog_length) as manager:
        prepared = await manager.prepare(turn.text)
        fitted = replace(turn, history=prepared.history, max_answer_tokens=prepared.model_params.get("max_tokens"))
        outcome = "aborted"
        try:
            await run_turn(fitted, _events_of(generation, manager))
            outcome = "error" if generation.status == Message.Status.ERROR else "ok"
        except Exception:
            outcome = "error"
            raise
        finally:
            figures = manager.record(prepared, generation.text, outcome=outcome, first_chunk_at=generation.first_token_at)
            generation.conversation = figures.as_dict()


async def _write(generation: Generation, turn: TurnInput) -> None:
    # The model's text is read at the pace the chat's pages get their messages: the tokens
    # that come in between are read and framed together (calls read whole are not paced).
    stream_pace.set(REGISTRY.frame_interval)
    try:
        REGISTRY.writing(generation.session_id)
        # The turn's model calls are audited without waiting for their rows; all are stored
        # before the answer's final state is.
        async with audit.stored_in_background():
            await _answer(generation, turn)
    except asyncio.CancelledError:
        # Stop, a newer question, or shutdown: keep what was written. The
        # cancellation is consumed here so the final state below is stored.
        generation.status = Message.Status.CANCELLED
    except Exception:
        log.exception("answer %s failed", generation.message_id)
        generation.status, generation.error = Message.Status.ERROR, user_errors.INTERNAL_ERROR
    if generation.status == Message.Status.CANCELLED:
        generation.error = generation.error or generation.stop_note
        if not generation.citations:
            # Stopped before the agent cited its answer: the text so far keeps its links and sources.
            generation.citations = [asdict(c) for c in used_citations(generation.text, generation.seen)]
    try:
        await _store_final_state(generation)
    finally:
        REGISTRY.finished(generation)
        await REGISTRY.written(generation.session_id)


# Delays between attempts to store an answer's final state while the database fails.
FINAL_STORE_RETRY_SECONDS = (0.5, 1.0, 2.0, 4.0, 8.0)


async def _store_final_state(generation: Generation) -> None:
    store = in_database_pool(services.finish_answer)
    for delay in (*FINAL_STORE_RETRY_SECONDS, None):
        try:
            message = await store(
                generation.message_id,
                status=generation.status,
                content=generation.text,
                intent=generation.intent,
                metrics=generation.metrics(),
                citations=generation.citations,
                steps=generation.steps,
                artifacts=generation.artifacts,
                error=generation.error,
                is_safe=generation.is_safe,
            )
            break
        except Exception:
            if delay is None:
                raise
            log.exception("storing the final state of answer %s failed; trying again in %s s", generation.message_id, delay)
            await asyncio.sleep(delay)
    if message is None:
        return
    if generation.error and generation.status == Message.Status.ERROR:
        await _broadcast(generation, frames.error(generation.error, message_id=generation.message_id))
    await _broadcast(generation, frames.done(message, generation.repository_id))

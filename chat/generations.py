"""Running answers: one asyncio task per answer, not tied to any socket.

A run outlives the browser tab that started it. Its frames go to every open
page of the chat: pages served by this process listen on an in-process queue
(no copy, no scan of all channels per frame, never dropped); pages served by
other processes get them through the channel group when the channel layer is
shared (Redis). The registry stores the text of all running answers at least
every ``CHAT["FLUSH_SECONDS"]``.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
import weakref
from collections.abc import AsyncIterator
from contextlib import aclosing
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from channels.layers import InMemoryChannelLayer, get_channel_layer
from django.conf import settings

from database_pool import in_database_pool
from chat import frames, services, user_errors
from chat.agent.citing import Span, used_citations
from chat.answer_stream import StreamedMarkdown
from chat.agent.events import AgentEvent
from chat.agent.agent import TurnInput, stream_turn
from chat.conversations import CONVERSATIONS
from chat.models import Message
from chat.presentation import WRITING, activity, step_context
from llm import audit
from llm.conversation.manager import PreparedTurn, TurnChunk, TurnRunner

log = logging.getLogger(__name__)


# Tags frames sent through a shared channel layer, so this process's own pages
# (which got them from their queue) skip them.
PROCESS_ID = uuid.uuid4().hex


@dataclass(frozen=True)
class Frame:
    html: str
    # For text deltas: the answer and the delta's sequence number.
    message_id: int = 0
    seq: int = 0


def shares_frames_across_processes() -> bool:
    """True with a channel layer other processes read (Redis); the in-memory layer is this process alone."""
    layer = get_channel_layer()
    return layer is not None and not isinstance(layer, InMemoryChannelLayer)


def group_name(session_id: int) -> str:
    return f"chat.session.{session_id}"


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
    # The live status line: what the agent did last.
    activity: str = ""
    task: asyncio.Task | None = None

    @property
    def text(self) -> str:
        return "".join(self.parts)

    def append(self, delta: str) -> int:
        if self.first_token_at is None:
            self.first_token_at = time.monotonic()
        self.parts.append(delta)
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


class GenerationRegistry:
    def __init__(self) -> None:
        self._by_session: dict[int, Generation] = {}
        self._storer: asyncio.Task | None = None
        self._listeners: dict[int, set[asyncio.Queue[Frame]]] = {}
        # Serializes "cancel the old run, start the new one" per session across
        # tabs; a lock lives while someone holds or waits for it.
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    def lock(self, session_id: int) -> asyncio.Lock:
        lock = self._locks.get(session_id)
        if lock is None:
            lock = self._locks[session_id] = asyncio.Lock()
        return lock

    def listen(self, session_id: int) -> asyncio.Queue[Frame]:
        """A queue that receives every frame of the chat from now on."""
        queue: asyncio.Queue[Frame] = asyncio.Queue()
        self._listeners.setdefault(session_id, set()).add(queue)
        return queue

    def stop_listening(self, session_id: int, queue: asyncio.Queue[Frame]) -> None:
        listeners = self._listeners.get(session_id)
        if listeners is not None:
            listeners.discard(queue)
            if not listeners:
                del self._listeners[session_id]

    async def broadcast(self, session_id: int, frame: Frame) -> None:
        for queue in self._listeners.get(session_id, ()):
            queue.put_nowait(frame)
        if shares_frames_across_processes():
            message = {"type": "chat.frame", "origin": PROCESS_ID, "html": frame.html}
            await get_channel_layer().group_send(
                group_name(session_id), {**message, "message_id": frame.message_id, "seq": frame.seq}
            )

    def for_session(self, session_id: int) -> Generation | None:
        return self._by_session.get(session_id)

    def count(self) -> int:
        """Answers running in this process."""
        return len(self._by_session)

    def running(self) -> list[Generation]:
        return list(self._by_session.values())

    async def cancel(self, session_id: int, *, reason: str = "") -> None:
        """Stop the session's running answer (if any) and wait until its final state is stored.

        ``reason`` is a note shown in the stopped answer (why it was stopped, when the user did not press Stop).
        """
        generation = self._by_session.get(session_id)
        if generation is None or generation.task is None:
            return
        generation.stop_note = generation.stop_note or reason
        # Cancel once: a second cancel would interrupt the run while it stores its final state.
        if not generation.task.cancelling():
            generation.task.cancel()
        await asyncio.wait([generation.task])

    def start(self, generation: Generation, turn: TurnInput) -> Generation:
        self._by_session[generation.session_id] = generation
        loop = asyncio.get_running_loop()
        generation.task = loop.create_task(_run(generation, turn, self))
        if self._storer is None or self._storer.done() or self._storer.get_loop() is not loop:
            self._storer = loop.create_task(self._store_periodically())
        return generation

    async def _store_periodically(self) -> None:
        """While answers run: every FLUSH_SECONDS, store the text of every answer
        that grew (or is due a heartbeat) in one statement.

        One statement for all running answers rather than one per answer, so
        the database work of streaming stays flat however many answers run.
        """
        interval = settings.CHAT["FLUSH_SECONDS"]
        heartbeat = services.heartbeat_seconds()
        while self._by_session:
            await asyncio.sleep(interval)
            now = time.monotonic()
            due = [
                (generation, generation.text)
                for generation in self.running()
                if len(generation.text) != generation.stored_length
                or now - generation.stored_at >= heartbeat
            ]
            if not due:
                continue
            try:
                await in_database_pool(services.save_partial_answers)(
                    {generation.message_id: text for generation, text in due}
                )
            except Exception:
                # The database is unreachable or the statement failed: the texts stay in
                # memory and the next tick tries again; the final state stores them whole.
                log.exception("storing the text of %d running answers failed; trying again", len(due))
                continue
            for generation, text in due:
                generation.stored_length, generation.stored_at = len(text), now

    def finished(self, generation: Generation) -> None:
        if self._by_session.get(generation.session_id) is generation:
            del self._by_session[generation.session_id]


REGISTRY = GenerationRegistry()


async def _broadcast(session_id: int, html: str, *, message_id: int = 0, seq: int = 0) -> None:
    await REGISTRY.broadcast(session_id, Frame(html, message_id, seq))


def _step_record(event, started: float) -> dict[str, Any]:
    """A finished step, with when it started (ms after the answer began): steps finish inside-out, a
    tool call before the step that made it, so the trace and admin list them by their start."""
    start_ms = max(0.0, (time.monotonic() - started) * 1000 - event.duration_ms)
    return {
        "node": event.node, "depth": event.depth, "start_ms": round(start_ms, 1), "duration_ms": event.duration_ms,
        "detail": dict(event.detail),
    }


async def _append_text(generation: Generation, text: str) -> None:
    first = generation.first_token_at is None
    seq = generation.append(text)
    html = frames.token(generation.message_id, text)
    # Only a delta with a newline can finish a Markdown block; the others cost a list append here.
    if fed := generation.stream.feed(text):
        html += frames.blocks(generation.message_id, fed, generation.stream)
    if first:
        generation.activity = WRITING
        html += frames.status(generation.message_id, WRITING)
    await REGISTRY.broadcast(generation.session_id, Frame(html, generation.message_id, seq))


async def _handle(generation: Generation, event: AgentEvent) -> None:
    """Apply one event of the turn."""
    if event.type == "text" and event.text:
        await _append_text(generation, event.text)
    elif event.type == "intent":
        generation.intent = event.intent or ""
        generation.activity = activity(intent=generation.intent, writing=generation.first_token_at is not None)
        await _broadcast(
            generation.session_id, frames.step(generation.message_id, intent=generation.intent, status=generation.activity)
        )
    elif event.type == "step":
        record = _step_record(event, generation.started)
        generation.steps.append(record)
        # A tool call says what it did; other steps leave the line as it is.
        said = activity(step=record) if record["detail"].get("tool") and generation.first_token_at is None else ""
        generation.activity = said or generation.activity
        await _broadcast(
            generation.session_id, frames.step(generation.message_id, step=step_context(record), status=said)
        )
    elif event.type == "citations":
        generation.citations = [asdict(citation) for citation in event.citations]
    elif event.type == "sources":
        generation.seen.extend(Span(**asdict(citation)) for citation in event.citations)
    elif event.type == "artifact":
        generation.artifacts.append(dict(event.detail))
    elif event.type == "usage":
        generation.usage.update(event.detail)
    elif event.type == "verdict":
        generation.is_safe = event.detail.get("is_safe")
        await _broadcast(generation.session_id, frames.verdict(generation.message_id, generation.is_safe))
    elif event.type == "structured":
        generation.structured = dict(event.detail)
    elif event.type == "error":
        generation.status, generation.error = Message.Status.ERROR, event.text or user_errors.INTERNAL_ERROR


def _agent_runner(turn: TurnInput) -> TurnRunner:
    """Runs the agent on the context the conversation manager prepared for the turn."""

    async def run(prepared: PreparedTurn) -> AsyncIterator[AgentEvent]:
        # aclosing: the agent's generator is closed in the manager's task even when the turn stops early.
        fitted = replace(
            turn, text=prepared.text, history=prepared.history, max_answer_tokens=prepared.model_params.get("max_tokens"),
        )
        async with aclosing(stream_turn(fitted)) as events:
            async for event in events:
                yield event

    return run


async def _apply(generation: Generation, chunk: TurnChunk) -> None:
    """Apply one chunk of the conversation manager's stream."""
    if chunk.text:
        # The per-token path: straight to the pages, no event object in between.
        await _append_text(generation, chunk.text)
    if chunk.event is not None:
        # The agent's other events; its "done" is not the end: the final chunk is.
        await _handle(generation, chunk.event)
    if not chunk.is_final:
        return
    if chunk.metrics is not None:
        generation.conversation = chunk.metrics.as_dict()
    if chunk.aborted:
        generation.status = Message.Status.CANCELLED
    elif chunk.error and generation.status != Message.Status.ERROR:
        generation.status, generation.error = Message.Status.ERROR, user_errors.INTERNAL_ERROR


async def _run(generation: Generation, turn: TurnInput, registry: GenerationRegistry) -> None:
    try:
        # aclosing: leaving early (Stop, a newer question) aborts the manager's turn in this task.
        # The turn's model calls are audited without waiting for their rows; all are stored
        # before the answer's final state is.
        async with (
            audit.stored_in_background(),
            CONVERSATIONS.turn(generation.session_id, generation.question_id, generation.dialog_length) as manager,
            aclosing(manager.process_user_turn(turn.text, runner=_agent_runner(turn))) as chunks,
        ):
            async for chunk in chunks:
                await _apply(generation, chunk)
                if chunk.is_final:
                    break
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
        registry.finished(generation)


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
        await _broadcast(generation.session_id, frames.error(generation.error, message_id=generation.message_id))
    await _broadcast(generation.session_id, frames.done(message, generation.repository_id))

"""``ConversationManager``: one per active chat session; turns in, streamed chunks out.

The caller (the chat consumer) owns storage of the messages; the manager owns
the model's view of the dialog. Usage::

    manager = ConversationManager(session_key, history=stored_messages, runner=my_runner)
    async for chunk in manager.process_user_turn(text):
        ...  # chunk.metadata on the first, chunk.text deltas, chunk.is_final + chunk.metrics on the last
    await manager.abort_generation()   # from anywhere: stops the running turn
    await manager.shutdown()           # when the session closes

A turn runs in its own task feeding a queue, so ``abort_generation`` can
cancel it from another coroutine: the cancellation reaches the provider's
stream, which closes the upstream response at once (no more tokens are paid
for). Whatever was shown before the abort stays in the dialog, so the next
turn sees what the user saw.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import aclosing
from dataclasses import asdict, dataclass, field
from typing import Any

from django.conf import settings

from llm import metrics
from llm.conversation import structured
from llm.conversation.context import LLMContext
from llm.conversation.controller import ControllerCounters, DualContextController
from llm.conversation.store import SummaryStore
from llm.conversation.summarizer import Summarizer
from llm.prompts import aget_prompt
from llm.providers.base import Provider
from llm.registry import get_provider
from llm.tokens import BYTES_PER_TOKEN
from llm.types import ChatRequest, Message

logger = logging.getLogger("llm.conversation")

DEFAULTS: dict[str, Any] = {
    "WARMUP_THRESHOLD_RATIO": 0.5,
    "HANDOVER_THRESHOLD_RATIO": 0.9,
    "RECENT_RATIO": 0.15,
    "SUMMARY_RATIO": 0.1,
    "ANSWER_RESERVE_RATIO": 0.1,
    "MAX_ANSWER_TOKENS": 4096,
    "SUMMARY_CACHE_SECONDS": 24 * 3600,
    "STRUCTURED": False,
}


@dataclass(frozen=True)
class ConversationSettings:
    """``settings.LLM["CONVERSATION"]`` over the defaults above."""

    warmup_threshold_ratio: float = 0.5
    handover_threshold_ratio: float = 0.9
    # Share of the window kept verbatim (most recent messages) when a standby context is built.
    recent_ratio: float = 0.15
    # Longest summary, as a share of the window.
    summary_ratio: float = 0.1
    # Room left for the answer in every request (and its max_tokens), as a share of the window, capped.
    answer_reserve_ratio: float = 0.1
    max_answer_tokens: int = 4096
    summary_cache_seconds: float = 24 * 3600
    structured: bool = False

    @classmethod
    def from_settings(cls) -> ConversationSettings:
        values = {**DEFAULTS, **settings.LLM.get("CONVERSATION", {})}
        return cls(**{name.lower(): value for name, value in values.items() if name in DEFAULTS})


@dataclass(frozen=True)
class PreparedTurn:
    """What a turn runner gets: the active context, already inside the model's window."""

    session_key: str
    text: str
    # System prompt (with the response format and the summary), history, and the user's message.
    messages: tuple[Message, ...]
    # The summary (a system message) and the verbatim messages before the user's, for runners
    # that write their own system prompt.
    history: tuple[Message, ...]
    # For the provider request: max_tokens within the window, and the JSON schema in structured mode.
    model_params: Mapping[str, Any]
    structured: bool
    usage_ratio: float


# A turn runner yields answer text as ``str`` or as events with ``type`` and ``text`` (the provider's
# ``StreamEvent``, the agent's events): ``type == "text"`` is answer text, ``type == "error"`` ends
# the turn in error, anything else is passed through to the caller in ``TurnChunk.event``.
TurnRunner = Callable[[PreparedTurn], AsyncIterator[Any]]


def provider_runner(provider: Provider | None = None, *, prompt_name: str = "general_answer") -> TurnRunner:
    """The default runner: one streamed answer from the provider to the prepared messages."""

    async def run(prepared: PreparedTurn) -> AsyncIterator[Any]:
        request = ChatRequest(messages=prepared.messages, model_params=prepared.model_params, prompt_name=prompt_name)
        async with aclosing((provider or get_provider()).stream(request)) as events:
            async for event in events:
                yield event

    return run


@dataclass(frozen=True)
class TurnMetrics:
    """Figures of one turn, for the stored message and for ``/metrics``."""

    ttfc_ms: float | None
    latency_ms: float
    handovers: int
    warmups: int
    summary_cache_hits: int
    summary_cache_misses: int
    context_usage: float
    summarized_messages: int
    trimmed_messages: int
    outcome: str

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class TurnChunk:
    """One piece of a streamed turn.

    ``metadata`` is set on the first chunk only (``is_safe`` in structured mode
    is in it), ``is_final`` on the last, which also carries ``answer`` (the
    whole visible text), ``metrics`` and ``error`` (a short description) when
    the turn failed. ``event`` is a runner event that is not answer text.
    """

    text: str = ""
    metadata: Mapping[str, Any] | None = None
    is_final: bool = False
    event: Any = None
    is_safe: bool | None = None
    answer: str = ""
    aborted: bool = False
    error: str = ""
    metrics: TurnMetrics | None = None
    # Structured mode: the whole parsed object (internal_thought included), for storage, never for display.
    structured: Mapping[str, Any] | None = None


# Queued after a turn's task is done (see ``process_user_turn``).
_TURN_ENDED: Any = TurnChunk(is_final=True, error="the turn ended without a final chunk")


@dataclass
class _Turn:
    text: str
    queue: asyncio.Queue[TurnChunk] = field(default_factory=asyncio.Queue)
    started: float = field(default_factory=time.monotonic)
    first_chunk_at: float | None = None
    first_sent: bool = False
    shown: list[str] = field(default_factory=list)
    shown_bytes: int = 0
    held_events: list[Any] = field(default_factory=list)
    parser: structured.StructuredAnswerParser | None = None
    error: str = ""
    aborted: bool = False
    before: ControllerCounters = field(default_factory=ControllerCounters)
    usage_ratio: float = 0.0

    def show(self, text: str) -> None:
        self.shown.append(text)
        self.shown_bytes += len(text.encode("utf-8"))


class ConversationManager:
    def __init__(
        self,
        session_key: str,
        *,
        history: Sequence[Message] = (),
        runner: TurnRunner | None = None,
        system_prompt: str | None = None,
        structured_mode: bool | None = None,
        provider: Provider | None = None,
        config: ConversationSettings | None = None,
        store: SummaryStore | None = None,
        window: int | None = None,
    ) -> None:
        """``history``: the session's stored messages, oldest first (user and assistant turns).

        ``system_prompt`` None: the ``system`` prompt (files and admin overrides).
        ``window`` None: the main model's context window. A runner that spends part of the
        window on its own material (tools, retrieved code) passes the share it leaves to the
        dialog, so the summary replaces old turns before the runner would have to drop them.
        """
        self.session_key = session_key
        self.config = config or ConversationSettings.from_settings()
        self.provider = provider or get_provider()
        self.runner = runner or provider_runner(self.provider)
        self.structured_mode = self.config.structured if structured_mode is None else structured_mode
        self._history = tuple(history)
        self._system_prompt = system_prompt
        window = window or self.provider.context_window("main")
        self._answer_reserve = min(int(window * self.config.answer_reserve_ratio), self.config.max_answer_tokens)
        self._store = store or SummaryStore(cache_timeout=self.config.summary_cache_seconds)
        self.controller: DualContextController | None = None
        self._window = window
        self._turn_lock = asyncio.Lock()
        self._current: asyncio.Task[None] | None = None
        self._closed = False

    # --- setup ------------------------------------------------------------------------

    async def _ensure_controller(self) -> DualContextController:
        if self.controller is not None:
            return self.controller
        system_prompt = self._system_prompt
        if system_prompt is None:
            system_prompt = (await aget_prompt("system")).text
        context = LLMContext(
            system_prompt=system_prompt,
            window=self._window,
            answer_reserve=self._answer_reserve,
            response_format=structured.FORMAT_INSTRUCTION if self.structured_mode else "",
        )
        controller = DualContextController(
            session_key=self.session_key,
            active=context,
            summarizer=Summarizer(self.provider, max_summary_tokens=max(64, int(self._window * self.config.summary_ratio))),
            store=self._store,
            warmup_threshold_ratio=self.config.warmup_threshold_ratio,
            handover_threshold_ratio=self.config.handover_threshold_ratio,
            recent_ratio=self.config.recent_ratio,
        )
        await controller.restore(self._history)
        self.controller = controller
        return controller

    @property
    def dialog_length(self) -> int:
        """Messages of the dialog this manager knows (stored history plus the turns it ran).

        A caller storing messages elsewhere (another server process) can compare it with its
        own count and open a new manager when they differ.
        """
        return self.controller.active.end if self.controller else len(self._history)

    @property
    def context(self) -> LLMContext | None:
        """The active context (None before the first turn)."""
        return self.controller.active if self.controller else None

    # --- turns ---------------------------------------------------------------------------

    async def process_user_turn(self, text: str, *, runner: TurnRunner | None = None) -> AsyncIterator[TurnChunk]:
        """Stream the answer to ``text``; a turn still running is aborted first.

        The last chunk has ``is_final``. Leaving the loop early (or cancelling
        the task iterating it) aborts the turn like ``abort_generation``.
        """
        if self._closed:
            raise RuntimeError("the conversation manager is shut down")
        await self.abort_generation()
        turn = _Turn(text=text)
        if self.structured_mode:
            turn.parser = structured.StructuredAnswerParser()
        task = asyncio.create_task(self._run_turn(turn, runner or self.runner), name=f"conversation-turn:{self.session_key}")
        # The task's last act is queueing the final chunk; this marker follows it, so a turn that
        # ended without one (cancelled before it started, or a bug) still wakes the loop below.
        # One plain queue read per chunk: no task or wait is created while chunks keep coming.
        task.add_done_callback(lambda _: turn.queue.put_nowait(_TURN_ENDED))
        self._current = task
        try:
            while True:
                chunk = await turn.queue.get()
                if chunk is _TURN_ENDED:
                    task.result()
                    raise RuntimeError("the turn ended without a final chunk")
                yield chunk
                if chunk.is_final:
                    return
        finally:
            if not task.done():
                task.cancel()
                await asyncio.wait({task})

    async def abort_generation(self) -> None:
        """Stop the running turn (if any) and wait until the dialog is consistent again."""
        task = self._current
        if task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task})

    async def shutdown(self) -> None:
        """Abort the running turn, cancel background work and wait for all of it."""
        self._closed = True
        await self.abort_generation()
        if self.controller is not None:
            await self.controller.shutdown()

    async def _run_turn(self, turn: _Turn, runner: TurnRunner) -> None:
        async with self._turn_lock:
            controller: DualContextController | None = None
            try:
                # Counted from zero on the first turn, so a summary found when the session reopens shows up.
                turn.before = self.controller.counters if self.controller else ControllerCounters()
                controller = await self._ensure_controller()
                controller.record(Message(role="user", content=turn.text))
                fitted = await controller.prepare_request()
                turn.usage_ratio = controller.usage_ratio()
                prepared = self._prepared(turn, controller, fitted.messages)
                async with aclosing(runner(prepared)) as events:
                    async for item in events:
                        self._handle(turn, controller, item)
            except asyncio.CancelledError:
                turn.aborted = True
                raise
            except Exception as exc:
                logger.exception("session %s: the turn failed", self.session_key)
                turn.error = turn.error or f"{type(exc).__name__}: {exc}"
            finally:
                self._finish(turn, controller)

    def _prepared(self, turn: _Turn, controller: DualContextController, messages: tuple[Message, ...]) -> PreparedTurn:
        params: dict[str, Any] = {"max_tokens": self._answer_reserve}
        if self.structured_mode:
            params.update(structured.model_params())
        summary = controller.active.summary
        history = ((summary.as_message(),) if summary else ()) + tuple(messages[1:-1])
        return PreparedTurn(
            session_key=self.session_key,
            text=turn.text,
            messages=messages,
            history=history,
            model_params=params,
            structured=self.structured_mode,
            usage_ratio=turn.usage_ratio,
        )

    # --- chunks ------------------------------------------------------------------------------

    def _first_metadata(self, turn: _Turn, is_safe: bool | None) -> dict[str, Any] | None:
        if turn.first_sent:
            return None
        turn.first_sent = True
        return {
            "session_key": self.session_key,
            "structured": self.structured_mode,
            "is_safe": is_safe,
            "context_usage": round(turn.usage_ratio, 4),
        }

    def _emit(self, turn: _Turn, chunk_text: str = "", *, event: Any = None, is_safe: bool | None = None) -> None:
        metadata = self._first_metadata(turn, is_safe)
        if chunk_text and turn.first_chunk_at is None:
            turn.first_chunk_at = time.monotonic()
        turn.queue.put_nowait(TurnChunk(text=chunk_text, metadata=metadata, event=event, is_safe=is_safe))

    def _handle(self, turn: _Turn, controller: DualContextController, item: Any) -> None:
        if isinstance(item, str):
            kind, text = "text", item
        else:
            kind, text = getattr(item, "type", ""), getattr(item, "text", "")
        if kind == "error":
            error = getattr(item, "error", None)
            turn.error = str(error) if error is not None else (text or "the answer failed")
            self._emit_or_hold(turn, item)
            return
        if kind != "text":
            self._emit_or_hold(turn, item)
            return
        if not text:
            return
        if turn.parser is None:
            turn.show(text)
            self._emit(turn, text)
        else:
            update = turn.parser.feed(text)
            self._release_structured(turn, update)
        controller.streaming(math.ceil(turn.shown_bytes / BYTES_PER_TOKEN))

    def _emit_or_hold(self, turn: _Turn, event: Any) -> None:
        # In structured mode the first chunk must carry is_safe: hold events until it is known.
        if turn.parser is not None and not turn.first_sent:
            turn.held_events.append(event)
        else:
            self._emit(turn, event=event, is_safe=turn.parser.is_safe if turn.parser else None)

    def _release_structured(self, turn: _Turn, update: structured.StructuredUpdate) -> None:
        if not update.answer_delta:
            # The verdict alone is not a chunk: it travels with the first piece of the answer.
            return
        first = not turn.first_sent
        self._emit(turn, update.answer_delta, is_safe=update.is_safe)
        turn.show(update.answer_delta)
        if first:
            for event in turn.held_events:
                self._emit(turn, event=event, is_safe=update.is_safe)
            turn.held_events.clear()

    def _finish(self, turn: _Turn, controller: DualContextController | None) -> None:
        """Record what the user saw, publish the figures and send the final chunk (even when cancelled)."""
        if turn.parser is not None and not turn.aborted:
            self._release_structured(turn, turn.parser.finish())
        answer = "".join(turn.shown)
        counters = ControllerCounters()
        if controller is not None:
            if answer:
                controller.record(Message(role="assistant", content=answer))
            if not self._closed:
                controller.maybe_start_warmup()
            counters = controller.counters
        ended = time.monotonic()
        outcome = "aborted" if turn.aborted else "error" if turn.error else "ok"
        turn_metrics = TurnMetrics(
            ttfc_ms=None if turn.first_chunk_at is None else round((turn.first_chunk_at - turn.started) * 1000, 3),
            latency_ms=round((ended - turn.started) * 1000, 3),
            handovers=counters.handovers - turn.before.handovers,
            warmups=counters.warmups - turn.before.warmups,
            summary_cache_hits=counters.cache_hits - turn.before.cache_hits,
            summary_cache_misses=counters.cache_misses - turn.before.cache_misses,
            context_usage=round(controller.usage_ratio(), 4) if controller else 0.0,
            summarized_messages=controller.active.start if controller else 0,
            trimmed_messages=counters.trimmed_messages - turn.before.trimmed_messages,
            outcome=outcome,
        )
        if turn.first_chunk_at is not None:
            metrics.TURN_TIME_TO_FIRST_CHUNK.observe(turn.first_chunk_at - turn.started)
        metrics.TURN_LATENCY.observe(ended - turn.started)
        metrics.TURNS.labels(outcome=outcome).inc()
        parser = turn.parser
        is_safe = parser.is_safe if parser else None
        for event in turn.held_events:
            self._emit(turn, event=event, is_safe=is_safe)
        turn.held_events.clear()
        turn.queue.put_nowait(
            TurnChunk(
                metadata=self._first_metadata(turn, is_safe),
                is_final=True,
                is_safe=is_safe,
                answer=answer,
                aborted=turn.aborted,
                error=turn.error,
                metrics=turn_metrics,
                structured=parser.record() if parser else None,
            )
        )

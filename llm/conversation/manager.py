"""``ConversationManager``: one per active chat session; the model's view of the dialog.

The caller owns storage of the messages; the manager owns what the model sees.
A turn is two calls around the caller's own answering::

    manager = ConversationManager(session_key, history=stored_messages)
    prepared = await manager.prepare(text)      # the user's message recorded, the dialog fitted to the window
    ...                                          # the caller streams its answer (manager.streaming(...) as it grows)
    figures = manager.record(prepared, answer, outcome="ok")   # what the user saw, recorded; the turn's figures

The manager runs no task of its own for a turn: the caller's task answers, and
cancelling it stops the provider's stream at once. ``process_user_turn`` is the
same two calls around a turn runner (the provider by default), streamed as
``TurnChunk``s, for callers with no answering of their own (the dialog
benchmark, the structured mode). Whatever was shown before a turn stopped
stays in the dialog, so the next turn sees what the user saw.
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
    """A turn's context, already inside the model's window: what the answer is written in."""

    session_key: str
    text: str
    # System prompt (with the response format and the summary), history, and the user's message.
    messages: tuple[Message, ...]
    # The summary (a system message) and the verbatim messages before the user's, for callers
    # that write their own system prompt.
    history: tuple[Message, ...]
    # For the provider request: max_tokens within the window, and the JSON schema in structured mode.
    model_params: Mapping[str, Any]
    structured: bool
    usage_ratio: float
    # When the turn began (monotonic), and the controller's counters then (the turn's figures are the difference).
    started: float = 0.0
    counters_before: ControllerCounters = field(default_factory=ControllerCounters)


# A turn runner yields answer text as ``str`` or as events with ``type`` and ``text`` (the provider's
# ``StreamEvent``): ``type == "text"`` is answer text, ``type == "error"`` ends the turn in error,
# anything else is passed through to the caller in ``TurnChunk.event``.
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
    """One piece of a turn streamed by ``process_user_turn``.

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


@dataclass
class _Turn:
    """A turn streamed by ``process_user_turn``: what it has shown and what it still holds back."""

    first_chunk_at: float | None = None
    first_sent: bool = False
    usage_ratio: float = 0.0
    shown: list[str] = field(default_factory=list)
    shown_bytes: int = 0
    figures: TurnMetrics | None = None
    held_events: list[Any] = field(default_factory=list)
    parser: structured.StructuredAnswerParser | None = None
    error: str = ""
    abort_requested: bool = False


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
        ``window`` None: the main model's context window. A caller that spends part of the
        window on its own material (tools, retrieved code) passes the share it leaves to the
        dialog, so the summary replaces old turns before the caller would have to drop them.
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
        # Serializes the turns of process_user_turn; prepare/record callers serialize their own turns.
        self._turn_lock = asyncio.Lock()
        self._current: _Turn | None = None
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
        """Messages of the dialog this manager knows (stored history plus the turns it recorded).

        A caller storing messages elsewhere (another server process) can compare it with its
        own count and open a new manager when they differ.
        """
        return self.controller.active.end if self.controller else len(self._history)

    @property
    def context(self) -> LLMContext | None:
        """The active context (None before the first turn)."""
        return self.controller.active if self.controller else None

    # --- a turn: prepare, stream, record ---------------------------------------------------

    async def prepare(self, text: str) -> PreparedTurn:
        """Record the user's ``text`` and fit the dialog into the window (handing over or trimming if it must)."""
        if self._closed:
            raise RuntimeError("the conversation manager is shut down")
        started = time.monotonic()
        # Counted from zero on the first turn, so a summary found when the session reopens shows up.
        before = self.controller.counters if self.controller else ControllerCounters()
        controller = await self._ensure_controller()
        controller.record(Message(role="user", content=text))
        messages = (await controller.prepare_request()).messages
        params: dict[str, Any] = {"max_tokens": self._answer_reserve}
        if self.structured_mode:
            params.update(structured.model_params())
        summary = controller.active.summary
        return PreparedTurn(
            session_key=self.session_key,
            text=text,
            messages=messages,
            history=((summary.as_message(),) if summary else ()) + tuple(messages[1:-1]),
            model_params=params,
            structured=self.structured_mode,
            usage_ratio=controller.usage_ratio(),
            started=started,
            counters_before=before,
        )

    def streaming(self, answer_bytes: int) -> None:
        """The answer has grown to ``answer_bytes`` (UTF-8): warm up or hand over early if it must."""
        if self.controller is not None:
            self.controller.streaming(math.ceil(answer_bytes / BYTES_PER_TOKEN))

    def record(
        self, prepared: PreparedTurn, answer: str, *, outcome: str, first_chunk_at: float | None = None
    ) -> TurnMetrics:
        """Record what the user saw of the answer (all of it, or the part shown before it stopped) and
        publish the turn's figures; ``outcome`` is ``ok``, ``error`` or ``aborted``."""
        controller = self.controller
        counters = ControllerCounters()
        if controller is not None:
            if answer:
                controller.record(Message(role="assistant", content=answer))
            if not self._closed:
                controller.maybe_start_warmup()
            counters = controller.counters
        before = prepared.counters_before
        ended = time.monotonic()
        figures = TurnMetrics(
            ttfc_ms=None if first_chunk_at is None else round((first_chunk_at - prepared.started) * 1000, 3),
            latency_ms=round((ended - prepared.started) * 1000, 3),
            handovers=counters.handovers - before.handovers,
            warmups=counters.warmups - before.warmups,
            summary_cache_hits=counters.cache_hits - before.cache_hits,
            summary_cache_misses=counters.cache_misses - before.cache_misses,
            context_usage=round(controller.usage_ratio(), 4) if controller else 0.0,
            summarized_messages=controller.active.start if controller else 0,
            trimmed_messages=counters.trimmed_messages - before.trimmed_messages,
            outcome=outcome,
        )
        if first_chunk_at is not None:
            metrics.TURN_TIME_TO_FIRST_CHUNK.observe(first_chunk_at - prepared.started)
        metrics.TURN_LATENCY.observe(ended - prepared.started)
        metrics.TURNS.labels(outcome=outcome).inc()
        return figures

    # --- a turn through a runner, as chunks ----------------------------------------------------

    async def process_user_turn(self, text: str, *, runner: TurnRunner | None = None) -> AsyncIterator[TurnChunk]:
        """Stream the answer to ``text`` from ``runner``; a turn still running is asked to stop first.

        Runs in the task that iterates it. The last chunk has ``is_final``. Leaving the loop
        early (or cancelling the task iterating it) stops the turn; what was shown is recorded.
        """
        if self._closed:
            raise RuntimeError("the conversation manager is shut down")
        await self.abort_generation()
        async with self._turn_lock:
            turn = _Turn(parser=structured.StructuredAnswerParser() if self.structured_mode else None)
            self._current = turn
            prepared: PreparedTurn | None = None
            outcome = "aborted"
            try:
                prepared = await self.prepare(text)
                turn.usage_ratio = prepared.usage_ratio
                async with aclosing((runner or self.runner)(prepared)) as items:
                    async for item in items:
                        for chunk in self._chunks(turn, item):
                            yield chunk
                        if turn.abort_requested:
                            break
                    else:
                        outcome = "error" if turn.error else "ok"
            except Exception as exc:
                logger.exception("session %s: the turn failed", self.session_key)
                turn.error = turn.error or f"{type(exc).__name__}: {exc}"
                outcome = "error"
            finally:
                self._current = None
                if prepared is not None and outcome == "aborted":
                    # Stopped (cancelled, closed, or asked to): what was shown is recorded at once.
                    turn.figures = self.record(
                        prepared, "".join(turn.shown), outcome=outcome, first_chunk_at=turn.first_chunk_at
                    )
            if prepared is None:
                prepared = PreparedTurn(self.session_key, text, (), (), {}, self.structured_mode, 0.0, time.monotonic())
            for chunk in self._final_chunks(turn, prepared, outcome):
                yield chunk

    async def abort_generation(self) -> None:
        """Ask the running turn of ``process_user_turn`` (if any) to stop at its next event; it then
        ends with an aborted final chunk. To stop it at once, cancel the task iterating it."""
        if self._current is not None:
            self._current.abort_requested = True

    async def shutdown(self) -> None:
        """Stop the running turn and cancel background work (a warm-up), waiting for it."""
        self._closed = True
        await self.abort_generation()
        if self.controller is not None:
            await self.controller.shutdown()

    def _chunks(self, turn: _Turn, item: Any) -> list[TurnChunk]:
        if isinstance(item, str):
            kind, text = "text", item
        else:
            kind, text = getattr(item, "type", ""), getattr(item, "text", "")
        if kind == "error":
            error = getattr(item, "error", None)
            turn.error = str(error) if error is not None else (text or "the answer failed")
            return self._event_or_hold(turn, item)
        if kind != "text":
            return self._event_or_hold(turn, item)
        if not text:
            return []
        if turn.parser is None:
            chunks = [self._chunk(turn, text)]
            self._show(turn, text)
        else:
            chunks = self._released(turn, turn.parser.feed(text))
        self.streaming(turn.shown_bytes)
        return chunks

    def _show(self, turn: _Turn, text: str) -> None:
        turn.shown.append(text)
        turn.shown_bytes += len(text.encode("utf-8"))

    def _chunk(self, turn: _Turn, text: str = "", *, event: Any = None, is_safe: bool | None = None) -> TurnChunk:
        metadata = self._first_metadata(turn, is_safe)
        if text and turn.first_chunk_at is None:
            turn.first_chunk_at = time.monotonic()
        return TurnChunk(text=text, metadata=metadata, event=event, is_safe=is_safe)

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

    def _event_or_hold(self, turn: _Turn, event: Any) -> list[TurnChunk]:
        # In structured mode the first chunk must carry is_safe: hold events until it is known.
        if turn.parser is not None and not turn.first_sent:
            turn.held_events.append(event)
            return []
        return [self._chunk(turn, event=event, is_safe=turn.parser.is_safe if turn.parser else None)]

    def _released(self, turn: _Turn, update: structured.StructuredUpdate) -> list[TurnChunk]:
        if not update.answer_delta:
            # The verdict alone is not a chunk: it travels with the first piece of the answer.
            return []
        chunks = [self._chunk(turn, update.answer_delta, is_safe=update.is_safe)]
        self._show(turn, update.answer_delta)
        chunks += [self._chunk(turn, event=event, is_safe=update.is_safe) for event in turn.held_events]
        turn.held_events.clear()
        return chunks

    def _final_chunks(self, turn: _Turn, prepared: PreparedTurn, outcome: str) -> list[TurnChunk]:
        """The rest of the structured answer, the events held back, and the final chunk."""
        parser = turn.parser
        chunks = self._released(turn, parser.finish()) if parser is not None and outcome != "aborted" else []
        figures = turn.figures
        if figures is None:
            figures = self.record(prepared, "".join(turn.shown), outcome=outcome, first_chunk_at=turn.first_chunk_at)
        is_safe = parser.is_safe if parser else None
        chunks += [self._chunk(turn, event=event, is_safe=is_safe) for event in turn.held_events]
        turn.held_events.clear()
        chunks.append(
            TurnChunk(
                metadata=self._first_metadata(turn, is_safe),
                is_final=True,
                is_safe=is_safe,
                answer="".join(turn.shown),
                aborted=outcome == "aborted",
                error=turn.error,
                metrics=figures,
                structured=parser.record() if parser else None,
            )
        )
        return chunks

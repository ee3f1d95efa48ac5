"""The dual-context strategy: prepare the next context ahead of time, swap it in when needed.

At ``warmup_threshold_ratio`` of the window a background task builds a
standby context: a summary of the older messages (through the summary store,
so a span already summarized is not summarized again) plus the recent ones
verbatim. At ``handover_threshold_ratio`` the standby replaces the active
context in one synchronous step (nothing can interleave on the event loop),
taking along every message recorded since the warm-up began, so no message is
lost. Summarizing therefore happens while the user reads, not while they wait.

- Only one warm-up runs at a time.
- A request at the handover threshold waits for a warm-up in flight (shielded:
  an aborted turn does not kill the warm-up).
- ``fit_to_window`` is the hard guard: whatever happens (a failed warm-up, one
  huge message), a request leaves ``answer_reserve`` tokens of the window free.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass

from llm import metrics
from llm.conversation.context import FittedRequest, LLMContext, Summary, fit_to_window
from llm.conversation.store import SummaryStore, chain_digests, summary_key
from llm.conversation.summarizer import Summarizer
from llm.retry import LLMError
from llm.types import Message

logger = logging.getLogger("llm.conversation")

# After a failed warm-up, wait for this many new messages (five exchanges) before trying again, so
# a summarization model that is down does not cost every turn a failed call.
_RETRY_AFTER_MESSAGES = 10


@dataclass(frozen=True)
class ControllerCounters:
    warmups: int = 0
    handovers: int = 0
    cache_hits: int = 0
    cache_misses: int = 0
    trimmed_messages: int = 0


class DualContextController:
    def __init__(
        self,
        *,
        session_key: str,
        active: LLMContext,
        summarizer: Summarizer,
        store: SummaryStore,
        warmup_threshold_ratio: float = 0.5,
        handover_threshold_ratio: float = 0.9,
        recent_ratio: float = 0.15,
    ) -> None:
        if not 0 < warmup_threshold_ratio < handover_threshold_ratio <= 1:
            raise ValueError("thresholds must satisfy 0 < warm-up < handover <= 1")
        self.session_key = session_key
        self.active = active
        self.standby: LLMContext | None = None
        self.summarizer = summarizer
        self.store = store
        self.warmup_threshold_ratio = warmup_threshold_ratio
        self.handover_threshold_ratio = handover_threshold_ratio
        self.recent_ratio = recent_ratio
        # Prefix digests of the whole dialog: entry i stands for messages [0, i + 1). ``active``
        # starts without a summary; ``restore`` replaces it with a stored dialog.
        self._digests: list[str] = chain_digests(active.messages)
        self._warmup: asyncio.Task[None] | None = None
        self._failed_at: int | None = None
        self.counters = ControllerCounters()

    def _count(self, **increments: int) -> None:
        values = {name: getattr(self.counters, name) + increments.get(name, 0) for name in ControllerCounters.__dataclass_fields__}
        self.counters = ControllerCounters(**values)

    # --- the dialog -------------------------------------------------------------

    async def restore(self, history: Sequence[Message]) -> None:
        """Start from a stored dialog, reusing the longest stored summary that matches its start."""
        self._digests = chain_digests(history)
        found = await self.store.latest_matching(self.session_key, self._digests)
        if found is None:
            self.active = self.active.derive(summary=None, messages=history)
            return
        self._count(cache_hits=1)
        metrics.SUMMARY_CACHE_HITS.labels(source=found.source).inc()
        self.active = self.active.derive(
            summary=Summary(text=found.text, covered_messages=found.covered_messages),
            messages=history[found.covered_messages :],
        )

    def record(self, message: Message) -> None:
        """Append a message of the dialog to the active context (the standby catches up at handover)."""
        self.active.append(message)
        self._digests.extend(chain_digests([message], self._digests[-1] if self._digests else ""))

    @property
    def warmup_running(self) -> bool:
        return self._warmup is not None and not self._warmup.done()

    def usage_ratio(self, extra_tokens: int = 0) -> float:
        return self.active.estimate_usage_ratio(extra_tokens=extra_tokens)

    # --- warm-up ------------------------------------------------------------------

    def maybe_start_warmup(self, extra_tokens: int = 0) -> bool:
        """Start building a standby if the active context passed the warm-up threshold and none is under way."""
        if self.standby is not None or self.warmup_running:
            return False
        if self.usage_ratio(extra_tokens) < self.warmup_threshold_ratio:
            return False
        if self._failed_at is not None and self.active.end - self._failed_at < _RETRY_AFTER_MESSAGES:
            return False
        return self._start_warmup()

    def _start_warmup(self) -> bool:
        if not self.summarizer.available:
            # No model to summarize with: the hard guard alone keeps requests inside the window.
            return False
        keep_tokens = int(self.active.window * self.recent_ratio)
        older, recent = self.active.summarization_slice(keep_tokens)
        if not older:
            return False
        # The snapshot is taken now, synchronously: messages recorded later are carried over at handover.
        covered = self.active.start + len(older)
        previous = self.active.summary.text if self.active.summary else ""
        self._warmup = asyncio.create_task(
            self._build_standby(previous, older, recent, covered), name=f"context-warmup:{self.session_key}"
        )
        self._count(warmups=1)
        metrics.CONTEXT_WARMUPS.inc()
        logger.info(
            "session %s: warming up a standby context (%d messages to summarize, %d kept, usage %.2f)",
            self.session_key, len(older), len(recent), self.usage_ratio(),
        )
        return True

    async def _build_standby(self, previous: str, older: list[Message], recent: list[Message], covered: int) -> None:
        key = summary_key(self.session_key, covered, self._digests[covered - 1])
        try:
            stored = await self.store.get(key)
            if stored is not None:
                self._count(cache_hits=1)
                metrics.SUMMARY_CACHE_HITS.labels(source=stored.source).inc()
                text = stored.text
            else:
                self._count(cache_misses=1)
                metrics.SUMMARY_CACHE_MISSES.inc()
                result = await self.summarizer.summarize(previous, older)
                text = result.text
                put = asyncio.ensure_future(
                    self.store.put(key, session_key=self.session_key, covered_messages=covered, text=text, model=result.model)
                )
                try:
                    await asyncio.shield(put)
                except asyncio.CancelledError:
                    # The row is being written on a database thread either way: let it land before
                    # shutdown returns, so a reopened session sees every summary that exists.
                    await asyncio.wait({put})
                    raise
        except Exception as exc:
            # A failed warm-up must not fail a turn: the hard guard keeps requests inside the window
            # until a later warm-up succeeds.
            self._failed_at = self.active.end
            metrics.CONTEXT_WARMUP_FAILURES.inc()
            log = logger.warning if isinstance(exc, LLMError) else logger.exception
            log("session %s: the standby context could not be built: %s", self.session_key, exc)
            return
        self._failed_at = None
        self.standby = self.active.derive(summary=Summary(text=text, covered_messages=covered), messages=recent)

    # --- handover -------------------------------------------------------------------

    def try_handover(self, extra_tokens: int = 0) -> bool:
        """Swap in a ready standby if the active context (plus ``extra_tokens`` streaming now) passed the threshold."""
        if self.standby is None or self.usage_ratio(extra_tokens) < self.handover_threshold_ratio:
            return False
        self._swap()
        return True

    def _swap(self) -> None:
        standby = self.standby
        assert standby is not None
        # Everything recorded since the snapshot (user messages, answers) follows into the new context.
        for message in self.active.messages[standby.end - self.active.start :]:
            standby.append(message)
        previous_ratio = self.usage_ratio()
        self.active, self.standby = standby, None
        self._count(handovers=1)
        metrics.CONTEXT_HANDOVERS.inc()
        logger.info(
            "session %s: handover to the standby context (usage %.2f -> %.2f, %d messages summarized)",
            self.session_key, previous_ratio, self.usage_ratio(), standby.start,
        )

    async def _handover_blocking(self) -> None:
        """At the threshold: wait for the standby (starting its warm-up if none is under way), then swap.

        After a failed warm-up, retries run in the background and no request waits for them: a
        summarization model that is down must not add its timeouts to every turn, and the hard
        guard keeps requests inside the window meanwhile.
        """
        if self._failed_at is not None:
            self.maybe_start_warmup()
        elif self.standby is None and not self.warmup_running:
            self._start_warmup()
        if self.warmup_running and self._failed_at is None:
            assert self._warmup is not None
            started = time.monotonic()
            # Shielded: cancelling the waiting turn must not cancel the warm-up other turns will need.
            await asyncio.shield(self._warmup)
            metrics.CONTEXT_HANDOVER_WAIT.observe(time.monotonic() - started)
        if self.standby is not None:
            self._swap()

    async def prepare_request(self) -> FittedRequest:
        """The messages of the next request (the user's message is already recorded), inside the window."""
        if self.usage_ratio() >= self.handover_threshold_ratio:
            await self._handover_blocking()
        self.maybe_start_warmup()
        fitted = fit_to_window(self.active.build_messages(), self.active.window - self.active.answer_reserve)
        if fitted.dropped or fitted.truncated:
            self._count(trimmed_messages=fitted.dropped)
            metrics.CONTEXT_TRIMMED_MESSAGES.inc(fitted.dropped)
            logger.warning(
                "session %s: request cut to fit the window (%d messages left out, truncated=%s)",
                self.session_key, fitted.dropped, fitted.truncated,
            )
        return fitted

    def streaming(self, answer_tokens: int) -> None:
        """Called at every delta of a streaming answer: keep thresholds honest with the answer's tokens so far.

        Below the warm-up threshold (the lower of the two) neither a warm-up nor a handover can
        start, so most deltas end at the first comparison.
        """
        if self.active.prompt_tokens() + answer_tokens < self.warmup_threshold_ratio * self.active.window:
            return
        if not self.try_handover(answer_tokens):
            self.maybe_start_warmup(answer_tokens)

    # --- lifecycle --------------------------------------------------------------------

    async def shutdown(self) -> None:
        task, self._warmup = self._warmup, None
        if task is not None and not task.done():
            task.cancel()
            await asyncio.wait({task})

"""Summaries of conversation spans: stored in the database, with the Django cache in front.

A summary stands for the first ``covered_messages`` messages of one dialog.
Its key hashes the session key, the span length and a digest chained over the
span's messages, so an edited or different history never reuses a summary,
while reopening the same session (or a restart) finds it again.

The cache is an optimisation only: when it fails (Redis down, say) the store
logs the degradation, counts it, and goes on with the database.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.core.cache import caches
from django.db import models

from llm import metrics
from llm.types import Message

logger = logging.getLogger("llm.conversation")

# One warning per this many seconds while the cache stays down; the counter records every failure.
_DEGRADED_LOG_INTERVAL = 60.0
_last_degraded_log = 0.0


class ConversationSummary(models.Model):
    """The summary of a dialog's first ``covered_messages`` messages."""

    key = models.CharField(max_length=64, unique=True, help_text="Hash of the session key and the summarized span.")
    session_key = models.CharField(max_length=200, db_index=True)
    covered_messages = models.PositiveIntegerField()
    text = models.TextField()
    model = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "llm"
        ordering = ["session_key", "-covered_messages"]
        verbose_name = "conversation summary"
        verbose_name_plural = "conversation summaries"

    def __str__(self) -> str:
        return f"{self.session_key}: first {self.covered_messages} messages"


def chain_digests(messages: Iterable[Message], previous: str = "") -> list[str]:
    """Digests of each growing prefix: entry ``i`` stands for messages ``[0, i + 1)``.

    Chained, so appending a message costs one hash instead of rehashing the dialog.
    """
    digests = []
    for message in messages:
        hasher = hashlib.sha256(previous.encode())
        hasher.update(b"\x00" + message.role.encode() + b"\x00" + message.content.encode("utf-8"))
        previous = hasher.hexdigest()
        digests.append(previous)
    return digests


def summary_key(session_key: str, covered_messages: int, span_digest: str) -> str:
    return hashlib.sha256(f"{session_key}\x00{covered_messages}\x00{span_digest}".encode()).hexdigest()


@dataclass(frozen=True)
class StoredSummary:
    text: str
    covered_messages: int
    # Where it was found: "cache" or "database".
    source: str


def _log_degraded(exc: Exception) -> None:
    global _last_degraded_log
    metrics.SUMMARY_CACHE_ERRORS.inc()
    now = time.monotonic()
    if now - _last_degraded_log >= _DEGRADED_LOG_INTERVAL:
        _last_degraded_log = now
        logger.warning("summary cache unavailable, using the database only: %s", exc)
    else:
        logger.debug("summary cache unavailable: %s", exc)


class SummaryStore:
    """Summaries by key: Django cache first, then the database (which is the source of truth)."""

    def __init__(self, *, cache_alias: str = "default", cache_timeout: float | None = 24 * 3600) -> None:
        self.cache_alias = cache_alias
        self.cache_timeout = cache_timeout

    def _cache_key(self, key: str) -> str:
        return f"llm:summary:{key}"

    async def _cache_get(self, key: str) -> tuple[str, int] | None:
        try:
            value = await caches[self.cache_alias].aget(self._cache_key(key))
        except Exception as exc:  # any backend failure: the cache is optional
            _log_degraded(exc)
            return None
        if isinstance(value, (list, tuple)) and len(value) == 2:
            return str(value[0]), int(value[1])
        return None

    async def _cache_set(self, key: str, text: str, covered: int) -> None:
        try:
            await caches[self.cache_alias].aset(self._cache_key(key), (text, covered), self.cache_timeout)
        except Exception as exc:  # any backend failure: the cache is optional
            _log_degraded(exc)

    async def get(self, key: str) -> StoredSummary | None:
        cached = await self._cache_get(key)
        if cached is not None:
            return StoredSummary(text=cached[0], covered_messages=cached[1], source="cache")
        row = await ConversationSummary.objects.filter(key=key).only("text", "covered_messages").afirst()
        if row is None:
            return None
        await self._cache_set(key, row.text, row.covered_messages)
        return StoredSummary(text=row.text, covered_messages=row.covered_messages, source="database")

    async def put(self, key: str, *, session_key: str, covered_messages: int, text: str, model: str = "") -> None:
        await ConversationSummary.objects.aupdate_or_create(
            key=key,
            defaults={"session_key": session_key, "covered_messages": covered_messages, "text": text, "model": model},
        )
        await self._cache_set(key, text, covered_messages)

    async def latest_matching(self, session_key: str, digests: Sequence[str]) -> StoredSummary | None:
        """The longest stored summary of this session whose span matches ``digests`` (a reopened session)."""
        if not digests:
            # A dialog with no messages yet has nothing summarised: no trip to the database.
            return None
        candidates = ConversationSummary.objects.filter(
            session_key=session_key, covered_messages__gt=0, covered_messages__lte=len(digests)
        ).order_by("-covered_messages")
        async for row in candidates.only("key", "covered_messages"):
            if row.key == summary_key(session_key, row.covered_messages, digests[row.covered_messages - 1]):
                return await self.get(row.key)
        return None


def forget_summaries(session_key: str) -> int:
    """Delete a session's summaries (call it when the session is deleted: they hold its content).

    The cache entries are left to expire: their keys can only be rebuilt from the deleted
    messages, so nothing can reach them again.
    """
    deleted, _ = ConversationSummary.objects.filter(session_key=session_key).delete()
    return deleted

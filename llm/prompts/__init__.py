"""Prompt texts: files in this folder, overridden from the admin.

``<name>.txt`` in ``settings.LLM["PROMPTS_DIR"]`` (``AGENT_PROMPTS_DIR``;
default: this folder) is a prompt's default text. A ``Prompt`` row that is
overridden in the admin replaces it; its ``version`` is recorded with every
call that used it (0 means the file's text). A prompt with neither a file nor
an override falls back to ``FALLBACK_TEXT`` with a warning, so a missing file
degrades an answer instead of failing a turn.

``get_prompt`` reads the database: call it from sync code or through
``aget_prompt``.

Lookups are cached per process for ``settings.LLM["PROMPT_CACHE_SECONDS"]``
(0: no cache): a question needs several prompts, and each database read
would be a trip to the database from the ASGI server. Saving
or deleting a ``Prompt`` empties the cache of the process that saved it (again
when the transaction commits); other processes see the change within the
cache time. A read inside a transaction is not cached, since the transaction
may still roll back.

May import ``llm.models``, Django and ``database_pool``.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from django.conf import settings
from django.core.signals import setting_changed
from django.db import connection, transaction
from django.db.models.signals import post_delete, post_migrate, post_save

from database_pool import in_database_pool

logger = logging.getLogger("llm")

FALLBACK_TEXT = "You are a helpful assistant."
NAME_PATTERN = re.compile(r"^[a-z0-9_]{1,100}$")


@dataclass(frozen=True)
class PromptText:
    name: str
    text: str
    # 0: the file's text; N: admin version N; None: the fallback text.
    version: int | None
    source: Literal["file", "admin", "fallback"]


def prompts_dir() -> Path:
    return Path(settings.LLM.get("PROMPTS_DIR") or Path(__file__).resolve().parent)


def _check_name(name: str) -> None:
    if not NAME_PATTERN.match(name):
        raise ValueError(f"{name!r} is not a prompt name (lower-case letters, digits and underscores)")


def file_text(name: str) -> str | None:
    """The prompt file's text, or None when there is no such file."""
    _check_name(name)
    path = prompts_dir() / f"{name}.txt"
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return None


def file_names() -> list[str]:
    return sorted(path.stem for path in prompts_dir().glob("*.txt") if NAME_PATTERN.match(path.stem))


class _PromptCache:
    """Looked-up prompts by (prompts folder, name), each with the time it was read."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str, str], tuple[float, PromptText]] = {}
        self._lock = threading.Lock()
        # Bumped by every clear: a read that started before a clear must not be cached after it.
        self.generation = 0

    def get(self, key: tuple[str, str], max_age: float) -> PromptText | None:
        entry = self._entries.get(key)
        if entry is None or time.monotonic() - entry[0] >= max_age:
            return None
        return entry[1]

    def put(self, key: tuple[str, str], prompt: PromptText, *, read_at: float, generation: int) -> None:
        with self._lock:
            if generation == self.generation:
                self._entries[key] = (read_at, prompt)

    def clear(self) -> None:
        with self._lock:
            self.generation += 1
            self._entries.clear()


_cache = _PromptCache()


def _cache_seconds() -> float:
    return float(settings.LLM.get("PROMPT_CACHE_SECONDS", 0))


def _cache_key(name: str) -> tuple[str, str]:
    return (str(prompts_dir()), name)


def clear_cache(**_: object) -> None:
    """Forget every cached prompt of this process (also a signal receiver)."""
    _cache.clear()


def _prompt_changed(**_: object) -> None:
    _cache.clear()
    # A save inside a transaction: a concurrent read before the commit still sees the old row.
    transaction.on_commit(_cache.clear)


post_save.connect(_prompt_changed, sender="llm.Prompt", dispatch_uid="llm.prompts.saved")
post_delete.connect(_prompt_changed, sender="llm.Prompt", dispatch_uid="llm.prompts.deleted")
setting_changed.connect(clear_cache, dispatch_uid="llm.prompts.settings")
# A flush (as between database tests) deletes rows without delete signals and ends with post_migrate.
post_migrate.connect(clear_cache, dispatch_uid="llm.prompts.migrated")


def _read_prompt(name: str) -> PromptText:
    from llm.models import Prompt

    override = Prompt.objects.filter(name=name, overridden=True).only("text", "version").first()
    if override is not None:
        return PromptText(name=name, text=override.text, version=override.version, source="admin")
    text = file_text(name)
    if text is not None:
        return PromptText(name=name, text=text, version=0, source="file")
    logger.warning("prompt %r has no file in %s and no override; using the fallback text", name, prompts_dir())
    return PromptText(name=name, text=FALLBACK_TEXT, version=None, source="fallback")


def _cached(name: str) -> PromptText | None:
    _check_name(name)
    max_age = _cache_seconds()
    return _cache.get(_cache_key(name), max_age) if max_age > 0 else None


def get_prompt(name: str) -> PromptText:
    cached = _cached(name)
    if cached is not None:
        return cached
    generation, read_at = _cache.generation, time.monotonic()
    prompt = _read_prompt(name)
    if _cache_seconds() > 0 and not connection.in_atomic_block:
        _cache.put(_cache_key(name), prompt, read_at=read_at, generation=generation)
    return prompt


async def aget_prompt(name: str) -> PromptText:
    """``get_prompt`` from async code; a cached prompt comes back without a trip to the database thread."""
    cached = _cached(name)
    if cached is not None:
        return cached
    return await in_database_pool(get_prompt)(name)


def ensure_prompt_rows() -> None:
    """A ``Prompt`` row for every prompt file, so the admin lists them all."""
    from llm.models import Prompt

    existing = set(Prompt.objects.values_list("name", flat=True))
    missing = [Prompt(name=name, text=file_text(name) or "") for name in file_names() if name not in existing]
    Prompt.objects.bulk_create(missing, ignore_conflicts=True)

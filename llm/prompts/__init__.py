"""Prompt texts: files in this folder, overridden from the admin.

``<name>.txt`` in ``settings.LLM["PROMPTS_DIR"]`` (``AGENT_PROMPTS_DIR``;
default: this folder) is a prompt's default text. A ``Prompt`` row that is
overridden in the admin replaces it; its ``version`` is recorded with every
call that used it (0 means the file's text). A prompt with neither a file nor
an override falls back to ``FALLBACK_TEXT`` with a warning, so a missing file
degrades an answer instead of failing a turn.

``get_prompt`` reads the database: call it from sync code or through
``aget_prompt``.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from asgiref.sync import sync_to_async
from django.conf import settings

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


def get_prompt(name: str) -> PromptText:
    from llm.models import Prompt

    _check_name(name)
    override = Prompt.objects.filter(name=name, overridden=True).only("text", "version").first()
    if override is not None:
        return PromptText(name=name, text=override.text, version=override.version, source="admin")
    text = file_text(name)
    if text is not None:
        return PromptText(name=name, text=text, version=0, source="file")
    logger.warning("prompt %r has no file in %s and no override; using the fallback text", name, prompts_dir())
    return PromptText(name=name, text=FALLBACK_TEXT, version=None, source="fallback")


async def aget_prompt(name: str) -> PromptText:
    return await sync_to_async(get_prompt, thread_sensitive=True)(name)


def ensure_prompt_rows() -> None:
    """A ``Prompt`` row for every prompt file, so the admin lists them all."""
    from llm.models import Prompt

    existing = set(Prompt.objects.values_list("name", flat=True))
    missing = [Prompt(name=name, text=file_text(name) or "") for name in file_names() if name not in existing]
    Prompt.objects.bulk_create(missing, ignore_conflicts=True)

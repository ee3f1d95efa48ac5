"""Websocket frames: small HTML fragments swapped into the page by htmx.

The set is closed: ``start`` (a new question and its empty answer), ``token``
(text appended to an answer, or the whole text so far for a page joining a
running answer), ``step`` (a finished agent step or the chosen intent),
``done`` (the whole answer, rendered) and ``error``. Each comes from a
template in ``templates/chat/ws/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.template.loader import render_to_string

from chat.models import Message
from chat.presentation import INTENT_LABELS, message_context


def start(question: Message, answer: Message, repository_id: int | None) -> str:
    return render_to_string(
        "chat/ws/start.html",
        {
            "question": message_context(question, repository_id),
            "answer": message_context(answer, repository_id),
        },
    )


def token(message_id: int, text: str, *, replace: bool = False) -> str:
    return render_to_string("chat/ws/token.html", {"message_id": message_id, "text": text, "replace": replace})


def step(message_id: int, step: Mapping[str, Any] | None = None, intent: str = "") -> str:
    label = INTENT_LABELS.get(intent, intent)
    return render_to_string("chat/ws/step.html", {"message_id": message_id, "step": step, "intent": label})


def done(message: Message, repository_id: int | None) -> str:
    return render_to_string("chat/ws/done.html", {"m": message_context(message, repository_id)})


def error(text: str, *, message_id: int | None = None, restore: str = "") -> str:
    """An error note; ``restore`` is a question that was not sent, put back into the input."""
    return render_to_string("chat/ws/error.html", {"message_id": message_id, "text": text, "restore": restore})

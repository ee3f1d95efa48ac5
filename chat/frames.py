"""Websocket frames: small HTML fragments swapped into the page by htmx.

The set is closed: ``start`` (a new question and its empty answer), ``token``
(text appended to an answer, or the whole text so far for a page joining a
running answer), ``blocks`` (Markdown blocks the streamed text has finished,
rendered, and the unfinished block's element), ``snapshot`` (a running
answer so far, for a page joining it), ``status`` (the live line of what the
agent is doing: a tool call while it runs, ...), ``step`` (a finished agent
step, placed in the trace by its start, or the chosen intent),
``verdict`` (a structured answer's safety verdict: flags an unsafe answer),
``done`` (the whole answer, rendered) and ``error``. Each comes from a
template in ``templates/chat/ws/``.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import mark_safe

from chat.answer_stream import Fed, StreamedMarkdown, render_blocks, tail_html
from chat.models import ChatSession, Message
from chat.presentation import INTENT_LABELS, message_context


def start(session: ChatSession, question: Message, answer: Message) -> str:
    """The question and its empty answer, and the chat's title (the first question names a new chat)."""
    return render_to_string(
        "chat/ws/start.html",
        {
            "session": session,
            "question": message_context(question, session.repository_id),
            "answer": message_context(answer, session.repository_id),
        },
    )


# Stands in for the text when the token frame is rendered once per answer.
_TEXT_SLOT = "\ue000"


@lru_cache(maxsize=1024)
def _token_frame_around(message_id: int, replace: bool) -> tuple[str, str]:
    html = render_to_string("chat/ws/token.html", {"message_id": message_id, "text": _TEXT_SLOT, "replace": replace})
    before, _, after = html.partition(_TEXT_SLOT)
    return before, after


def token(message_id: int, text: str, *, replace: bool = False) -> str:
    # Rendering the template for every token costs about 100 us, which adds up
    # at thousands of tokens per second; the frame around the text is rendered
    # once per answer and the (escaped) text put in its slot.
    before, after = _token_frame_around(message_id, replace)
    # The standard library's escape, which Django's wraps (without its lazy-text check, per token).
    return before + html.escape(text) + after


def step(
    message_id: int, step: Mapping[str, Any] | None = None, intent: str = "", status: str = "", before: str = ""
) -> str:
    """A finished step added to the trace (before the element ``before``: the trace lists steps by their
    start, and steps finish inside-out), or the chosen intent; and the status line when ``status`` is set."""
    label = INTENT_LABELS.get(intent, intent)
    return render_to_string(
        "chat/ws/step.html",
        {"message_id": message_id, "step": step, "intent": label, "status": status, "before": before},
    )


def status(message_id: int, text: str) -> str:
    return render_to_string("chat/ws/status.html", {"message_id": message_id, "status": text})


def blocks(message_id: int, fed: Fed, stream: StreamedMarkdown) -> str:
    """Finished blocks appended rendered, and the unfinished block's element (holding its text so far) in place of the old one."""
    return render_to_string(
        "chat/ws/blocks.html",
        {"message_id": message_id, "blocks": mark_safe(render_blocks(fed.blocks)), "tail": mark_safe(tail_html(message_id, stream))},
    )


def snapshot(message_id: int, text: str, status: str = "") -> str:
    """A running answer so far, for a page joining it: its finished blocks rendered and its unfinished block as typed.

    The unfinished text goes in a token frame of its own (after the element that holds it), so the
    page's text is the snapshot's token text followed by the deltas after it.
    """
    stream = StreamedMarkdown()
    rendered = render_blocks(stream.feed(text).blocks)
    empty_tail = tail_html(message_id, stream, with_text=False)
    return render_to_string(
        "chat/ws/snapshot.html",
        {"message_id": message_id, "blocks": mark_safe(rendered), "tail": mark_safe(empty_tail), "status": status},
    ) + token(message_id, stream.unfinished, replace=True)


def verdict(message_id: int, is_safe: bool | None) -> str:
    """The answer's safety flag, shown when ``is_safe`` is False; sent before the text it applies to."""
    return render_to_string("chat/ws/verdict.html", {"message_id": message_id, "is_safe": is_safe})


def done(message: Message, repository_id: int | None) -> str:
    return render_to_string("chat/ws/done.html", {"m": message_context(message, repository_id)})


def error(text: str, *, message_id: int | None = None, restore: str = "") -> str:
    """An error note; ``restore`` is a question that was not sent, put back into the input."""
    return render_to_string("chat/ws/error.html", {"message_id": message_id, "text": text, "restore": restore})

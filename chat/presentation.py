"""What a stored message looks like on the page (shared by pages and frames)."""

from __future__ import annotations

import json
from typing import Any

from django.utils import timezone
from django.utils.dates import MONTHS_3
from django.utils.safestring import SafeString, mark_safe

from chat import citations as citation_links
from chat.markdown import render_markdown, render_typed_text
from chat.models import Message

INTENT_LABELS = {
    "general": "General",
    "project_qa": "Project Q&A",
    "docs": "Docs",
    "edits": "Edits",
}
# Tool results longer than this are cut in the trace; the full value is in the audit.
TRACE_VALUE_CHARS = 200


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= TRACE_VALUE_CHARS else text[: TRACE_VALUE_CHARS - 1] + "…"


def step_context(step: dict[str, Any]) -> dict[str, Any]:
    detail = step.get("detail") or {}
    return {
        "node": step.get("node", ""),
        "depth": int(step.get("depth", 0)),
        "duration_ms": round(float(step.get("duration_ms", 0.0))),
        "tool": detail.get("tool", ""),
        "arguments": _short(detail["arguments"]) if "arguments" in detail else "",
        "result": _short(detail["result"]) if "result" in detail else "",
        "error": detail.get("error", ""),
    }


def citation_linker(message: Message, repository_id: int | None):
    """Links a cited range in the text when it overlaps a citation the agent verified."""
    verified = message.citations or []

    def link(path: str, start: int, end: int) -> str | None:
        for citation in verified:
            if citation["path"] == path and citation["start_line"] <= end and start <= citation["end_line"]:
                return citation_links.source_url(repository_id, {"path": path, "start_line": start, "end_line": end})
        return None

    return link


def body_html(message: Message, repository_id: int | None = None) -> SafeString:
    """Finished assistant text and the user's own text are Markdown (code highlighted in both); a streaming answer is shown as typed (escaped by the template)."""
    if message.role == Message.Role.ASSISTANT and not message.is_streaming:
        html = render_markdown(message.content, citation_linker(message, repository_id))
        return mark_safe(html)  # noqa: S308 - sanitized by render_markdown
    if message.role == Message.Role.USER:
        return mark_safe(render_typed_text(message.content))  # noqa: S308 - sanitized by render_markdown
    return SafeString("")


def message_context(message: Message, repository_id: int | None) -> dict[str, Any]:
    metrics = message.metrics or {}
    return {
        "id": message.pk,
        "dom_id": message.dom_id,
        "role": message.role,
        "status": message.status,
        "is_streaming": message.is_streaming,
        "content": message.content,
        "html": body_html(message, repository_id),
        "intent": message.intent,
        "intent_label": INTENT_LABELS.get(message.intent, message.intent),
        "error": message.error,
        "is_safe": message.is_safe,
        "ttft_ms": metrics.get("ttft_ms"),
        "latency_ms": metrics.get("latency_ms"),
        "tokens_in": metrics.get("tokens_in"),
        "tokens_out": metrics.get("tokens_out"),
        "tokens_thinking": metrics.get("tokens_thinking"),
        "model": metrics.get("model", ""),
        "steps": [step_context(step) for step in message.steps or []],
        "citations": [
            {"label": citation_links.label(c), "url": citation_links.source_url(repository_id, c)}
            for c in message.citations or []
        ],
        "artifacts": message.artifacts or [],
        "created_at": message.created_at,
        **_created(message),
    }


def _created(message: Message) -> dict[str, str]:
    """When the message was written, in the site's time zone: ISO 8601, and as "Nov 21, 14:05".

    Formatted here rather than by the ``date`` filter, which took a third of
    the time of rendering a message (each question renders two at once).
    """
    if message.created_at is None:
        return {"created_iso": "", "created_label": ""}
    local = timezone.localtime(message.created_at)
    return {
        "created_iso": local.isoformat(),
        "created_label": f"{MONTHS_3[local.month].title()} {local.day}, {local:%H:%M}",
    }

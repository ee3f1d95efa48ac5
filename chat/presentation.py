"""What a stored message looks like on the page (shared by pages and frames)."""

from __future__ import annotations

import json
import threading
from typing import Any

from cachetools import LRUCache, cached
from cachetools.keys import hashkey

from django.utils import timezone
from django.utils.dates import MONTHS_3
from django.utils.safestring import SafeString, mark_safe

from chat import citations as citation_links
from chat.answer_stream import split_for_page
from chat.markdown import render_markdown, render_typed_text
from chat.models import Message

# Finished answers whose HTML each web process keeps (their text and HTML: about 10 KB each, 20 MB in all).
ANSWERS_KEPT_RENDERED = 2048

INTENT_LABELS = {
    "general": "General",
    "project_qa": "Project Q&A",
    "docs": "Docs",
    "edits": "Edits",
}
# Tool results longer than this are cut in the trace; the full value is in the audit.
TRACE_VALUE_CHARS = 200

# The live status line of an answer being written: what the agent is doing, in plain words.
STARTING = "Reading your question…"
WRITING = "Writing the answer…"
INTENT_ACTIVITY = {
    "general": WRITING,
    "project_qa": "Searching the code…",
    "docs": "Reading the code for the document…",
    "edits": "Reading the code to change…",
}
ACTIVITY_SUBJECT_CHARS = 60
# The steps of writing a document or a patch (chat.agent.docs, chat.agent.edits): (running, done).
WRITING_STEPS = {
    "plan_document": ("Choosing what the document covers…", "Chose what the document covers…"),
    "plan_sections": ("Planning the sections…", "Planned the sections…"),
    "write_section": ("Writing the section “{section}”…", "Wrote the section “{section}”…"),
    "check_section": ("Checking the section “{section}” against the code…", "Checked the section “{section}”…"),
    "plan_edits": ("Planning the changes…", "Planned the changes…"),
    "write_diff": ("Writing the change to {path}…", "Wrote the change to {path}…"),
    "apply_diff": ("Applying the change to {path}…", "Applied the change to {path}…"),
    "review_patch": ("Reviewing the patch…", "Reviewed the patch…"),
}


def _subject(value: Any) -> str:
    text = " ".join(str(value or "").split())
    return text if len(text) <= ACTIVITY_SUBJECT_CHARS else text[: ACTIVITY_SUBJECT_CHARS - 1] + "…"


def tool_activity(tool: str, arguments: Any, *, running: bool = False) -> str:
    """What a tool call does (``running``) or did, as the status line says it (empty for a tool it does not know)."""
    args = arguments if isinstance(arguments, dict) else {}
    symbol = _subject(args.get("symbol") or args.get("name"))
    if tool == "search_code":
        query = _subject(args.get("query"))
        verb = "Searching" if running else "Searched"
        return f"{verb} the code for “{query}”…" if query else f"{verb} the code…"
    if tool == "search_text":
        pattern = _subject(args.get("pattern"))
        verb = "Finding" if running else "Found"
        return f"{verb} “{pattern}” in the files…" if pattern else f"{verb} a text in the files…"
    if tool == "read_file":
        path, start, end = _subject(args.get("path")), args.get("start"), args.get("end")
        lines = f" lines {start}–{end}" if start and end else ""
        return f"Reading {path}{lines}…" if path else "Reading a file…"
    if tool == "get_symbol":
        return f"Looking up {symbol}…" if symbol else "Looking up a symbol…"
    if tool == "find_references":
        return f"Finding where {symbol} is used…" if symbol else "Finding references…"
    if tool == "callers":
        return f"Following the calls to {symbol}…" if symbol else "Following calls…"
    if tool == "callees":
        return f"Following the calls from {symbol}…" if symbol else "Following calls…"
    if tool == "list_entrypoints":
        return "Listing the routes, commands and tasks…"
    if tool == "list_dependencies":
        name = _subject(args.get("name"))
        return f"Looking up the dependency {name}…" if name else "Listing the dependencies…"
    if tool in WRITING_STEPS:
        words = WRITING_STEPS[tool][0 if running else 1]
        return words.format(section=_subject(args.get("section")), path=_subject(args.get("path")))
    return ""


def activity(*, intent: str = "", step: dict[str, Any] | None = None, writing: bool = False) -> str:
    """The status line after the latest event of an answer: its text began, a tool call finished, or its intent was chosen."""
    if writing:
        return WRITING
    detail = (step or {}).get("detail") or {}
    if detail.get("tool"):
        return tool_activity(detail["tool"], detail.get("arguments")) or "Working with the code…"
    if intent:
        return INTENT_ACTIVITY.get(intent, STARTING)
    return STARTING


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= TRACE_VALUE_CHARS else text[: TRACE_VALUE_CHARS - 1] + "…"


def steps_in_start_order(steps: list[dict[str, Any]] | None) -> list[dict[str, Any]]:
    """Steps as they began (the order they were recorded in is the order they finished); steps stored
    before start times were recorded keep their order."""
    steps = list(steps or [])
    if not all("start_ms" in step for step in steps):
        return steps
    # A step and the step it runs start in the same millisecond: the outer one (less deep) first.
    order = sorted(range(len(steps)), key=lambda i: (steps[i]["start_ms"], steps[i].get("depth", 0), i))
    return [steps[i] for i in order]


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


def citation_linker(verified: list[dict], repository_id: int | None):
    """Links a cited range in the text when it overlaps a citation the agent verified."""

    def link(path: str, start: int, end: int) -> str | None:
        for citation in verified:
            if citation["path"] == path and citation["start_line"] <= end and start <= citation["end_line"]:
                return citation_links.source_url(
                    repository_id,
                    {"path": path, "start_line": start, "end_line": end, "version": citation.get("version")},
                )
        return None

    return link


def body_html(message: Message, repository_id: int | None = None) -> SafeString:
    """Finished assistant text and the user's own text are Markdown (code highlighted in both); a streaming answer is shown as typed (escaped by the template)."""
    if message.role == Message.Role.ASSISTANT and not message.is_streaming:
        html = _answer_html(repository_id, message.content, message.citations or [])
        return mark_safe(html)  # noqa: S308 - sanitized by render_markdown
    if message.role == Message.Role.USER:
        return mark_safe(render_typed_text(message.content))  # noqa: S308 - sanitized by render_markdown
    return SafeString("")


# A finished answer's HTML, by what it is made of: a chat's page renders every answer each time it opens
# (300 answers of a few KB: about 2 s of Markdown and highlighting), and a finished answer never changes.
@cached(
    cache=LRUCache(maxsize=ANSWERS_KEPT_RENDERED), lock=threading.Lock(),
    key=lambda repository_id, content, citations: hashkey(repository_id, content, json.dumps(citations, sort_keys=True)),
)
def _answer_html(repository_id: int | None, content: str, citations: list[dict]) -> str:
    return render_markdown(content, citation_linker(citations, repository_id))


def message_context(message: Message, repository_id: int | None) -> dict[str, Any]:
    metrics = message.metrics or {}
    streamed = {}
    if message.role == Message.Role.ASSISTANT and message.is_streaming:
        rendered, tail = split_for_page(message.pk, message.content)
        streamed = {
            "stream_rendered": mark_safe(rendered),  # noqa: S308 - sanitized by render_markdown
            "stream_tail": mark_safe(tail),  # noqa: S308 - escaped by split_for_page
            "activity": activity(intent=message.intent, writing=bool(message.content)),
        }
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
        "steps": [step_context(step) for step in steps_in_start_order(message.steps)],
        "citations": [
            {"label": citation_links.label(c), "url": citation_links.source_url(repository_id, c)}
            for c in message.citations or []
        ],
        "artifacts": message.artifacts or [],
        "created_at": message.created_at,
        **_created(message),
        **streamed,
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

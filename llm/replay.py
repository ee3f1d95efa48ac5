"""Replaying recorded provider calls.

``replay_parsing`` feeds a call's recorded raw stream payloads through the
adapter's parser again, without touching the network, so a parsing fix can
be checked against the exact bytes a provider sent. ``resend`` sends the
recorded provider-neutral request to a provider (possibly another one).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import aclosing
from dataclasses import replace
from pathlib import Path
from typing import Any

from llm.audit import event_to_dict, merge_text_events, request_from_dict
from llm.providers.base import wire_format_errors
from llm.registry import PROVIDERS, build_provider
from llm.retry import LLMError
from llm.types import StreamEvent


class ReplayError(Exception):
    """The record cannot be replayed (not found, not a chat call, nothing recorded)."""


def load_record(reference: str) -> dict[str, Any]:
    """A call record by ``LLMCall`` id or from an ``LLM_AUDIT_DIR`` JSON file."""
    from llm.models import LLMCall

    if reference.isdigit():
        row = LLMCall.objects.filter(pk=int(reference)).values().first()
        if row is None:
            raise ReplayError(f"no LLM call with id {reference}")
        return row
    path = Path(reference)
    if not path.is_file():
        raise ReplayError(f"{reference} is neither a call id nor a file")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise ReplayError(f"{reference} is not a JSON call record: {exc}") from exc


def _check_chat(record: Mapping[str, Any]) -> None:
    if record.get("kind", "chat") != "chat":
        raise ReplayError("only chat calls can be replayed; embedding calls keep no payloads")
    if not record.get("request", {}).get("messages"):
        raise ReplayError("the record holds no request messages")


def replay_parsing(record: Mapping[str, Any]) -> list[StreamEvent]:
    """The events the adapter's parser makes of the recorded payloads today."""
    _check_chat(record)
    name = record.get("provider", "")
    if name not in PROVIDERS:
        raise ReplayError(f"unknown provider {name!r} in the record")
    payloads = record.get("response") or []
    if not payloads:
        raise ReplayError(f"the {name} call recorded no stream payloads to parse")
    provider = build_provider(name, config={})
    parser = provider.new_parser(request_from_dict(record["request"]))
    events: list[StreamEvent] = []
    try:
        with wire_format_errors(name):
            for payload in payloads:
                events.extend(parser.feed(payload))
            events.extend(parser.finish())
    except LLMError as exc:
        partial = "".join(e.text for e in events if e.type == "text")
        events.append(StreamEvent(type="error", error=exc, text=partial))
    return events


async def resend(record: Mapping[str, Any], provider_name: str) -> list[StreamEvent]:
    """Send the recorded request to ``provider_name`` and collect its events (a new audit record is written)."""
    _check_chat(record)
    request = request_from_dict(record["request"])
    if provider_name != record.get("provider"):
        # The recorded model belongs to the original provider; use the target's configured one.
        request = replace(request, model=None)
    provider = build_provider(provider_name)
    try:
        async with aclosing(provider.stream(request)) as stream:
            return [event async for event in stream]
    finally:
        await provider.aclose()


def describe(events: list[StreamEvent], record: Mapping[str, Any] | None = None) -> str:
    """A readable account of the events, and whether they match the recorded result."""
    text = "".join(e.text for e in events if e.type == "text")
    lines = [f"{len(events)} events"]
    lines.append("text:")
    lines.append(text or "(none)")
    for event in events:
        if event.type == "tool_call" and event.tool_call is not None:
            lines.append(f"tool call: {event.tool_call.name}({json.dumps(dict(event.tool_call.arguments), ensure_ascii=False)})")
        elif event.type == "usage" and event.usage is not None:
            lines.append(f"usage: {event.usage.prompt_tokens} prompt + {event.usage.completion_tokens} completion tokens")
        elif event.type == "done":
            lines.append(f"finish: {event.finish_reason} (model {event.model})")
        elif event.type == "error":
            lines.append(f"error: {event.error}")
    if record is not None and record.get("events"):
        # Records keep consecutive text events joined; older records have one per chunk.
        recorded = merge_text_events([e for e in record["events"] if e.get("type") != "error"])
        replayed = merge_text_events([event_to_dict(e) for e in events if e.type != "error"])
        lines.append(f"matches the recorded events: {'yes' if recorded == replayed else 'no'}")
    return "\n".join(lines)

"""Audit records of every provider call, and the log lines about them.

A ``CallTrace`` collects one call as it happens: the provider-neutral request,
the wire request with secrets redacted, the raw stream payloads (so replay can
re-run parsing), the emitted events, the parsed result, latency, time to first
token, usage and the error. ``finish`` logs it (prompt and output text cut at
``LLM["LOG_TEXT_LIMIT"]`` characters), stores an ``LLMCall`` row and, when
``LLM_AUDIT_DIR`` is set, writes one JSON file per call.

Inside ``stored_in_background()`` a finished call is stored without its
caller waiting (a router's decision does not wait for its row); leaving the
block waits until every row of the calls made inside it is stored, so a caller
that records its own result afterwards finds them all.

Callers link calls to their own objects by setting ``correlation`` around the
call (the chat sets its message id)::

    token = audit.correlation.set(f"message:{message.pk}")
    try:
        ...
    finally:
        audit.correlation.reset(token)
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings

from database_pool import in_database_pool
from llm.retry import LLMError
from llm.types import ChatRequest, Message, StreamEvent, ToolCall, ToolSpec, Usage

logger = logging.getLogger("llm")

correlation: contextvars.ContextVar[str | None] = contextvars.ContextVar("llm_audit_correlation", default=None)
# Set by ``stored_in_background``: the storing tasks still running. Tasks started inside copy the
# context, so calls made in them add to the same set.
_background: contextvars.ContextVar[set[asyncio.Task[None]] | None] = contextvars.ContextVar(
    "llm_audit_background", default=None
)

REDACTED = "[redacted]"
_SECRET_KEYS = frozenset(
    {"authorization", "api_key", "apikey", "x-goog-api-key", "access_token", "secret", "password"}
)


def truncate(text: str, limit: int | None = None) -> str:
    limit = settings.LLM.get("LOG_TEXT_LIMIT", 1500) if limit is None else limit
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... [{len(text) - limit} more characters]"


def redact(value: Any) -> Any:
    """A copy of ``value`` with the values of secret-looking keys replaced."""
    if isinstance(value, Mapping):
        return {
            key: (REDACTED if str(key).lower() in _SECRET_KEYS or str(key).lower().endswith("_secret") else redact(item))
            for key, item in value.items()
        }
    if isinstance(value, (list, tuple)):
        return [redact(item) for item in value]
    if isinstance(value, str) and value.startswith("{"):
        # Tool-call arguments travel as JSON text inside the payload.
        try:
            parsed = json.loads(value)
        except ValueError:
            return value
        cleaned = redact(parsed)
        return value if cleaned == parsed else json.dumps(cleaned, ensure_ascii=False)
    return value


# --- the neutral request as JSON (stored, and re-sent by replay) ------------------


def _tool_call_to_dict(call: ToolCall) -> dict[str, Any]:
    record = {"id": call.id, "name": call.name, "arguments": dict(call.arguments), "raw_arguments": call.raw_arguments}
    if call.signature:
        record["signature"] = call.signature
    return record


def request_to_dict(request: ChatRequest) -> dict[str, Any]:
    return {
        "messages": [
            {
                "role": m.role,
                "content": m.content,
                "tool_calls": [_tool_call_to_dict(c) for c in m.tool_calls],
                "tool_call_id": m.tool_call_id,
                "name": m.name,
            }
            for m in request.messages
        ],
        "model": request.model,
        "purpose": request.purpose,
        "tools": [
            {
                "name": t.name,
                "description": t.description,
                "parameters": dict(t.parameters),
                "few_shot_examples": [dict(e) for e in t.few_shot_examples],
            }
            for t in request.tools
        ],
        "model_params": dict(request.model_params),
        "prompt_name": request.prompt_name,
        "prompt_version": request.prompt_version,
    }


def request_from_dict(data: Mapping[str, Any]) -> ChatRequest:
    return ChatRequest(
        messages=tuple(
            Message(
                role=m["role"],
                content=m.get("content", ""),
                tool_calls=tuple(
                    ToolCall(
                        id=c["id"], name=c["name"], arguments=c.get("arguments", {}), raw_arguments=c.get("raw_arguments", ""),
                        signature=c.get("signature", ""),
                    )
                    for c in m.get("tool_calls", ())
                ),
                tool_call_id=m.get("tool_call_id"),
                name=m.get("name"),
            )
            for m in data["messages"]
        ),
        model=data.get("model"),
        purpose=data.get("purpose", "main"),
        tools=tuple(
            ToolSpec(
                name=t["name"],
                description=t.get("description", ""),
                parameters=t.get("parameters", {}),
                few_shot_examples=tuple(t.get("few_shot_examples", ())),
            )
            for t in data.get("tools", ())
        ),
        model_params=data.get("model_params", {}),
        prompt_name=data.get("prompt_name"),
        prompt_version=data.get("prompt_version"),
    )


def event_to_dict(event: StreamEvent) -> dict[str, Any]:
    data: dict[str, Any] = {"type": event.type}
    if event.text:
        data["text"] = event.text
    if event.tool_call is not None:
        data["tool_call"] = _tool_call_to_dict(event.tool_call)
    if event.usage is not None:
        data["usage"] = {"prompt_tokens": event.usage.prompt_tokens, "completion_tokens": event.usage.completion_tokens}
        if event.usage.reasoning_tokens:
            data["usage"]["reasoning_tokens"] = event.usage.reasoning_tokens
    if event.finish_reason:
        data["finish_reason"] = event.finish_reason
    if event.model:
        data["model"] = event.model
    if event.error is not None:
        data["error"] = str(event.error)
    return data


def _is_plain_text(event: StreamEvent) -> bool:
    return (
        event.tool_call is None
        and event.usage is None
        and not event.finish_reason
        and not event.model
        and event.error is None
    )


def _plain_text_record(event: Mapping[str, Any]) -> bool:
    return event.get("type") == "text" and set(event) == {"type", "text"}


def merge_text_events(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events with each run of consecutive text events joined into one, as a call's record keeps them."""
    merged: list[dict[str, Any]] = []
    for event in events:
        if _plain_text_record(event) and merged and _plain_text_record(merged[-1]):
            merged[-1] = {"type": "text", "text": merged[-1]["text"] + event["text"]}
        else:
            merged.append(event)
    return merged


# --- one call ------------------------------------------------------------------


@dataclass
class CallTrace:
    provider: str
    model: str
    kind: str
    request: dict[str, Any] = field(default_factory=dict)
    prompt_name: str = ""
    prompt_version: int | None = None
    correlation_id: str | None = None
    wire_request: dict[str, Any] = field(default_factory=dict)
    raw: list[str] = field(default_factory=list)
    # Consecutive text events are kept as one (see ``merge_text_events``); the
    # pieces of the run being streamed wait in ``_text`` until another event comes.
    events: list[dict[str, Any]] = field(default_factory=list)
    _text: list[str] = field(default_factory=list, init=False, repr=False)
    result: dict[str, Any] = field(default_factory=dict)
    usage: Usage = field(default_factory=Usage)
    status: int | None = None
    error: str = ""
    retries: int = 0
    cancelled: bool = False
    started: float = field(default_factory=time.perf_counter)
    first_token: float | None = None
    record_id: int | None = None

    @classmethod
    def begin(cls, *, provider: str, model: str, kind: str, request: ChatRequest | None = None) -> CallTrace:
        return cls(
            provider=provider,
            model=model,
            kind=kind,
            request=request_to_dict(request) if request is not None else {},
            prompt_name=(request.prompt_name or "") if request is not None else "",
            prompt_version=request.prompt_version if request is not None else None,
            correlation_id=correlation.get(),
        )

    def add_raw(self, data: str) -> None:
        self.raw.append(data)

    @property
    def finished(self) -> bool:
        """True once the final event (done or error) was emitted."""
        return bool(self.events) and self.events[-1]["type"] in ("done", "error")

    def add_event(self, event: StreamEvent) -> None:
        if self.first_token is None and event.type in ("text", "tool_call"):
            self.first_token = time.perf_counter()
        if event.type == "text" and event.text and _is_plain_text(event):
            # The per-token path: no record of its own, so a long answer keeps a
            # list of strings (which the garbage collector never walks) rather
            # than a dict per token for as long as it streams.
            self._text.append(event.text)
            return
        self._end_text_run()
        if event.type == "usage" and event.usage is not None:
            self.usage = event.usage
        elif event.type == "done":
            self.result = {
                "text": event.text,
                "tool_calls": [e["tool_call"] for e in self.events if e["type"] == "tool_call"],
                "finish_reason": event.finish_reason,
                "model": event.model,
            }
        elif event.type == "error" and event.error is not None:
            self.fail(event.error)
            self.result = {"partial_text": event.text}
        self.events.append(event_to_dict(event))

    def _end_text_run(self) -> None:
        if self._text:
            self.events.append({"type": "text", "text": "".join(self._text)})
            self._text.clear()

    def fail(self, exc: Exception) -> None:
        self.error = str(exc)
        if isinstance(exc, LLMError) and exc.status is not None:
            self.status = exc.status

    @property
    def outcome(self) -> str:
        if self.cancelled:
            return "cancelled"
        return "error" if self.error else "ok"

    @property
    def latency_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000

    @property
    def ttft_ms(self) -> float | None:
        return None if self.first_token is None else (self.first_token - self.started) * 1000

    def as_record(self) -> dict[str, Any]:
        """The fields of an ``LLMCall`` row (and of the JSON file)."""
        self._end_text_run()
        return {
            "provider": self.provider,
            "model": self.model,
            "kind": self.kind,
            "prompt_name": self.prompt_name,
            "prompt_version": self.prompt_version,
            "correlation_id": self.correlation_id,
            "request": redact(self.request),
            "wire_request": redact(self.wire_request),
            "response": self.raw,
            "events": redact(self.events),
            "result": self.result,
            "outcome": self.outcome,
            "http_status": self.status,
            "error": self.error,
            "latency_ms": round(self.latency_ms, 3),
            "ttft_ms": None if self.ttft_ms is None else round(self.ttft_ms, 3),
            "prompt_tokens": self.usage.prompt_tokens,
            "completion_tokens": self.usage.completion_tokens,
            "retries": self.retries,
        }


def _log(trace: CallTrace, record: Mapping[str, Any]) -> None:
    logger.info(
        "%s %s %s prompt=%s %s in %.0f ms (first token %s ms), tokens %d+%d%s",
        trace.kind,
        trace.provider,
        trace.model,
        trace.prompt_name or "-",
        trace.outcome,
        record["latency_ms"],
        "-" if record["ttft_ms"] is None else f"{record['ttft_ms']:.0f}",
        trace.usage.prompt_tokens,
        trace.usage.completion_tokens,
        f": {trace.error}" if trace.error else "",
    )
    if logger.isEnabledFor(logging.DEBUG) and trace.kind == "chat":
        prompt = "\n".join(f"[{m['role']}] {m['content']}" for m in trace.request.get("messages", ()))
        output = trace.result.get("text") or trace.result.get("partial_text") or ""
        logger.debug("prompt: %s", truncate(prompt))
        logger.debug("output: %s", truncate(output))


def _write_file(directory: str, record: Mapping[str, Any], record_id: int | None) -> Path:
    # Records hold prompts and code: readable by the server's own user only, from the moment they exist.
    folder = Path(directory)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    folder.chmod(0o700)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    name = f"{stamp}-{record['provider']}-{record_id if record_id is not None else 'unsaved'}.json"
    path = folder / name
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as handle:
        handle.write(json.dumps({"id": record_id, **record}, ensure_ascii=False, indent=2, default=str))
    return path


def forget(correlation_ids: Iterable[str]) -> int:
    """Delete the records (rows and files) of the calls made for these correlation ids; how many went.

    Callers delete what their objects caused: a chat deleted takes its messages' calls with it.
    """
    from llm.models import LLMCall

    calls = LLMCall.objects.filter(correlation_id__in=list(correlation_ids))
    ids = list(calls.values_list("id", flat=True))
    if not ids:
        return 0
    calls.delete()
    directory = settings.LLM.get("AUDIT_DIR")
    if directory and Path(directory).is_dir():
        wanted = {str(record_id) for record_id in ids}
        for path in Path(directory).glob("*.json"):
            # Named <time>-<provider>-<id>.json (_write_file).
            if path.stem.rsplit("-", 1)[-1] in wanted:
                path.unlink(missing_ok=True)
    return len(ids)


def _store(record: Mapping[str, Any]) -> int:
    from llm.models import LLMCall

    return LLMCall.objects.create(**record).pk


@asynccontextmanager
async def stored_in_background() -> AsyncIterator[None]:
    """Calls finished inside are stored without their caller waiting; leaving waits for all of them."""
    pending: set[asyncio.Task[None]] = set()
    token = _background.set(pending)
    try:
        yield
    finally:
        _background.reset(token)
        # A cancelled waiter leaves the storing tasks running: the rows are still written.
        while pending:
            await asyncio.wait(set(pending))


async def finish(trace: CallTrace) -> None:
    """Log and store one finished call. Storing never breaks the caller's answer."""
    record = trace.as_record()
    _log(trace, record)
    if not settings.LLM.get("AUDIT", True):
        return
    pending = _background.get()
    if pending is None:
        await _keep(trace, record)
        return
    task = asyncio.get_running_loop().create_task(_keep(trace, record))
    pending.add(task)
    task.add_done_callback(pending.discard)


async def _keep(trace: CallTrace, record: Mapping[str, Any]) -> None:
    try:
        trace.record_id = await in_database_pool(_store)(record)
    except asyncio.CancelledError:
        raise
    except Exception:
        logger.warning("could not store the audit record of a %s call", trace.provider, exc_info=True)
    directory = settings.LLM.get("AUDIT_DIR")
    if directory:
        try:
            await asyncio.to_thread(_write_file, directory, record, trace.record_id)
        except OSError:
            logger.warning("could not write the audit file into %s", directory, exc_info=True)

"""The provider-neutral vocabulary of the LLM layer.

Messages, tool definitions and requests go in; typed stream events come out.
Every adapter translates between these and its provider's wire format, so
nothing above ``llm/providers`` knows which provider answered.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Role = Literal["system", "user", "assistant", "tool"]
EventType = Literal["text", "tool_call", "usage", "done", "error"]


@dataclass(frozen=True)
class ToolCall:
    """A whole tool call (stream deltas are accumulated before one is emitted)."""

    id: str
    name: str
    arguments: Mapping[str, Any]
    # The arguments as the model sent them; kept for audit when they were not valid JSON.
    raw_arguments: str = ""
    # Opaque data the provider wants back with the call in the next request's history
    # (Gemini's ``thoughtSignature`` of thinking models, refused when missing).
    signature: str = ""


@dataclass(frozen=True)
class Message:
    role: Role
    content: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    # For role="tool": which call this answers, and the tool's name.
    tool_call_id: str | None = None
    name: str | None = None


@dataclass(frozen=True)
class ToolSpec:
    """A tool the model may call; ``parameters`` is a JSON schema object."""

    name: str
    description: str
    parameters: Mapping[str, Any]
    # GigaChat accepts example requests per function; other providers ignore them.
    few_shot_examples: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int = 0
    # All output tokens, a thinking model's thoughts included (billed and counted against the limit).
    completion_tokens: int = 0
    # Of ``completion_tokens``, the ones the model spent thinking (never shown as text).
    reasoning_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass(frozen=True)
class ChatRequest:
    messages: tuple[Message, ...]
    # None: the provider's configured model for ``purpose``.
    model: str | None = None
    purpose: Literal["main", "summarization"] = "main"
    tools: tuple[ToolSpec, ...] = ()
    # The portable parameter contract (see llm/params.py): temperature,
    # max_tokens, json_schema, ... translated per adapter.
    model_params: Mapping[str, Any] = field(default_factory=dict)
    # For the audit record.
    prompt_name: str | None = None
    prompt_version: int | None = None


@dataclass(frozen=True)
class StreamEvent:
    """One event of a streamed answer.

    - ``text``: ``text`` holds the new delta.
    - ``tool_call``: ``tool_call`` holds a whole call.
    - ``usage``: ``usage`` holds token counts.
    - ``done``: the answer is complete; ``text`` is the whole text,
      ``finish_reason`` why it stopped, ``model`` the model that answered.
    - ``error``: the stream failed; ``error`` is the typed error and ``text``
      the text received before it broke.
    """

    type: EventType
    text: str = ""
    tool_call: ToolCall | None = None
    usage: Usage | None = None
    finish_reason: str | None = None
    model: str | None = None
    error: Exception | None = None


@dataclass(frozen=True)
class Completion:
    """A non-streamed answer, built by draining a stream."""

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    usage: Usage = field(default_factory=Usage)
    finish_reason: str | None = None
    model: str | None = None

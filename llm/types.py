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


@dataclass
class CompletionState:
    """Stream events folded into the ``Completion`` they add up to (openai-python's ``ChatCompletionStreamState``).

    ``add`` passes over ``error`` events (the reader decides how a failed
    stream ends); ``completion`` needs the ``done`` event.
    """

    text: list[str] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage | None = None
    done: StreamEvent | None = None

    def add(self, event: StreamEvent) -> None:
        if event.type == "text":
            self.text.append(event.text)
        elif event.type == "tool_call" and event.tool_call is not None:
            self.tool_calls.append(event.tool_call)
        elif event.type == "usage" and event.usage is not None:
            self.usage = event.usage
        elif event.type == "done":
            self.done = event

    def completion(self, text: str | None = None) -> Completion:
        """The whole answer; ``text`` stands for the streamed text when the reader showed other text."""
        done = self.done
        assert done is not None, "a completion is built after the done event"
        return Completion(
            text=text if text is not None else (done.text or "".join(self.text)),
            tool_calls=tuple(self.tool_calls),
            usage=self.usage or Usage(),
            finish_reason=done.finish_reason,
            model=done.model,
        )

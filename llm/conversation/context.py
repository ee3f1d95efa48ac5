"""One model context of a dialog: system prompt, an optional summary, and the verbatim turns after it."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from llm.tokens import BYTES_PER_TOKEN, MESSAGE_OVERHEAD_TOKENS, estimate_message_tokens, estimate_tokens
from llm.types import Message

SUMMARY_HEADING = "Summary of the earlier part of this conversation"


@dataclass(frozen=True)
class Summary:
    """A summary standing for the dialog's messages ``[0, covered_messages)``."""

    text: str
    covered_messages: int

    def as_message(self) -> Message:
        return Message(role="system", content=f"{SUMMARY_HEADING} (its first {self.covered_messages} messages):\n{self.text}")


class LLMContext:
    """The history one model sees, and the prompt built from it.

    Messages are kept with their absolute position in the dialog: ``start`` is
    the index of the first verbatim message, so a summary covers exactly
    ``[0, start)``. Token counts are estimates (``llm.tokens``) kept up to date
    on every append, so asking for the usage ratio costs nothing per chunk.
    """

    def __init__(
        self,
        *,
        system_prompt: str,
        window: int,
        answer_reserve: int = 0,
        response_format: str = "",
        summary: Summary | None = None,
        messages: Iterable[Message] = (),
    ) -> None:
        if window <= 0:
            raise ValueError("the context window must be positive")
        self.system_prompt = system_prompt
        self.window = window
        self.answer_reserve = answer_reserve
        self.response_format = response_format
        self.summary = summary
        self.messages: list[Message] = []
        self._message_tokens = 0
        self._fixed_tokens = estimate_message_tokens([self._system_message()])
        for message in messages:
            self.append(message)

    # --- history ---------------------------------------------------------------

    @property
    def start(self) -> int:
        return self.summary.covered_messages if self.summary else 0

    @property
    def end(self) -> int:
        """The dialog position after the last message (the dialog's length as this context knows it)."""
        return self.start + len(self.messages)

    def append(self, message: Message) -> None:
        self.messages.append(message)
        self._message_tokens += estimate_message_tokens([message])

    def history(self) -> tuple[Message, ...]:
        """The summary (as a system message) and the verbatim messages, without the system prompt."""
        head = (self.summary.as_message(),) if self.summary else ()
        return (*head, *self.messages)

    def derive(self, *, summary: Summary | None, messages: Sequence[Message]) -> LLMContext:
        """A context with the same prompt and window but another summary and history."""
        return LLMContext(
            system_prompt=self.system_prompt,
            window=self.window,
            answer_reserve=self.answer_reserve,
            response_format=self.response_format,
            summary=summary,
            messages=messages,
        )

    # --- the prompt ----------------------------------------------------------------

    def _system_message(self) -> Message:
        # One leading system message: some providers accept no other system message.
        parts = [self.system_prompt.strip()]
        if self.response_format:
            parts.append(self.response_format.strip())
        if self.summary:
            parts.append(self.summary.as_message().content)
        return Message(role="system", content="\n\n".join(part for part in parts if part))

    def set_summary(self, summary: Summary | None) -> None:
        self.summary = summary
        self._fixed_tokens = estimate_message_tokens([self._system_message()])

    def build_messages(self, user_text: str | None = None) -> tuple[Message, ...]:
        """System prompt (with the response format and the summary), the history, and the new user message."""
        tail = (Message(role="user", content=user_text),) if user_text is not None else ()
        return (self._system_message(), *self.messages, *tail)

    # --- budgeting -------------------------------------------------------------------

    def prompt_tokens(self, extra_text: str = "") -> int:
        extra = MESSAGE_OVERHEAD_TOKENS + estimate_tokens(extra_text) if extra_text else 0
        return self._fixed_tokens + self._message_tokens + extra

    def estimate_usage_ratio(self, extra_text: str = "", *, extra_tokens: int = 0) -> float:
        """Share of the model's window the prompt takes (with ``extra_text`` as one more message), in [0, 1]."""
        used = self.prompt_tokens(extra_text) + extra_tokens
        return min(1.0, max(0.0, used / self.window))

    def summarization_slice(self, keep_tokens: int, *, min_keep: int = 2) -> tuple[list[Message], list[Message]]:
        """``(older, recent)``: the recent messages within ``keep_tokens`` (at least ``min_keep``) and the rest.

        The older part is what a summary replaces; an empty one means there is nothing to summarize yet.
        """
        kept_tokens = 0
        split = len(self.messages)
        while split > 0:
            cost = estimate_message_tokens([self.messages[split - 1]])
            kept = len(self.messages) - split
            if kept >= min_keep and kept_tokens + cost > keep_tokens:
                break
            kept_tokens += cost
            split -= 1
        # Keep whole exchanges: the recent part starts at a user message, not in the middle of one.
        while 0 < split < len(self.messages) and self.messages[split].role != "user":
            split -= 1
        return list(self.messages[:split]), list(self.messages[split:])


@dataclass(frozen=True)
class FittedRequest:
    messages: tuple[Message, ...]
    # Messages of the history left out, and whether a message had to be cut.
    dropped: int = 0
    truncated: bool = False


def fit_to_window(messages: Sequence[Message], budget: int) -> FittedRequest:
    """The hard guard: ``messages`` within ``budget`` estimated tokens.

    Drops the oldest history messages first (keeping the leading system
    message and the last message); if that is not enough, cuts the longest
    remaining message from its start, since the end of a message is what the
    model needs to answer.
    """
    kept = list(messages)
    dropped = 0
    while estimate_message_tokens(kept) > budget and len(kept) > 2:
        first_history = 1 if kept[0].role == "system" else 0
        if first_history >= len(kept) - 1:
            break
        del kept[first_history]
        dropped += 1
    truncated = False
    excess = estimate_message_tokens(kept) - budget
    if excess > 0:
        longest = max(range(len(kept)), key=lambda index: len(kept[index].content))
        message = kept[longest]
        # Tokens are estimated from UTF-8 bytes and every character is at least one byte, so
        # cutting BYTES_PER_TOKEN characters per excess token (plus room for the marker) is enough.
        cut = min(len(message.content), math.ceil(excess * BYTES_PER_TOKEN) + 16)
        kept[longest] = replace(message, content=f"[...]{message.content[cut:]}")
        truncated = True
    return FittedRequest(messages=tuple(kept), dropped=dropped, truncated=truncated)

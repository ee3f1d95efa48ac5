"""Summaries of the older part of a dialog, made by ``models.summarization``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from llm.prompts import aget_prompt
from llm.providers.base import Provider
from llm.retry import ProviderProtocolError
from llm.tokens import BYTES_PER_TOKEN, estimate_tokens
from llm.types import ChatRequest, Message

ROLE_LABELS = {"user": "User", "assistant": "Assistant", "system": "Note", "tool": "Tool result"}


@dataclass(frozen=True)
class SummaryResult:
    text: str
    model: str


def render_transcript(previous_summary: str, messages: Sequence[Message], *, max_tokens: int) -> str:
    """The text the summarization model reads: the earlier summary, then the messages.

    When it does not fit ``max_tokens``, the oldest messages go first: the
    earlier summary already stands for them in part, and the recent ones
    matter most.
    """
    head = f"Summary of the conversation before these messages:\n{previous_summary}\n\n" if previous_summary else ""
    lines = [f"{ROLE_LABELS.get(m.role, m.role)}: {m.content}" for m in messages if m.content]
    budget = max_tokens - estimate_tokens(head) - 16
    kept: list[str] = []
    used = 0
    for line in reversed(lines):
        cost = estimate_tokens(line) + 1
        if used + cost > budget:
            if not kept:
                # A single message larger than the budget: keep its end.
                kept.append("[...]" + line[-int(max(budget, 1) * BYTES_PER_TOKEN) :])
            break
        kept.append(line)
        used += cost
    omitted = len(lines) - len(kept)
    note = f"[{omitted} older messages omitted]\n" if omitted else ""
    return f"{head}Messages:\n{note}" + "\n\n".join(reversed(kept))


class Summarizer:
    """Asks the provider's summarization model for a summary of a span of the dialog."""

    def __init__(self, provider: Provider, *, max_summary_tokens: int) -> None:
        self.provider = provider
        self.max_summary_tokens = max_summary_tokens

    @property
    def available(self) -> bool:
        """False for the offline provider: its answers are a notice, which must never become a summary."""
        return self.provider.generates_text

    async def summarize(self, previous_summary: str, messages: Sequence[Message]) -> SummaryResult:
        """Raises the provider's ``LLMError`` when the call fails."""
        prompt = await aget_prompt("summarization")
        window = self.provider.context_window("summarization")
        input_budget = window - self.max_summary_tokens - estimate_tokens(prompt.text) - 64
        transcript = render_transcript(previous_summary, messages, max_tokens=max(input_budget, 256))
        request = ChatRequest(
            messages=(Message(role="system", content=prompt.text), Message(role="user", content=transcript)),
            purpose="summarization",
            model_params={"max_tokens": self.max_summary_tokens, "temperature": 0.2},
            prompt_name="summarization",
            prompt_version=prompt.version,
        )
        completion = await self.provider.complete(request)
        if not completion.text.strip():
            raise ProviderProtocolError("the summarization model answered with an empty summary", provider=self.provider.name)
        return SummaryResult(text=completion.text.strip(), model=completion.model or self.provider.model_for("summarization"))

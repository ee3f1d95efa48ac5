"""Prompts for the agent's model calls, through the LLM layer's prompt service.

The name and version of each prompt travel with the request, so the audit
shows which text (file default or admin version) produced an answer.
"""

from __future__ import annotations

from llm.prompts import PromptText, aget_prompt
from llm.types import Message


async def load_prompt(name: str) -> PromptText:
    return await aget_prompt(name)


async def system_message(prompt: PromptText, *extra: str) -> Message:
    """The product's ``system`` prompt, then the task's prompt, then any turn-specific notes."""
    base = await aget_prompt("system")
    return Message("system", "\n\n".join(part.strip() for part in (base.text, prompt.text, *extra) if part.strip()))


def unfenced(text: str) -> str:
    """A model's answer without the Markdown code fence some models wrap JSON in even when asked not to.

    Plain string operations: a lazy regular expression over the answer took
    time quadratic in a run of whitespace inside it.
    """
    cleaned = text.strip()
    if len(cleaned) >= 6 and cleaned.startswith("```") and cleaned.endswith("```"):
        inner = cleaned[3:-3]
        return inner.removeprefix("json").strip()
    return cleaned

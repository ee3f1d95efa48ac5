"""What every node of one turn shares: the provider, the knobs, the project tools, the meters.

``TurnServices`` is the ``services`` object of the graph run. The context
carries the turn's values; this carries the things values are made with.
Usage is metered here rather than in the context so a turn that fails or is
stopped still reports the tokens it spent.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chat.agent.config import AgentConfig
from chat.agent.events import AgentEvent
from llm.graph import AgentContext, Runtime
from llm.providers.base import Provider
from llm.retry import LLMError
from llm.types import ChatRequest, Completion, ToolCall, Usage

if TYPE_CHECKING:
    from chat.agent.tools import ProjectToolbox


@dataclass
class UsageMeter:
    tokens_in: int = 0
    tokens_out: int = 0
    calls: int = 0
    model: str = ""

    def add(self, usage: Usage | None, model: str | None) -> None:
        self.calls += 1
        if usage is not None:
            self.tokens_in += usage.prompt_tokens
            self.tokens_out += usage.completion_tokens
        if model:
            self.model = model

    def as_detail(self) -> dict[str, Any]:
        return {"tokens_in": self.tokens_in, "tokens_out": self.tokens_out, "model": self.model, "calls": self.calls}


@dataclass
class TurnServices:
    provider: Provider
    config: AgentConfig
    # None when the chat has no repository (or it has no index yet).
    toolbox: ProjectToolbox | None = None
    repository_name: str = ""
    usage: UsageMeter = field(default_factory=UsageMeter)

    @property
    def offline(self) -> bool:
        """True when no model generates text: answers are extracted or explained instead."""
        return not self.provider.generates_text


def model_params(ctx: AgentContext[Any]) -> dict[str, Any]:
    """The context's settings as the portable ``model_params``."""
    return {} if ctx.settings.temperature is None else {"temperature": ctx.settings.temperature}


async def stream_model(runtime: Runtime[TurnServices], request: ChatRequest, *, lead: str = "") -> Completion:
    """Call the model, streaming its text to the page as it arrives; the whole answer when done.

    ``lead`` is streamed just before the first delta (it separates this
    answer's text from text an earlier call of the turn streamed). Raises the provider's ``LLMError`` when the stream ends with an error; the
    text already streamed stays on the page.
    """
    services = runtime.services
    text: list[str] = []
    calls: list[ToolCall] = []
    usage: Usage | None = None
    events: AsyncIterator[Any] = services.provider.stream(request)
    try:
        async for event in events:
            if event.type == "text" and event.text:
                delta = f"{lead}{event.text}" if not text else event.text
                text.append(event.text)
                await runtime.emit(AgentEvent(type="text", text=delta))
            elif event.type == "tool_call" and event.tool_call is not None:
                calls.append(event.tool_call)
            elif event.type == "usage" and event.usage is not None:
                usage = event.usage
            elif event.type == "error":
                services.usage.add(usage, event.model)
                error = event.error if isinstance(event.error, LLMError) else LLMError(str(event.error))
                raise error
            elif event.type == "done":
                services.usage.add(usage, event.model)
                return Completion(
                    text="".join(text),
                    tool_calls=tuple(calls),
                    usage=usage or Usage(),
                    finish_reason=event.finish_reason,
                    model=event.model,
                )
    finally:
        await events.aclose()  # type: ignore[attr-defined]
    raise LLMError("the model's answer ended without a done event")

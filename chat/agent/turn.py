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
from llm.conversation import structured
from llm.graph import AgentContext, Runtime
from llm.providers.base import Provider
from llm.retry import LLMError
from llm.types import ChatRequest, Completion, CompletionState, Usage

if TYPE_CHECKING:
    from chat.agent.tools import ProjectToolbox


@dataclass
class UsageMeter:
    tokens_in: int = 0
    tokens_out: int = 0
    # Of tokens_out, the thinking of reasoning models (never shown as text).
    tokens_thinking: int = 0
    calls: int = 0
    model: str = ""

    def add(self, usage: Usage | None, model: str | None) -> None:
        self.calls += 1
        if usage is not None:
            self.tokens_in += usage.prompt_tokens
            self.tokens_out += usage.completion_tokens
            self.tokens_thinking += usage.reasoning_tokens
        if model:
            self.model = model

    def as_detail(self) -> dict[str, Any]:
        return {
            "tokens_in": self.tokens_in, "tokens_out": self.tokens_out, "tokens_thinking": self.tokens_thinking,
            "model": self.model, "calls": self.calls,
        }


@dataclass
class SafetyVerdicts:
    """The structured answers of one turn: its verdict and each answering call's private reasoning.

    A turn answered over several calls (tool rounds) is unsafe as soon as one of them says so.
    """

    is_safe: bool | None = None
    internal_thoughts: list[str] = field(default_factory=list)
    calls: int = 0

    def fold(self, is_safe: bool | None) -> bool:
        """Take one call's verdict into the turn's; True when the turn's verdict changed."""
        if is_safe is None or self.is_safe is False or is_safe == self.is_safe:
            return False
        self.is_safe = is_safe
        return True

    def as_detail(self) -> dict[str, Any]:
        return {"is_safe": self.is_safe, "internal_thoughts": list(self.internal_thoughts)}


@dataclass
class TurnServices:
    provider: Provider
    config: AgentConfig
    # None when the chat has no repository (or it has no index yet).
    toolbox: ProjectToolbox | None = None
    repository_name: str = ""
    usage: UsageMeter = field(default_factory=UsageMeter)
    verdicts: SafetyVerdicts = field(default_factory=SafetyVerdicts)
    # The output limit of every call that writes to the user (None: the provider's default).
    max_answer_tokens: int | None = None

    @property
    def offline(self) -> bool:
        """True when no model generates text: answers are extracted or explained instead."""
        return not self.provider.generates_text

    @property
    def structured_answers(self) -> bool:
        """True when answering calls ask for ``{internal_thought, is_safe, answer}`` JSON."""
        return self.config.structured_answers and not self.offline


LENGTH_LIMIT_NOTE = "\n\n*(The answer reached its length limit.)*"


def model_params(ctx: AgentContext[Any]) -> dict[str, Any]:
    """The context's settings as the portable ``model_params``."""
    return {} if ctx.settings.temperature is None else {"temperature": ctx.settings.temperature}


def limited_to_the_answer_reserve(params: dict[str, Any], services: TurnServices) -> dict[str, Any]:
    """``params`` of a call whose text the user reads, with the room the conversation manager left for the answer."""
    if services.max_answer_tokens:
        params["max_tokens"] = services.max_answer_tokens
    return params


def answer_params(ctx: AgentContext[Any], services: TurnServices, *, with_tools: bool) -> dict[str, Any]:
    """``model_params`` of a call that may answer the user.

    In structured mode the schema is requested only on calls without tools:
    GigaChat turns a schema into a forced function call and Gemini refuses a
    JSON response type beside function declarations, so a call offering tools
    gets the format from the prompt alone (``structured_prompt_notes``).
    """
    params = limited_to_the_answer_reserve(model_params(ctx), services)
    if services.structured_answers and not with_tools and services.provider.supports_json_schema:
        params.update(structured.model_params())
    return params


def structured_prompt_notes(services: TurnServices, *, with_tools: bool) -> tuple[str, ...]:
    """What the system prompt of an answering call adds in structured mode."""
    if not services.structured_answers:
        return ()
    if with_tools:
        return ("Call tools whenever you need them; whenever you write text, follow this format.\n" + structured.FORMAT_INSTRUCTION,)
    return (structured.FORMAT_INSTRUCTION,)


async def stream_model(
    runtime: Runtime[TurnServices], request: ChatRequest, *, lead: str = "", structured_answer: bool = False
) -> Completion:
    """Call the model, streaming its text to the page as it arrives; the whole answer when done.

    ``lead`` is streamed just before the first delta (it separates this
    answer's text from text an earlier call of the turn streamed). Raises the provider's ``LLMError`` when the stream ends with an error; the
    text already streamed stays on the page.

    ``structured_answer``: the model answers ``{internal_thought, is_safe,
    answer}`` JSON. Only ``answer`` is streamed, and the completion's text is
    the answer alone; a ``verdict`` event precedes the first delta whenever the
    turn's verdict changes, and the reasoning goes to ``services.verdicts``.
    A model that ignored the format has its whole text as the answer.
    """
    services = runtime.services
    text: list[str] = []
    answer = CompletionState()
    parser = structured.StructuredAnswerParser() if structured_answer else None

    async def show(delta: str) -> None:
        await runtime.emit(AgentEvent(type="text", text=f"{lead}{delta}" if not text else delta))
        text.append(delta)

    async def show_structured(update: structured.StructuredUpdate, *, final: bool = False) -> None:
        # The parser releases nothing before is_safe is known, so the verdict always goes first.
        if (update.answer_delta or final) and services.verdicts.fold(update.is_safe):
            await runtime.emit(AgentEvent(type="verdict", detail={"is_safe": services.verdicts.is_safe}))
        if update.answer_delta:
            await show(update.answer_delta)

    events: AsyncIterator[Any] = services.provider.stream(request)
    try:
        async for event in events:
            answer.add(event)
            if event.type == "text" and event.text:
                if parser is None:
                    await show(event.text)
                else:
                    await show_structured(parser.feed(event.text))
            elif event.type == "error":
                services.usage.add(answer.usage, event.model)
                error = event.error if isinstance(event.error, LLMError) else LLMError(str(event.error))
                raise error
            elif event.type == "done":
                services.usage.add(answer.usage, event.model)
                if parser is not None:
                    await show_structured(parser.finish(), final=True)
                if event.finish_reason == "length":
                    # Said where the text stops, so a cut answer is not taken for a whole one; with
                    # no text at all (a reasoning model that spent the whole limit thinking) the
                    # note is the answer, not an empty message.
                    await show(LENGTH_LIMIT_NOTE if text else LENGTH_LIMIT_NOTE.lstrip())
                # The completion's text is what the page shows (the answer alone in structured mode).
                return answer.completion(text="".join(text))
    finally:
        await events.aclose()  # type: ignore[attr-defined]
        if parser is not None:
            # Kept for the record even when the answer failed or was stopped half-way.
            services.verdicts.calls += 1
            if parser.internal_thought:
                services.verdicts.internal_thoughts.append(parser.internal_thought)
    raise LLMError("the model's answer ended without a done event")

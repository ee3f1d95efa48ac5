"""Answers that need no repository: ``general``, and the intents whose graphs are not built yet."""

from __future__ import annotations

from chat.agent.events import AgentEvent, Intent
from chat.agent.prompting import load_prompt, system_message
from chat.agent.turn import TurnServices, model_params, stream_model
from llm.graph import AgentContext, FunctionNode, Node, Runtime, node
from llm.providers.offline import NO_MODEL_TEXT
from llm.types import ChatRequest, Message

OFFLINE_GENERAL_TEXT = (
    f"{NO_MODEL_TEXT}\n\nQuestions about this chat's repository are still answered, "
    "from its index and without generation."
)

UNAVAILABLE_TEXTS: dict[Intent, str] = {
    "docs": (
        "Writing documentation is not available yet. I can answer questions about the code "
        "in the meantime: ask where something is defined or how it works."
    ),
    "edits": (
        "Proposing code changes is not available yet. I can answer questions about the code "
        "in the meantime: ask where something is defined or how it works."
    ),
}


@node(name="general_answer")
async def general_answer(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    """A plain answer from the model with the ``general_answer`` prompt and the recent dialog."""
    services = runtime.services
    if services.offline:
        await runtime.emit(AgentEvent(type="text", text=OFFLINE_GENERAL_TEXT))
        return ctx.with_state(answer=OFFLINE_GENERAL_TEXT)
    prompt = await load_prompt("general_answer")
    request = ChatRequest(
        messages=(await system_message(prompt), *ctx.history, Message("user", ctx.input)),
        model=ctx.settings.model,
        model_params=model_params(ctx),
        prompt_name=prompt.name,
        prompt_version=prompt.version,
    )
    completion = await stream_model(runtime, request)
    return ctx.with_state(answer=completion.text)


def unavailable(intent: Intent) -> Node[str, str]:
    """A node that says the intent's capability is not available yet (its graph plugs in here later)."""
    text = UNAVAILABLE_TEXTS[intent]

    async def say_unavailable(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
        await runtime.emit(AgentEvent(type="text", text=text))
        return ctx.with_state(answer=text)

    return FunctionNode(name=f"{intent}_unavailable", fn=say_unavailable)

"""The ``general`` answer: a plain reply that needs no repository."""

from __future__ import annotations

from chat.agent.events import AgentEvent
from chat.agent.prompting import load_prompt, system_message
from chat.agent.turn import TurnServices, answer_params, stream_model, structured_prompt_notes
from llm.graph import AgentContext, Runtime, node
from llm.providers.offline import NO_MODEL_TEXT
from llm.types import ChatRequest, Message

OFFLINE_GENERAL_TEXT = (
    f"{NO_MODEL_TEXT}\n\nQuestions about this chat's repository are still answered, "
    "from its index and without generation."
)
OFFLINE_NO_REPOSITORY_TEXT = (
    f"{NO_MODEL_TEXT}\n\nConnect a repository to this chat to have questions about its code answered "
    "from its index, without generation."
)


@node(name="general_answer")
async def general_answer(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    """A plain answer from the model with the ``general_answer`` prompt and the recent dialog."""
    services = runtime.services
    if services.offline:
        text = OFFLINE_GENERAL_TEXT if ctx.state.get("has_repository") else OFFLINE_NO_REPOSITORY_TEXT
        await runtime.emit(AgentEvent(type="text", text=text))
        return ctx.with_state(answer=text)
    prompt = await load_prompt("general_answer")
    system = await system_message(prompt, *structured_prompt_notes(services, with_tools=False))
    request = ChatRequest(
        messages=(system, *ctx.history, Message("user", ctx.input)),
        model=ctx.settings.model,
        model_params=answer_params(ctx, services, with_tools=False),
        prompt_name=prompt.name,
        prompt_version=prompt.version,
    )
    completion = await stream_model(runtime, request, structured_answer=services.structured_answers)
    return ctx.with_state(answer=completion.text)

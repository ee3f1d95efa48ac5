"""Pluggable turn runners (the chat agent plugs in this way) and the offline provider."""

from __future__ import annotations

import uuid
from dataclasses import dataclass

import pytest

from llm.conversation.manager import ConversationManager, PreparedTurn
from llm.conversation.store import ConversationSummary
from llm.tokens import estimate_message_tokens
from llm.types import Message
from tests.llm.conversation.conftest import SYSTEM_PROMPT, DialogModels, question

pytestmark = pytest.mark.django_db(transaction=True)


@dataclass(frozen=True)
class Event:
    """Shaped like the agent's events: a ``type`` and a ``text``."""

    type: str
    text: str = ""


async def test_a_custom_runner_gets_the_prepared_context_and_its_events_pass_through(dialog_models: DialogModels):
    seen: list[PreparedTurn] = []

    async def runner(prepared: PreparedTurn):
        seen.append(prepared)
        yield Event("intent")
        yield "Hello "
        yield Event("text", "world")
        yield Event("done")

    manager = ConversationManager(f"s-{uuid.uuid4()}", system_prompt=SYSTEM_PROMPT, runner=runner, window=1500)
    first = [chunk async for chunk in manager.process_user_turn(question(1))]
    second = [chunk async for chunk in manager.process_user_turn(question(2))]
    await manager.shutdown()

    assert first[0].metadata is not None and first[0].event == Event("intent")
    assert [chunk.text for chunk in first if chunk.text] == ["Hello ", "world"]
    assert [chunk.event.type for chunk in first if chunk.event is not None] == ["intent", "done"]
    assert first[-1].answer == "Hello world" and first[-1].metrics.ttfc_ms is not None
    assert seen[1].text == question(2)
    assert seen[1].messages[0].role == "system" and seen[1].messages[-1] == Message("user", question(2))
    assert seen[1].history == (Message("user", question(1)), Message("assistant", "Hello world"))
    assert seen[1].model_params["max_tokens"] == 150 and manager.context.window == 1500
    assert second[-1].answer == "Hello world"
    assert dialog_models.main_requests() == []


async def test_an_error_event_ends_the_turn_with_its_message_and_keeps_the_dialog_usable(dialog_models: DialogModels):
    async def failing(prepared: PreparedTurn):
        yield "Partial "
        yield Event("error", "The model is unavailable.")

    manager = ConversationManager(f"s-{uuid.uuid4()}", system_prompt=SYSTEM_PROMPT, runner=failing)
    final = [chunk async for chunk in manager.process_user_turn(question(1))][-1]
    assert final.error == "The model is unavailable." and final.metrics.outcome == "error"
    assert final.answer == "Partial "

    async def working(prepared: PreparedTurn):
        yield "Fine."

    answer = [chunk async for chunk in manager.process_user_turn(question(2), runner=working)][-1]
    await manager.shutdown()
    assert answer.error == "" and answer.answer == "Fine."
    assert manager.context.messages == [
        Message("user", question(1)),
        Message("assistant", "Partial "),
        Message("user", question(2)),
        Message("assistant", "Fine."),
    ]


async def test_on_the_offline_provider_nothing_is_summarized_and_the_guard_keeps_requests_inside_the_window(settings):
    llm = {**settings.LLM, "PROVIDER": "offline", "AUDIT": False}
    llm["PROVIDERS"] = {**llm["PROVIDERS"], "offline": {"CONTEXT_WINDOWS": {"main": 1024, "summarization": 1024}}}
    settings.LLM = llm
    sizes: list[int] = []

    async def runner(prepared: PreparedTurn):
        sizes.append(estimate_message_tokens(prepared.messages) + prepared.model_params["max_tokens"])
        yield "An answer long enough to fill the window over a dozen turns. " * 3

    key = f"s-{uuid.uuid4()}"
    manager = ConversationManager(key, system_prompt=SYSTEM_PROMPT, runner=runner)
    finals = []
    for number in range(1, 16):
        finals.append([chunk async for chunk in manager.process_user_turn(question(number) * 3)][-1])
    await manager.shutdown()

    assert max(sizes) <= 1024
    assert sum(f.metrics.warmups for f in finals) == 0
    assert sum(f.metrics.trimmed_messages for f in finals) > 0
    assert not await ConversationSummary.objects.filter(session_key=key).aexists()

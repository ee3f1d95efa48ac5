"""The docs and edits graphs as the agent's answers for the ``docs`` and ``edits`` intents."""

from __future__ import annotations

import pytest
from asgiref.sync import async_to_sync

from chat.agent.agent import prepare_turn
from chat.agent.docs import build_docs_graph
from chat.agent.edits import build_edits_graph
from chat.agent.events import AgentEvent
from chat.agent.graph import build_agent_graph, intent_nodes
from chat.agent.agent import TurnInput
from llm.graph import Emitted, Runner
from tests.chat.docs_edits.conftest import texts

pytestmark = pytest.mark.django_db


def agent_turn(text: str, repository) -> list[AgentEvent]:
    nodes = {**intent_nodes(), "docs": build_docs_graph(), "edits": build_edits_graph()}
    turn = TurnInput(
        session_id=0, user_id=repository.owner_id, repository_id=repository.pk, text=text, history=(), correlation_id="t"
    )
    events: list[AgentEvent] = []

    def collect(item: Emitted) -> None:
        if isinstance(item.event, AgentEvent):
            events.append(item.event)

    prepared = prepare_turn(turn)

    async def go() -> None:
        await Runner(on_emit=collect).run(build_agent_graph(nodes), prepared.context, services=prepared.services)

    async_to_sync(go)()
    return events


def test_a_documentation_request_is_answered_by_the_docs_graph(shopapp, settings):
    settings.LLM = {**settings.LLM, "PROVIDER": "offline"}

    events = agent_turn("Write the documentation of this repository", shopapp)

    assert [e.intent for e in events if e.type == "intent"] == ["docs"]
    assert texts(events).startswith("# shopapp: reference\n")
    assert [e.detail["kind"] for e in events if e.type == "artifact"] == ["markdown"]


def test_an_edit_request_is_answered_by_the_edits_graph(shopapp, settings):
    settings.LLM = {**settings.LLM, "PROVIDER": "offline"}

    events = agent_turn("Refactor compute_tax to reject negative amounts", shopapp)

    assert [e.intent for e in events if e.type == "intent"] == ["edits"]
    assert texts(events).startswith("Proposing code changes needs a language model")

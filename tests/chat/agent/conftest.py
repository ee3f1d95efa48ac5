"""The agent's test bed: the shopapp fixture project indexed once per module, and turns run to the end.

Agent tests are plain sync tests that run a turn with ``async_to_sync``: the
agent's database calls (``sync_to_async``) then run on the test's own thread
and connection, inside its transaction, so the indexed repository built once
per module is visible and each test's own rows roll back.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from asgiref.sync import async_to_sync

from chat.agent.agent import TurnInput, stream_turn
from chat.agent.events import AgentEvent
from llm.types import Message
from rag.models import Repository
from tests.chat.conftest import indexed_shopapp
from tests.llm.fakes import fake_llm_server  # noqa: F401 (fixture)


@pytest.fixture(scope="module")
def shopapp(django_db_setup, django_db_blocker, tmp_path_factory) -> Iterator[Repository]:
    """The shopapp project uploaded and indexed through the real pipeline, once for the module."""
    with indexed_shopapp("agent-owner", tmp_path_factory, django_db_blocker) as repository:
        yield repository


def make_turn(text: str, repository: Repository | None, *, history: tuple[Message, ...] = ()) -> TurnInput:
    return TurnInput(
        session_id=0,
        user_id=repository.owner_id if repository is not None else 0,
        repository_id=repository.pk if repository is not None else None,
        text=text,
        history=history,
        correlation_id="test-turn",
    )


async def _collect(turn: TurnInput) -> list[AgentEvent]:
    return [event async for event in stream_turn(turn)]


def run_turn_to_end(turn: TurnInput) -> list[AgentEvent]:
    """Every event of one turn, in order."""
    return async_to_sync(_collect)(turn)


def answer_text(events: list[AgentEvent]) -> str:
    return "".join(event.text for event in events if event.type == "text")


def one(events: list[AgentEvent], kind: str) -> AgentEvent:
    found = [event for event in events if event.type == kind]
    assert len(found) == 1, f"expected one {kind} event, got {found}"
    return found[0]

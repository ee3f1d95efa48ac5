"""A turn as a stream: the history it is given, provider errors, and stopping mid-answer."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import async_to_sync

from chat import user_errors
from chat.agent.agent import stream_turn
from llm.types import Message
from tests.chat.agent.conftest import answer_text, make_turn, one, run_turn_to_end
from tests.llm.fakes import FakeProviderServer, Reply

pytestmark = pytest.mark.django_db



@pytest.fixture
def model(fake_llm_server: FakeProviderServer, settings) -> FakeProviderServer:
    # No audit rows: storing one closes the thread's connection, and these turns run on the test's.
    settings.LLM = {**fake_llm_server.llm_settings("openai"), "AUDIT": False}
    return fake_llm_server


def test_the_history_it_is_given_is_passed_to_the_model_as_it_is(model):
    # Fitted to the window before the turn (the chat's conversation manager): the agent does not trim it again.
    history = (
        Message("user", "old question"),
        Message("assistant", "old answer"),
        Message("user", "What is a generator?"),
        Message("assistant", "A function that yields."),
    )
    model.script(Reply.text("Use `yield from`."))

    events = run_turn_to_end(make_turn("And how do I delegate to another one?", None, history=history))

    sent = [(m["role"], m["content"]) for m in model.chat_requests[-1].json["messages"][1:]]
    assert sent == [
        ("user", "old question"),
        ("assistant", "old answer"),
        ("user", "What is a generator?"),
        ("assistant", "A function that yields."),
        ("user", "And how do I delegate to another one?"),
    ]
    assert answer_text(events) == "Use `yield from`."


def test_a_provider_error_ends_the_turn_with_a_user_message_and_keeps_the_text(model):
    model.script(Reply.text("Partial answer that breaks", chunk_size=4, cut_after=3))

    events = run_turn_to_end(make_turn("Explain closures", None))

    assert answer_text(events).startswith("Part")
    assert one(events, "error").text == user_errors.PROVIDER_UNREACHABLE
    assert events[-2].type == "usage" and events[-1].type == "error"


async def _stop_after_text(turn, deltas: int) -> list:
    events: list = []
    enough = asyncio.Event()

    async def consume() -> None:
        async for event in stream_turn(turn):
            events.append(event)
            if sum(1 for e in events if e.type == "text") >= deltas:
                enough.set()

    task = asyncio.create_task(consume())
    await asyncio.wait_for(enough.wait(), 10)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    return events


def test_stopping_a_turn_keeps_the_streamed_text_and_closes_the_model_stream(model):
    model.script(Reply.text("word " * 400, chunk_size=5, interval=0.01))

    events = async_to_sync(_stop_after_text)(make_turn("Tell me a long story", None), 3)

    assert answer_text(events).startswith("word word word")
    assert not any(event.type in ("done", "error") for event in events)
    deadline = time.monotonic() + 5
    while not model.disconnects and time.monotonic() < deadline:
        time.sleep(0.05)
    assert model.disconnects and model.disconnects[0]["chunks_sent"] < model.disconnects[0]["chunks_total"]

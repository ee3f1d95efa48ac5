"""Audit rows stored in the background: the caller does not wait, the block's end does."""

from __future__ import annotations

import asyncio

import pytest

from llm import audit
from llm.models import LLMCall
from llm.registry import get_provider
from llm.types import ChatRequest, Message
from tests.llm.fakes import Reply

pytestmark = pytest.mark.django_db(transaction=True)


def ask(text: str) -> ChatRequest:
    return ChatRequest(messages=(Message("user", text),), prompt_name="router_intent")


def trace_for(text: str) -> audit.CallTrace:
    trace = audit.CallTrace.begin(provider="openai", model="gpt-4o-mini", kind="chat")
    trace.request = {"messages": [{"role": "user", "content": text}]}
    return trace


async def test_finish_returns_before_the_row_is_stored_and_the_block_waits_for_it():
    trace = trace_for("route me")
    async with audit.stored_in_background():
        await audit.finish(trace)
        # Nothing was awaited since: the row is not stored yet, and the caller went on.
        assert trace.record_id is None
    assert trace.record_id is not None
    assert (await LLMCall.objects.aget(pk=trace.record_id)).request["messages"][0]["content"] == "route me"


async def test_calls_from_tasks_started_inside_are_waited_for_too(fake_openai):
    fake_openai.script(Reply.text("general", chunk_size=3), Reply.text("An answer.", chunk_size=4))

    async def call(text: str) -> str:
        return (await get_provider().complete(ask(text))).text

    async with audit.stored_in_background():
        answers = await asyncio.gather(asyncio.create_task(call("one")), asyncio.create_task(call("two")))
    assert sorted(answers) == ["An answer.", "general"]
    assert await LLMCall.objects.filter(outcome="ok").acount() == 2


async def test_rows_are_stored_even_when_the_waiting_caller_is_cancelled():
    traces = [trace_for(f"question {n}") for n in range(3)]
    entered = asyncio.Event()

    async def turn() -> None:
        async with audit.stored_in_background():
            for trace in traces:
                await audit.finish(trace)
            entered.set()

    task = asyncio.create_task(turn())
    await entered.wait()
    # Lands while the block's end waits for the rows (they need a trip through the database thread).
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)
    for _ in range(200):
        if await LLMCall.objects.acount() == len(traces):
            break
        await asyncio.sleep(0.01)
    stored = [row.request["messages"][0]["content"] async for row in LLMCall.objects.all()]
    assert sorted(stored) == ["question 0", "question 1", "question 2"]


async def test_outside_the_block_the_caller_waits_for_its_row():
    trace = trace_for("plain")
    await audit.finish(trace)
    assert trace.record_id is not None

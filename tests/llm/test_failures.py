"""The same failures, through every adapter's own wire format."""

from __future__ import annotations

import asyncio
import time

import pytest

from llm.registry import get_provider
from llm.retry import ProviderConnectionError, ProviderHTTPError, ProviderTimeout
from llm.types import ChatRequest, Message
from tests.llm.fakes import Reply

pytestmark = pytest.mark.usefixtures("without_audit_rows")

QUESTION = ChatRequest(messages=(Message("system", "Be brief."), Message("user", "Hello")))
ADAPTERS = ["fake_openai", "fake_gigachat", "fake_gemini"]


@pytest.fixture(params=ADAPTERS)
def fake(request):
    return request.getfixturevalue(request.param)


def with_provider_config(settings, **values):
    llm = dict(settings.LLM)
    name = llm["PROVIDER"]
    llm["PROVIDERS"] = {**llm["PROVIDERS"], name: {**llm["PROVIDERS"][name], **values}}
    settings.LLM = llm


async def events(request=QUESTION):
    return [event async for event in get_provider().stream(request)]


async def test_429_waits_for_retry_after_then_succeeds(fake):
    fake.script(Reply.error(429, "rate limited", retry_after="0.2"), Reply.text("after the wait"))
    started = time.perf_counter()
    answer = await get_provider().complete(QUESTION)
    assert answer.text == "after the wait"
    assert time.perf_counter() - started >= 0.2
    assert len(fake.chat_requests) == 2


async def test_500_then_success(fake):
    fake.script(Reply.error(500, "internal"), Reply.text("recovered"))
    assert (await get_provider().complete(QUESTION)).text == "recovered"


async def test_400_is_not_retried_and_keeps_the_providers_message(fake):
    fake.script(Reply.error(400, "messages must not be empty"))
    result = await events()
    assert isinstance(result[-1].error, ProviderHTTPError)
    assert result[-1].error.provider_message == "messages must not be empty"
    assert len(fake.chat_requests) == 1


async def test_a_slow_provider_times_out(fake, settings):
    with_provider_config(settings, TIMEOUT=0.3)
    settings.LLM = {**settings.LLM, "MAX_RETRIES": 0}
    fake.script(Reply.text("too late", delay=2))
    result = await events()
    assert result[-1].type == "error" and isinstance(result[-1].error, ProviderTimeout)


async def test_a_malformed_line_is_skipped(fake):
    fake.script(Reply.text("one two three four", chunk_size=4, malformed_at=1))
    result = await events()
    assert result[-1].type == "done" and result[-1].text == "one two three four"


async def test_a_cut_connection_ends_with_the_partial_text(fake):
    fake.script(Reply.text("first second third", chunk_size=6, cut_after=2))
    result = await events()
    assert result[-1].type == "error" and isinstance(result[-1].error, ProviderConnectionError)
    assert result[-1].text and "first second third".startswith(result[-1].text)
    assert len(fake.chat_requests) == 1


async def test_cancelling_stops_reading_the_upstream_stream(fake):
    fake.script(Reply.text("w" * 300, chunk_size=1, interval=0.01))
    seen: list[str] = []

    async def consume():
        async for event in get_provider().stream(QUESTION):
            seen.append(event.type)

    task = asyncio.create_task(consume())
    for _ in range(200):
        if len(seen) >= 2:
            break
        await asyncio.sleep(0.01)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(100):
        if fake.disconnects:
            break
        await asyncio.sleep(0.02)
    assert fake.disconnects and fake.disconnects[0]["chunks_sent"] < 100
    assert fake.completed_streams == 0

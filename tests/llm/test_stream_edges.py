"""Exact byte streams of real-world servers through the adapters (httpx.MockTransport)."""

from __future__ import annotations

import json

import httpx
import pytest

from llm.providers.gemini import GeminiProvider
from llm.providers.openai import OpenAIProvider
from llm.providers.base import stream_pace
from llm.retry import ProviderProtocolError, RetryPolicy
from llm.types import ChatRequest, Message

pytestmark = pytest.mark.usefixtures("without_audit_rows")

QUESTION = ChatRequest(messages=(Message("user", "hi"),), model="m")
FAST_RETRY = RetryPolicy(max_attempts=2, initial_interval=0.0, jitter=False)


def chunk(content: str | None = None, finish: str | None = None) -> str:
    delta = {} if content is None else {"content": content}
    return json.dumps({"object": "chat.completion.chunk", "model": "m", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})


def sse_transport(*bodies: bytes) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    """Answers the n-th request with the n-th body as an event stream."""
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        body = bodies[min(len(seen), len(bodies)) - 1]
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=body)

    return httpx.MockTransport(handler), seen


async def events_of(provider) -> list:
    return [event async for event in provider.stream(QUESTION)]


async def test_openrouter_comment_lines_and_crlf_are_understood():
    body = (
        ": OPENROUTER PROCESSING\r\n\r\n"
        f"data: {chunk('Hel')}\r\n\r\n"
        ": OPENROUTER PROCESSING\r\n\r\n"
        f"data: {chunk('lo')}\r\n\r\n"
        f"data: {chunk(None, 'stop')}\r\n\r\n"
        "data: [DONE]\r\n\r\n"
    ).encode()
    transport, _ = sse_transport(body)
    events = await events_of(OpenAIProvider({"BASE_URL": "http://llm.test/v1"}, transport=transport, retry_policy=FAST_RETRY))
    assert events[-1].type == "done" and events[-1].text == "Hello"


async def test_a_server_that_never_sends_done_still_finishes_on_finish_reason():
    body = f"data: {chunk('Hi')}\n\ndata: {chunk(None, 'length')}\n\n".encode()
    transport, _ = sse_transport(body)
    events = await events_of(OpenAIProvider({"BASE_URL": "http://llm.test/v1"}, transport=transport))
    assert (events[-1].type, events[-1].text, events[-1].finish_reason) == ("done", "Hi", "length")


async def test_a_stream_that_stops_before_any_text_is_retried():
    truncated = f"data: {json.dumps({'object': 'chat.completion.chunk', 'choices': [{'index': 0, 'delta': {'role': 'assistant'}}]})}\n\n".encode()
    whole = f"data: {chunk('fine')}\n\ndata: {chunk(None, 'stop')}\n\ndata: [DONE]\n\n".encode()
    transport, seen = sse_transport(truncated, whole)
    events = await events_of(OpenAIProvider({"BASE_URL": "http://llm.test/v1"}, transport=transport, retry_policy=FAST_RETRY))
    assert events[-1].type == "done" and events[-1].text == "fine"
    assert len(seen) == 2


async def test_a_stream_that_stops_after_text_ends_with_an_error_keeping_it():
    body = f"data: {chunk('half an ans')}\n\n".encode()
    transport, seen = sse_transport(body)
    events = await events_of(OpenAIProvider({"BASE_URL": "http://llm.test/v1"}, transport=transport, retry_policy=FAST_RETRY))
    assert events[-1].type == "error" and isinstance(events[-1].error, ProviderProtocolError)
    assert events[-1].text == "half an ans"
    assert len(seen) == 1


async def test_an_error_object_mid_stream_ends_the_answer_with_the_providers_message():
    body = (f"data: {chunk('Partial')}\n\n" + 'data: {"error": {"message": "upstream model crashed", "code": 502}}\n\n').encode()
    transport, _ = sse_transport(body)
    events = await events_of(OpenAIProvider({"BASE_URL": "http://llm.test/v1"}, transport=transport))
    assert events[-1].type == "error"
    assert events[-1].text == "Partial"
    assert "upstream model crashed" in str(events[-1].error)


async def test_a_paced_read_keeps_the_text_it_brought_before_an_error_object():
    body = (
        f"data: {chunk('Part')}\n\ndata: {chunk('ial')}\n\n"
        + 'data: {"error": {"message": "upstream model crashed", "code": 502}}\n\n'
    ).encode()
    transport, _ = sse_transport(body)
    token = stream_pace.set(lambda: 0.05)
    try:
        events = await events_of(OpenAIProvider({"BASE_URL": "http://llm.test/v1"}, transport=transport))
    finally:
        stream_pace.reset(token)
    assert [(e.type, e.text) for e in events] == [("text", "Partial"), ("error", "Partial")]
    assert "upstream model crashed" in str(events[-1].error)


async def test_gemini_blocked_prompts_are_reported_not_retried():
    body = b'data: {"promptFeedback": {"blockReason": "SAFETY"}}\n\n'
    transport, seen = sse_transport(body)
    events = await events_of(GeminiProvider({"API_KEY": "k", "BASE_URL": "http://llm.test/v1beta"}, transport=transport, retry_policy=FAST_RETRY))
    assert events[-1].type == "error" and "blocked: SAFETY" in str(events[-1].error)
    assert len(seen) == 1

"""GigaChat's v1 wire format as real exchanges recorded it (the GigaChat SDK's integration cassettes).

The fixtures below are ours, written from the facts of those recordings (fields, shapes, values,
order of events): a stream is ``data:`` events of ``object: "chat.completion"`` whose first delta
carries the role, whose last delta is an empty content with the finish reason and the usage
(``precached_prompt_tokens`` included), then ``[DONE]``; a whole answer is ``object:
"chat.completions"`` without an id; OAuth answers ``expires_at`` in milliseconds. The adapter reads
them through ``httpx.MockTransport``, and the fake server is held to the same shapes.
"""

from __future__ import annotations

import json

import httpx
import pytest

from llm.providers.gigachat import GigaChatProvider
from llm.types import ChatRequest, Message

pytestmark = pytest.mark.usefixtures("without_audit_rows")

TOKEN = {"access_token": "recorded-token", "expires_at": 4102444800000}
STREAM = [
    {"choices": [{"delta": {"content": "$1\\, 2\\, 3$", "role": "assistant"}, "index": 0}],
     "created": 1771250907, "model": "GigaChat:2.0.28.2", "object": "chat.completion"},
    {"choices": [{"delta": {"content": ""}, "index": 0, "finish_reason": "stop"}],
     "created": 1771250907, "model": "GigaChat:2.0.28.2", "object": "chat.completion",
     "usage": {"prompt_tokens": 17, "completion_tokens": 10, "total_tokens": 27, "precached_prompt_tokens": 2}},
]
WHOLE = {
    "choices": [{"message": {"content": "{\n    \"answer\": \"ok\",\n    \"n\": 3\n}", "role": "assistant"}, "index": 0,
                 "finish_reason": "stop"}],
    "created": 1776163519, "model": "GigaChat-3-Ultra:32.3.7.3", "object": "chat.completions",
    "usage": {"prompt_tokens": 24, "completion_tokens": 21, "total_tokens": 45, "precached_prompt_tokens": 0},
}
QUESTION = ChatRequest(messages=(Message("user", "Count from 1 to 3"),), model="GigaChat")


def recorded_server(chat_body: httpx.Response) -> tuple[httpx.MockTransport, list[httpx.Request]]:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path == "/api/v2/oauth":
            return httpx.Response(200, json=TOKEN)
        return chat_body

    return httpx.MockTransport(handler), seen


def provider(transport: httpx.MockTransport) -> GigaChatProvider:
    return GigaChatProvider(
        {"TOKEN": "a2V5", "AUTH_URL": "https://ngw.example/api/v2/oauth", "API_URL": "https://gigachat.example/api/v1"},
        transport=transport,
    )


def sse(payloads: list) -> httpx.Response:
    body = "".join(f"data: {p if isinstance(p, str) else json.dumps(p, ensure_ascii=False)}\n\n" for p in payloads)
    return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, content=body.encode())


async def test_a_recorded_stream_is_read_whole_with_its_usage():
    transport, seen = recorded_server(sse([*STREAM, "[DONE]"]))

    completion = await provider(transport).complete(QUESTION)

    assert (completion.text, completion.finish_reason, completion.model) == ("$1\\, 2\\, 3$", "stop", "GigaChat:2.0.28.2")
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (17, 10)
    token_request, chat_request = seen
    assert token_request.headers["RqUID"] and token_request.content == b"scope=GIGACHAT_API_PERS"
    assert chat_request.headers["Authorization"] == "Bearer recorded-token"


async def test_a_recorded_whole_answer_is_read():
    transport, _ = recorded_server(httpx.Response(200, json=WHOLE))

    completion = await provider(transport).complete(
        ChatRequest(messages=QUESTION.messages, model="GigaChat", model_params={"stream": False})
    )

    assert completion.text == WHOLE["choices"][0]["message"]["content"]
    assert (completion.usage.prompt_tokens, completion.usage.completion_tokens) == (24, 21)


def shape(value):
    """The keys at every level (values left out), as the recording and the fake must share them."""
    if isinstance(value, dict):
        return {key: shape(item) for key, item in value.items() if key not in ("created",)}
    if isinstance(value, list):
        return [shape(item) for item in value]
    return type(value).__name__


async def test_the_fake_servers_gigachat_answers_have_the_recorded_shapes(fake_llm_server):
    from tests.llm.fakes import Reply

    fake_llm_server.script(Reply.text("$1\\, 2\\, 3$", chunk_size=100), Reply.text("ok"))
    async with httpx.AsyncClient(base_url=fake_llm_server.url, timeout=10) as http:
        token = (await http.post(
            "/api/v2/oauth", data={"scope": "GIGACHAT_API_PERS"},
            headers={"Authorization": f"Basic {fake_llm_server.gigachat_key}", "RqUID": "00000000-0000-0000-0000-000000000000"},
        )).json()
        headers = {"Authorization": f"Bearer {token['access_token']}"}
        streamed = (await http.post("/api/v1/chat/completions", headers=headers,
                                    json={"model": "GigaChat", "messages": [{"role": "user", "content": "Count"}], "stream": True})).text
        whole = (await http.post("/api/v1/chat/completions", headers=headers,
                                 json={"model": "GigaChat", "messages": [{"role": "user", "content": "Count"}], "stream": False})).json()

    payloads = [line.removeprefix("data: ") for line in streamed.splitlines() if line.startswith("data: ")]
    assert shape(token) == shape(TOKEN) and token["expires_at"] > 10**12
    assert [shape(json.loads(p)) for p in payloads[:-1]] == [shape(p) for p in STREAM]
    assert payloads[-1] == "[DONE]"
    assert shape(whole) == shape(WHOLE)

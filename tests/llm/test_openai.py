"""The OpenAI-compatible adapter against the local fake server speaking its wire format."""

from __future__ import annotations

import asyncio
from contextlib import aclosing

import pytest

from llm.providers.base import stream_pace
from llm.registry import close_providers, get_provider
from llm.retry import LLMError, ProviderConnectionError, ProviderHTTPError
from llm.types import ChatRequest, Message, ToolCall, ToolSpec
from tests.llm.fakes import Reply

pytestmark = pytest.mark.usefixtures("without_audit_rows")

QUESTION = ChatRequest(messages=(Message("system", "Be brief."), Message("user", "Say hello")))


async def collect(provider, request=QUESTION):
    return [event async for event in provider.stream(request)]


async def test_it_streams_text_deltas_then_usage_and_done(fake_openai):
    fake_openai.script(Reply.text("Hello there, friend", chunk_size=4, usage=(12, 3)))
    events = await collect(get_provider())

    texts = [e.text for e in events if e.type == "text"]
    assert texts == ["Hell", "o th", "ere,", " fri", "end"]
    usage = next(e.usage for e in events if e.type == "usage")
    assert (usage.prompt_tokens, usage.completion_tokens) == (12, 3)
    assert events[-1].type == "done"
    assert events[-1].text == "Hello there, friend"
    assert events[-1].finish_reason == "stop"
    sent = fake_openai.chat_requests[-1]
    assert sent.headers["Authorization"] == "Bearer test-key"
    assert sent.json["stream"] is True
    assert sent.json["stream_options"] == {"include_usage": True}
    assert sent.json["model"] == "gpt-4o-mini"
    assert [m["role"] for m in sent.json["messages"]] == ["system", "user"]


async def test_it_accumulates_tool_call_deltas_into_whole_calls(fake_openai):
    fake_openai.script(Reply.tool_calls([("search", {"query": "retry policy", "limit": 5}), ("read_file", {"path": "a.py"})]))
    tool = ToolSpec("search", "Search the code", {"type": "object", "properties": {"query": {"type": "string"}}})
    completion = await get_provider().complete(
        ChatRequest(messages=(Message("user", "find it"),), tools=(tool,))
    )

    assert [(c.name, dict(c.arguments)) for c in completion.tool_calls] == [
        ("search", {"query": "retry policy", "limit": 5}),
        ("read_file", {"path": "a.py"}),
    ]
    assert completion.finish_reason == "tool_calls"
    assert fake_openai.chat_requests[-1].json["tools"][0]["function"]["name"] == "search"


async def test_it_sends_tool_results_back_in_the_openai_shape(fake_openai):
    first = await get_provider().complete(ChatRequest(messages=(Message("user", "x"),)))
    assert first.text == "ok"
    call = ToolCall(id="call_1", name="search", arguments={"q": "x"})
    await get_provider().complete(
        ChatRequest(
            messages=(
                Message("user", "find"),
                Message("assistant", "", tool_calls=(call,)),
                Message("tool", "found: a.py", tool_call_id="call_1", name="search"),
            )
        )
    )
    messages = fake_openai.chat_requests[-1].json["messages"]
    assert messages[1]["tool_calls"][0]["function"] == {"name": "search", "arguments": '{"q": "x"}'}
    assert messages[2] == {"role": "tool", "tool_call_id": "call_1", "content": "found: a.py"}




@pytest.mark.parametrize("status", [400, 403, 422])
async def test_it_never_retries_validation_errors(fake_openai, status):
    fake_openai.script(Reply.error(status, "you sent nonsense"))
    with pytest.raises(ProviderHTTPError) as caught:
        await get_provider().complete(QUESTION)
    assert caught.value.status == status
    assert caught.value.retryable is False
    assert caught.value.provider_message == "you sent nonsense"
    assert len(fake_openai.chat_requests) == 1


async def test_it_gives_up_after_the_configured_attempts(fake_openai, settings):
    settings.LLM = {**settings.LLM, "MAX_RETRIES": 2}
    fake_openai.script(*[Reply.error(503, "overloaded")] * 5)
    events = await collect(get_provider())

    assert events[-1].type == "error"
    assert isinstance(events[-1].error, ProviderHTTPError)
    assert events[-1].error.status == 503
    assert len(fake_openai.chat_requests) == 3



async def test_a_connection_cut_mid_stream_ends_with_an_error_keeping_the_partial_text(fake_openai):
    fake_openai.script(Reply.text("The answer is forty-two, because", chunk_size=5, cut_after=3))
    events = await collect(get_provider())

    assert events[-1].type == "error"
    assert isinstance(events[-1].error, ProviderConnectionError)
    # Chunk 1 is the role chunk; two text chunks arrived before the cut.
    assert events[-1].text == "The answer"
    # Text had already reached the caller, so the call is not silently repeated.
    assert len(fake_openai.chat_requests) == 1




async def test_it_embeds_in_batches_keeping_order(fake_openai, settings):
    llm = dict(settings.LLM)
    llm["PROVIDERS"] = {**llm["PROVIDERS"], "openai": {**llm["PROVIDERS"]["openai"], "EMBED_BATCH_SIZE": 2}}
    settings.LLM = llm
    vectors = await get_provider().embed(["a", "b", "c", "d", "e"])

    assert len(vectors) == 5
    assert len(fake_openai.requests_to("/v1/embeddings")) == 3
    assert vectors[0] != vectors[1]
    again = await get_provider().embed(["c"])
    assert again[0] == vectors[2]
    assert fake_openai.requests_to("/v1/embeddings")[0].json == {"model": "text-embedding-3-small", "input": ["a", "b"]}


async def test_a_server_that_ignores_stream_still_answers(fake_openai):
    completion = await get_provider().complete(
        ChatRequest(messages=(Message("user", "hi"),), model_params={"stream": False})
    )
    assert completion.text == "ok"
    assert fake_openai.chat_requests[-1].json["stream"] is False


async def test_errors_say_which_provider_failed(fake_openai):
    fake_openai.script(Reply.error(401, "bad key"))
    with pytest.raises(LLMError) as caught:
        await get_provider().complete(QUESTION)
    assert caught.value.provider == "openai"
    assert "bad key" in str(caught.value)
    assert len(fake_openai.chat_requests) == 1


async def test_a_reader_that_stops_early_closes_the_upstream_response(fake_openai):
    fake_openai.script(Reply.text("z" * 300, chunk_size=1, interval=0.01))
    async with aclosing(get_provider().stream(QUESTION)) as events:
        async for event in events:
            if event.type == "text":
                break
    for _ in range(100):
        if fake_openai.disconnects:
            break
        await asyncio.sleep(0.02)
    assert fake_openai.disconnects and fake_openai.disconnects[0]["chunks_sent"] < 100


async def test_calls_share_one_kept_alive_client_until_the_providers_are_closed(fake_openai):
    provider = get_provider()
    await provider.complete(QUESTION)
    await provider.complete(QUESTION)
    await provider.embed(["x"])
    ports = {request.client_port for request in fake_openai.requests}
    assert len(ports) == 1
    client = provider.http()

    await close_providers()
    assert client.is_closed
    assert get_provider() is not provider


def test_the_client_of_a_short_lived_loop_is_closed_when_that_loop_ends(fake_openai):
    from asgiref.sync import async_to_sync

    fake_openai.script(Reply.text("one"), Reply.text("two"))
    provider = get_provider()
    clients = []

    async def ask() -> str:
        completion = await provider.complete(QUESTION)
        clients.append(provider.http())
        return completion.text

    # Sync code (an index run's embeddings, a worker's job) reaches the model through a loop of its own per call.
    assert async_to_sync(ask)() == "one"
    assert async_to_sync(ask)() == "two"
    assert len(clients) == 2 and clients[0] is not clients[1]
    assert all(client.is_closed for client in clients)


# --- stream details the official SDK handles (openai-python's chunk models) ---------------------


def _chunk(**fields) -> str:
    import json

    return json.dumps({"id": "c1", "object": "chat.completion.chunk", "model": "m", **fields})


def test_a_null_error_field_in_every_chunk_is_no_error():
    from llm.providers.openai import OpenAIStreamParser

    parser = OpenAIStreamParser()
    parser.feed(_chunk(error=None, choices=[{"index": 0, "delta": {"content": "fine"}, "finish_reason": None}]))
    parser.feed(_chunk(error=None, choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}]))

    assert parser.finish()[-1].text == "fine"


def test_a_refusal_ends_as_the_providers_refusal_not_an_empty_answer():
    from llm.providers.openai import OpenAIStreamParser
    from llm.retry import LLMError

    parser = OpenAIStreamParser()
    parser.feed(_chunk(choices=[{"index": 0, "delta": {"refusal": "I can't help with that."}, "finish_reason": None}]))
    parser.feed(_chunk(choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}]))

    with pytest.raises(LLMError) as caught:
        parser.finish()
    assert caught.value.provider_message == "I can't help with that." and not caught.value.retryable


def test_with_several_choices_the_answer_is_the_first_one():
    from llm.providers.openai import OpenAIStreamParser

    parser = OpenAIStreamParser()
    for index, text in ((0, "first "), (1, "second "), (0, "answer")):
        parser.feed(_chunk(choices=[{"index": index, "delta": {"content": text}, "finish_reason": None}]))
    parser.feed(_chunk(choices=[{"index": 0, "delta": {}, "finish_reason": "stop"}, {"index": 1, "delta": {}, "finish_reason": "stop"}]))

    assert parser.finish()[-1].text == "first answer"


# --- a server that does not take response_format json_schema (llama.cpp's server) ------------

REFUSED_FORMAT = "response_format: Input should be 'text' or 'json_object'"
INTENT_SCHEMA = {"name": "intent", "schema": {"type": "object", "properties": {"intent": {"type": "string"}}}}


def _structured(model: str) -> ChatRequest:
    return ChatRequest(messages=(Message("user", "route this"),), model=model, model_params={"json_schema": INTENT_SCHEMA})


async def test_a_refused_json_schema_falls_back_to_json_object_at_once_and_is_remembered(fake_openai):
    fake_openai.script(Reply.error(500, REFUSED_FORMAT), Reply.text('{"intent": "general"}'), Reply.text('{"intent": "docs"}'))

    first = await get_provider().complete(_structured("local-a"))
    second = await get_provider().complete(_structured("local-a"))

    formats = [request.json.get("response_format") for request in fake_openai.chat_requests]
    assert [f["type"] for f in formats] == ["json_schema", "json_object", "json_object"]
    assert formats[1]["schema"] == INTENT_SCHEMA["schema"]
    assert (first.text, second.text) == ('{"intent": "general"}', '{"intent": "docs"}')


async def test_a_server_taking_neither_format_gets_the_schema_in_the_prompt(fake_openai):
    fake_openai.script(Reply.error(500, REFUSED_FORMAT), Reply.error(400, "response_format json_object is not supported"),
                       Reply.text('{"intent": "general"}'))

    answer = await get_provider().complete(_structured("local-b"))

    last = fake_openai.chat_requests[-1].json
    assert len(fake_openai.chat_requests) == 3
    assert "response_format" not in last
    assert last["messages"][0]["role"] == "system" and '"intent"' in last["messages"][0]["content"]
    assert answer.text == '{"intent": "general"}'


async def test_a_server_error_of_another_kind_is_not_taken_for_a_refused_format(fake_openai):
    fake_openai.script(Reply.error(500, "the model is overloaded"), Reply.text('{"intent": "general"}'))

    await get_provider().complete(_structured("local-c"))

    assert [r.json["response_format"]["type"] for r in fake_openai.chat_requests] == ["json_schema", "json_schema"]


async def test_a_model_without_a_system_role_gets_the_system_text_in_the_first_user_message(fake_openai, settings):
    openai = settings.LLM["PROVIDERS"]["openai"]
    settings.LLM = {**settings.LLM, "PROVIDERS": {**settings.LLM["PROVIDERS"], "openai": {**openai, "SYSTEM_ROLE": False}}}
    request = ChatRequest(messages=(Message("system", "Cite code."), Message("system", "Material: a.py"), Message("user", "Where?")))

    await get_provider().complete(request)

    assert fake_openai.chat_requests[-1].json["messages"] == [
        {"role": "user", "content": "Cite code.\n\nMaterial: a.py\n\nWhere?"}
    ]


# --- the same stream details over HTTP, from the fake server ----------------------------------


@pytest.mark.parametrize("stream", [True, False])
async def test_a_refusal_sent_by_the_server_ends_as_the_providers_refusal(fake_openai, stream):
    from llm.retry import ModelRefusal

    fake_openai.script(Reply.text("", refusal="I can't help with that request.", chunk_size=6))
    request = ChatRequest(messages=QUESTION.messages, model_params={} if stream else {"stream": False})

    with pytest.raises(ModelRefusal) as caught:
        await get_provider().complete(request)

    assert caught.value.provider_message == "I can't help with that request." and not caught.value.retryable
    assert len(fake_openai.chat_requests) == 1


@pytest.mark.parametrize("stream", [True, False])
async def test_with_several_choices_from_the_server_the_answer_is_the_first_one(fake_openai, stream):
    fake_openai.script(Reply.text("the first answer", other_choices=("another answer", "a third, longer answer"), chunk_size=4))
    params = {"n": 3} if stream else {"n": 3, "stream": False}

    completion = await get_provider().complete(ChatRequest(messages=QUESTION.messages, model_params=params))

    assert completion.text == "the first answer" and completion.finish_reason == "stop"
    assert fake_openai.chat_requests[-1].json["n"] == 3


@pytest.mark.parametrize("stream", [True, False])
async def test_a_server_sending_a_null_error_in_every_chunk_answers_normally(fake_openai, stream):
    fake_openai.script(Reply.text("all fine here", null_errors=True, usage=(5, 3)),
                       Reply.tool_call("search", {"query": "cart"}, null_errors=True))
    params = {} if stream else {"stream": False}

    answer = await get_provider().complete(ChatRequest(messages=QUESTION.messages, model_params=params))
    call = await get_provider().complete(ChatRequest(messages=QUESTION.messages, model_params=params))

    assert (answer.text, answer.usage.completion_tokens) == ("all fine here", 3)
    assert [(c.name, dict(c.arguments)) for c in call.tool_calls] == [("search", {"query": "cart"})]


@pytest.fixture
def paced():
    """Reads of this test's streams paced as a chat page paces them; each time the pace is asked is counted."""
    asked: list[float] = []

    def pace() -> float:
        asked.append(0.15)
        return 0.15

    token = stream_pace.set(pace)
    yield asked
    stream_pace.reset(token)


async def test_a_paced_stream_hands_on_what_each_read_brought_as_one_delta(fake_openai, paced):
    pieces = [f"w{index} " for index in range(12)]
    fake_openai.script(Reply.stream(pieces, interval=0.02))
    events = await collect(get_provider())

    texts = [e.text for e in events if e.type == "text"]
    # 12 pieces 20 ms apart, read at most every 150 ms: several pieces come in one read, in order.
    assert "".join(texts) == "".join(pieces)
    assert len(texts) < len(pieces)
    assert all(text.endswith(" ") for text in texts)
    assert paced
    assert events[-1].type == "done" and events[-1].text == "".join(pieces)


async def test_a_whole_answer_is_read_unpaced_even_in_a_paced_task(fake_openai, paced):
    fake_openai.script(Reply.stream(["one ", "two ", "three"], interval=0.02))
    completion = await get_provider().complete(QUESTION)

    assert completion.text == "one two three"
    assert paced == []
    assert stream_pace.get() is not None

"""The GigaChat adapter against the local fake server speaking GigaChat's wire format."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from llm.providers.gigachat import GigaChatProvider, wire_messages
from llm.registry import get_provider
from llm.retry import AuthenticationError, NotConfigured
from llm.types import ChatRequest, Message, ToolCall, ToolSpec
from tests.llm.fakes import Reply

pytestmark = pytest.mark.usefixtures("without_audit_rows")

QUESTION = ChatRequest(messages=(Message("system", "Be brief."), Message("user", "Hello")))


async def test_it_streams_an_answer_with_a_cached_oauth_token(fake_gigachat):
    fake_gigachat.script(Reply.text("Привет, мир", chunk_size=3), Reply.text("second"))
    provider = get_provider()
    assert isinstance(provider, GigaChatProvider)

    first = [e async for e in provider.stream(QUESTION)]
    second = await provider.complete(QUESTION)

    assert [e.text for e in first if e.type == "text"] == ["При", "вет", ", м", "ир"]
    assert first[-1].type == "done" and first[-1].text == "Привет, мир"
    assert second.text == "second"
    assert fake_gigachat.oauth_calls == 1
    token_request = fake_gigachat.requests_to("/api/v2/oauth")[0]
    assert token_request.form == {"scope": "GIGACHAT_API_PERS"}
    assert token_request.headers["Authorization"] == f"Basic {fake_gigachat.gigachat_key}"
    uuid.UUID(token_request.headers["RqUID"])
    chat = fake_gigachat.chat_requests[-1]
    assert chat.json["stream"] is True and chat.json["model"] == "GigaChat"
    assert chat.headers["Authorization"].startswith("Bearer token-")


async def test_twenty_concurrent_calls_share_one_token_request(fake_gigachat):
    fake_gigachat.oauth_delay = 0.2
    provider = get_provider()
    answers = await asyncio.gather(*(provider.complete(QUESTION) for _ in range(20)))

    assert all(answer.text == "ok" for answer in answers)
    assert fake_gigachat.oauth_calls == 1
    assert len(fake_gigachat.chat_requests) == 20


async def test_a_token_near_expiry_is_refreshed_before_use(fake_gigachat):
    # Tokens that expire within the refresh margin count as stale.
    fake_gigachat.token_ttl = 30
    provider = get_provider()
    await provider.complete(QUESTION)
    await provider.complete(QUESTION)
    assert fake_gigachat.oauth_calls == 2
    ids = fake_gigachat.oauth_request_ids
    assert len(set(ids)) == 2, "every token request needs a fresh RqUID"


async def test_a_401_refreshes_the_token_once_and_repeats_the_call(fake_gigachat):
    provider = get_provider()
    await provider.complete(QUESTION)
    fake_gigachat.expire_tokens()
    answer = await provider.complete(QUESTION)

    assert answer.text == "ok"
    assert fake_gigachat.oauth_calls == 2
    statuses = [r.path for r in fake_gigachat.requests]
    assert statuses.count("/api/v1/chat/completions") == 3


async def test_many_calls_refused_at_once_share_one_refresh(fake_gigachat):
    provider = get_provider()
    await provider.complete(QUESTION)
    fake_gigachat.expire_tokens()
    fake_gigachat.oauth_delay = 0.2
    answers = await asyncio.gather(*(provider.complete(QUESTION) for _ in range(20)))

    assert all(answer.text == "ok" for answer in answers)
    assert fake_gigachat.oauth_calls == 2


async def test_a_refused_authorization_key_is_an_authentication_error(fake_gigachat, settings):
    llm = dict(settings.LLM)
    llm["PROVIDERS"] = {**llm["PROVIDERS"], "gigachat": {**llm["PROVIDERS"]["gigachat"], "TOKEN": "wrong"}}
    settings.LLM = llm
    with pytest.raises(AuthenticationError):
        await get_provider().complete(QUESTION)
    assert fake_gigachat.oauth_calls == 1, "a refused key is not retried"


async def test_functions_go_out_with_few_shot_examples_and_calls_come_back(fake_gigachat):
    fake_gigachat.script(Reply.tool_call("find_symbol", {"name": "RetryPolicy"}))
    tool = ToolSpec(
        "find_symbol",
        "Find where a symbol is defined",
        {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]},
        few_shot_examples=({"request": "where is main defined", "params": {"name": "main"}},),
    )
    completion = await get_provider().complete(ChatRequest(messages=(Message("user", "find RetryPolicy"),), tools=(tool,)))

    assert [(c.name, dict(c.arguments)) for c in completion.tool_calls] == [("find_symbol", {"name": "RetryPolicy"})]
    uuid.UUID(completion.tool_calls[0].id)  # the functions_state_id
    sent = fake_gigachat.chat_requests[-1].json
    assert sent["function_call"] == "auto"
    assert sent["functions"][0]["few_shot_examples"] == [{"request": "where is main defined", "params": {"name": "main"}}]


async def test_a_json_schema_becomes_a_forced_function_whose_arguments_are_the_answer(fake_gigachat):
    fake_gigachat.script(Reply.tool_call("intent", {"intent": "docs", "confidence": 0.9}))
    schema = {"type": "object", "properties": {"intent": {"type": "string"}, "confidence": {"type": "number"}}}
    completion = await get_provider().complete(
        ChatRequest(messages=(Message("user", "write docs"),), model_params={"json_schema": {"name": "intent", "schema": schema}})
    )

    assert completion.text == '{"intent": "docs", "confidence": 0.9}'
    assert completion.tool_calls == ()
    sent = fake_gigachat.chat_requests[-1].json
    assert sent["function_call"] == {"name": "intent"}
    assert sent["functions"][-1]["parameters"] == schema
    assert "json_schema" not in sent


async def test_embeddings_are_fetched_in_batches(fake_gigachat, settings):
    llm = dict(settings.LLM)
    llm["PROVIDERS"] = {**llm["PROVIDERS"], "gigachat": {**llm["PROVIDERS"]["gigachat"], "EMBED_BATCH_SIZE": 3}}
    settings.LLM = llm
    vectors = await get_provider().embed([f"text {i}" for i in range(7)])

    assert len(vectors) == 7 and len(vectors[0]) == fake_gigachat.embedding_dims
    batches = fake_gigachat.requests_to("/api/v1/embeddings")
    assert [len(r.json["input"]) for r in batches] == [3, 3, 1]
    assert batches[0].json["model"] == "Embeddings"


async def test_token_counts_come_from_the_count_endpoint(fake_gigachat):
    fake_gigachat.script(Reply.count(40), kind="tokens")
    count = await get_provider().count_tokens([Message("system", "a b c"), Message("user", "d e")])

    request = fake_gigachat.requests_to("/tokens/count")[0]
    assert request.json == {"model": "GigaChat", "input": ["a b c", "d e"]}
    # 40 for the first text, 2 words for the second, plus per-message overhead.
    assert count == 40 + 2 + 2 * 4


def test_message_rules_keep_one_leading_system_message_and_merge_same_roles():
    call = ToolCall(id="state-1", name="search", arguments={"q": "x"}, signature="state-1")
    wire = wire_messages(
        [
            Message("user", "first"),
            Message("system", "Rules."),
            Message("user", "second"),
            Message("system", "Summary so far."),
            Message("assistant", "", tool_calls=(call,)),
            Message("tool", "found a.py", tool_call_id="state-1", name="search"),
            Message("assistant", "It is in a.py."),
            Message("assistant", "Anything else?"),
        ]
    )
    assert wire == [
        {"role": "system", "content": "Rules.\n\nSummary so far."},
        {"role": "user", "content": "first\n\nsecond"},
        {"role": "assistant", "content": "", "function_call": {"name": "search", "arguments": {"q": "x"}}, "functions_state_id": "state-1"},
        {"role": "function", "name": "search", "content": '{"result": "found a.py"}'},
        {"role": "assistant", "content": "It is in a.py.\n\nAnything else?"},
    ]


async def test_a_connection_cut_keeps_the_partial_text(fake_gigachat):
    fake_gigachat.script(Reply.text("partial answer here", chunk_size=4, cut_after=2))
    events = [e async for e in get_provider().stream(QUESTION)]
    assert events[-1].type == "error"
    assert events[-1].text == "partial "


async def test_an_unreadable_ca_bundle_is_reported_as_a_configuration_error(fake_gigachat, settings, tmp_path):
    llm = dict(settings.LLM)
    llm["PROVIDERS"] = {**llm["PROVIDERS"], "gigachat": {**llm["PROVIDERS"]["gigachat"], "CA_BUNDLE": str(tmp_path / "missing.pem")}}
    settings.LLM = llm
    events = [e async for e in get_provider().stream(QUESTION)]
    assert events[-1].type == "error"
    assert isinstance(events[-1].error, NotConfigured)
    assert "GIGACHAT_CA_BUNDLE" in str(events[-1].error)
    assert fake_gigachat.requests == []


def test_a_call_without_a_state_id_from_the_server_sends_none_back():
    made_up = ToolCall(id="call_1", name="search", arguments={"q": "x"})

    (entry,) = wire_messages([Message("assistant", "", tool_calls=(made_up,))])

    assert "functions_state_id" not in entry


def test_function_parameters_carry_only_the_keywords_the_sdk_sends():
    from llm.providers.gigachat import wire_function

    tool = ToolSpec(
        name="read_file",
        description="Read lines of a file.",
        parameters={
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "path": {"type": "string", "minLength": 1, "description": "The file."},
                "start": {"type": "integer", "minimum": 1},
                "tags": {"type": "array", "items": {"type": "string", "maxLength": 20}},
            },
            "required": ["path"],
        },
    )

    assert wire_function(tool)["parameters"] == {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "The file."},
            "start": {"type": "integer"},
            "tags": {"type": "array", "items": {"type": "string"}},
        },
        "required": ["path"],
    }

"""The fake provider server's streams, read by the vendors' own SDK models.

Our adapters are tested against the local fake server; these tests hold the
fake to the real wire formats: every payload it streams (recorded by the
audit as the adapter received it) must validate against the response models
of the official SDKs (``openai``, ``google-genai``, ``gigachat``, test-only
dependencies), and the SDKs must read the same text and calls from it as our
parsers did.
"""

from __future__ import annotations

import json

import gigachat.models
import pytest
from google.genai import types as genai_types
from openai.types.chat import ChatCompletionChunk

from llm.models import LLMCall
from llm.registry import get_provider
from llm.types import ChatRequest, Message, ToolSpec
from tests.llm.fakes import Reply

pytestmark = pytest.mark.django_db(transaction=True)

SEARCH = ToolSpec(
    name="search_code",
    description="Search the repository.",
    parameters={"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"]},
)


def _sdk_read(provider: str, payloads: list[str]) -> tuple[str, list[tuple[str, dict]]]:
    """The text and tool calls the vendor's SDK models read from a call's stream payloads."""
    text: list[str] = []
    calls: list[tuple[str, dict]] = []
    arguments: dict[int, list[str]] = {}
    names: dict[int, str] = {}
    for payload in payloads:
        if payload.strip() == "[DONE]":
            continue
        if provider == "openai":
            chunk = ChatCompletionChunk.model_validate_json(payload)
            for choice in chunk.choices:
                text.append(choice.delta.content or "")
                for call in choice.delta.tool_calls or ():
                    if call.function and call.function.name:
                        names[call.index] = call.function.name
                    if call.function and call.function.arguments:
                        arguments.setdefault(call.index, []).append(call.function.arguments)
        elif provider == "gemini":
            response = genai_types.GenerateContentResponse.model_validate_json(payload)
            for part in response.candidates[0].content.parts or ():
                text.append(part.text or "")
                if part.function_call is not None:
                    calls.append((part.function_call.name, dict(part.function_call.args or {})))
        else:
            chunk = gigachat.models.ChatCompletionChunk.model_validate_json(payload)
            for choice in chunk.choices:
                text.append(choice.delta.content or "")
                if choice.delta.function_call is not None:
                    calls.append((choice.delta.function_call.name, dict(choice.delta.function_call.arguments or {})))
    calls += [(names[index], json.loads("".join(arguments.get(index, [])) or "{}")) for index in sorted(names)]
    return "".join(text), calls


@pytest.mark.parametrize("provider", ["openai", "gemini", "gigachat"])
async def test_the_fake_servers_streams_are_read_the_same_by_the_vendors_sdk(fake_llm_server, settings, provider):
    settings.LLM = fake_llm_server.llm_settings(provider)
    fake_llm_server.script(Reply.text("Hello there, friend.", chunk_size=4, usage=(7, 5)),
                           Reply.tool_call("search_code", {"query": "login view"}))
    question = (Message("system", "Cite code."), Message("user", "Where is the login view?"))

    answer = await get_provider().complete(ChatRequest(messages=question))
    call = await get_provider().complete(ChatRequest(messages=question, tools=(SEARCH,)))

    recorded = [record async for record in LLMCall.objects.filter(kind="chat").order_by("id")]
    assert len(recorded) == 2
    assert _sdk_read(provider, recorded[0].response) == (answer.text, [])
    text, calls = _sdk_read(provider, recorded[1].response)
    assert calls == [(tool.name, dict(tool.arguments)) for tool in call.tool_calls] == [("search_code", {"query": "login view"})]


async def test_the_fake_servers_embeddings_are_what_the_vendors_sdk_reads(fake_llm_server):
    import httpx
    from google.genai import types as genai
    from openai.types import CreateEmbeddingResponse

    texts = ["def login(request):", "class Cart:"]
    async with httpx.AsyncClient(base_url=fake_llm_server.url, timeout=10) as http:
        openai = (await http.post("/v1/embeddings", json={"model": "m", "input": texts})).json()
        gemini = (await http.post(
            "/v1beta/models/m:batchEmbedContents",
            json={"requests": [{"model": "models/m", "content": {"parts": [{"text": t}]}} for t in texts]},
        )).json()
        token = (await http.post(
            "/api/v2/oauth", data={"scope": "GIGACHAT_API_PERS"},
            headers={"Authorization": f"Basic {fake_llm_server.gigachat_key}", "RqUID": "00000000-0000-0000-0000-000000000000"},
        )).json()["access_token"]
        gigachat_body = (await http.post(
            "/api/v1/embeddings", json={"model": "Embeddings", "input": texts}, headers={"Authorization": f"Bearer {token}"},
        )).json()

    assert len(CreateEmbeddingResponse.model_validate(openai).data) == 2
    assert len(genai.EmbedContentResponse.model_validate(gemini).embeddings) == 2
    assert [item.usage.prompt_tokens for item in gigachat.models.Embeddings.model_validate(gigachat_body).data] == [2, 2]


@pytest.mark.parametrize("provider", ["openai", "gemini"])
async def test_a_thinking_models_thoughts_are_counted_as_the_vendors_sdk_reads_them(fake_llm_server, settings, provider):
    settings.LLM = fake_llm_server.llm_settings(provider)
    fake_llm_server.script(Reply.text("Short answer.", usage=(7, 30), reasoning_tokens=20))

    answer = await get_provider().complete(ChatRequest(messages=(Message("user", "Think, then answer."),)))

    (record,) = [record async for record in LLMCall.objects.filter(kind="chat")]
    if provider == "openai":
        usage = ChatCompletionChunk.model_validate_json(record.response[-2]).usage
        sdk = (usage.completion_tokens, usage.completion_tokens_details.reasoning_tokens)
    else:
        usage = genai_types.GenerateContentResponse.model_validate_json(record.response[-1]).usage_metadata
        sdk = (usage.candidates_token_count + usage.thoughts_token_count, usage.thoughts_token_count)
    assert (answer.usage.completion_tokens, answer.usage.reasoning_tokens) == sdk == (30, 20)


async def test_the_fake_servers_refusals_choices_null_errors_and_signatures_are_what_the_vendors_sdks_read(fake_llm_server, settings):
    from llm.retry import ModelRefusal

    settings.LLM = fake_llm_server.llm_settings("openai")
    fake_llm_server.script(Reply.text("", refusal="I can't help with that."),
                           Reply.text("first", other_choices=("second",), null_errors=True))
    question = ChatRequest(messages=(Message("user", "Answer."),), model_params={"n": 2})
    with pytest.raises(ModelRefusal):
        await get_provider().complete(question)
    await get_provider().complete(question)
    settings.LLM = fake_llm_server.llm_settings("gemini")
    fake_llm_server.script(Reply.tool_call("search_code", {"query": "cart"}, thought_signature="c2lnbmVk"))
    await get_provider().complete(ChatRequest(messages=question.messages, tools=(SEARCH,)))

    refusal, choices, signed = [record async for record in LLMCall.objects.filter(kind="chat").order_by("id")]
    refused = [ChatCompletionChunk.model_validate_json(p) for p in refusal.response if p.strip() != "[DONE]"]
    assert "".join(c.choices[0].delta.refusal or "" for c in refused if c.choices) == "I can't help with that."
    chunks = [ChatCompletionChunk.model_validate_json(p) for p in choices.response if p.strip() != "[DONE]"]
    by_choice = {index: "".join(c.choices[0].delta.content or "" for c in chunks if c.choices and c.choices[0].index == index)
                 for index in (0, 1)}
    assert by_choice == {0: "first", 1: "second"}
    assert all(json.loads(p)["error"] is None for p in choices.response if p.strip() != "[DONE]")
    (part,) = genai_types.GenerateContentResponse.model_validate_json(signed.response[-1]).candidates[0].content.parts
    assert part.function_call.name == "search_code" and part.thought_signature == b"signed"

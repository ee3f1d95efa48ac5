"""The model_params contract, key by key, for every adapter.

The table drives the adapters' real payload builders; one test per adapter
then checks that the translated payload is what actually goes over the wire.
"""

from __future__ import annotations

import logging

import pytest

from llm.params import JsonSchemaSpec
from llm.providers.gemini import GeminiProvider
from llm.providers.gigachat import GigaChatProvider
from llm.providers.openai import OpenAIProvider
from llm.registry import get_provider
from llm.types import ChatRequest, Message, ToolSpec
from tests.llm.fakes import Reply

MESSAGES = (Message("system", "Rules."), Message("user", "Hi"))
SCHEMA = {"type": "object", "properties": {"intent": {"type": "string"}}, "required": ["intent"], "additionalProperties": False}
EXTRA_TOOL = {"type": "function", "function": {"name": "extra", "parameters": {"type": "object"}}}


def openai_payload(params):
    return OpenAIProvider({"API_KEY": "k"}).payload(ChatRequest(messages=MESSAGES, model_params=params), "m")


def gigachat_payload(params):
    return GigaChatProvider({"TOKEN": "k"}).payload(ChatRequest(messages=MESSAGES, model_params=params), "m")[0]


def gemini_payload(params):
    return GeminiProvider({"API_KEY": "k"}).payload(ChatRequest(messages=MESSAGES, model_params=params))


OPENAI_PASSTHROUGH = [
    ("temperature", 0.2),
    ("max_tokens", 300),
    ("top_p", 0.9),
    ("n", 2),
    ("stop", ["\n\n"]),
    ("presence_penalty", 0.5),
    ("frequency_penalty", 0.4),
    ("logit_bias", {"50256": -100}),
    ("user", "user-7"),
    ("seed", 42),
    ("tools", [EXTRA_TOOL]),
    ("tool_choice", "required"),
    ("response_format", {"type": "json_object"}),
    ("logprobs", True),
    ("top_logprobs", 3),
    ("parallel_tool_calls", False),
]


@pytest.mark.parametrize(("key", "value"), OPENAI_PASSTHROUGH)
def test_openai_passes_its_keys_through(key, value):
    assert openai_payload({key: value})[key] == value


def test_openai_stream_false_is_honoured_and_drops_stream_options():
    payload = openai_payload({"stream": False})
    assert payload["stream"] is False
    assert "stream_options" not in payload


def test_openai_tools_from_params_are_added_to_the_request_tools():
    tool = ToolSpec("search", "Search", {"type": "object"})
    payload = OpenAIProvider({}).payload(ChatRequest(messages=MESSAGES, tools=(tool,), model_params={"tools": [EXTRA_TOOL]}), "m")
    assert [t["function"]["name"] for t in payload["tools"]] == ["search", "extra"]


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (SCHEMA, {"name": "answer", "schema": SCHEMA, "strict": False}),
        ({"name": "intent", "schema": SCHEMA}, {"name": "intent", "schema": SCHEMA, "strict": False}),
        ({"name": "intent", "schema": SCHEMA, "strict": True}, {"name": "intent", "schema": SCHEMA, "strict": True}),
    ],
)
def test_openai_json_schema_becomes_response_format_with_strict_off_by_default(value, expected):
    payload = openai_payload({"json_schema": value})
    assert payload["response_format"] == {"type": "json_schema", "json_schema": expected}
    assert "json_schema" not in payload


GIGACHAT_PASSTHROUGH = [
    ("temperature", 0.3),
    ("top_p", 0.5),
    ("n", 1),
    ("max_tokens", 512),
    ("repetition_penalty", 1.1),
    ("update_interval", 0.2),
    ("profanity_check", False),
    ("function_call", "none"),
    ("stream", False),
]


@pytest.mark.parametrize(("key", "value"), GIGACHAT_PASSTHROUGH)
def test_gigachat_passes_its_keys_through(key, value):
    assert gigachat_payload({key: value})[key] == value


def test_gigachat_functions_from_params_join_the_request_tools():
    tool = ToolSpec("search", "Search", {"type": "object"})
    extra = {"name": "extra", "description": "", "parameters": {"type": "object"}}
    payload = GigaChatProvider({}).payload(ChatRequest(messages=MESSAGES, tools=(tool,), model_params={"functions": [extra]}), "m")[0]
    assert [f["name"] for f in payload["functions"]] == ["search", "extra"]


def test_gigachat_json_schema_is_a_forced_function_call():
    payload = gigachat_payload({"json_schema": {"name": "intent", "schema": SCHEMA}})
    assert payload["function_call"] == {"name": "intent"}
    assert payload["functions"][-1]["name"] == "intent"
    # What the SDK sends: additionalProperties is left out.
    assert payload["functions"][-1]["parameters"] == {k: v for k, v in SCHEMA.items() if k != "additionalProperties"}
    assert "json_schema" not in payload


GEMINI_TOP_LEVEL = [
    ("safetySettings", "safetySettings", [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}]),
    ("safety_settings", "safetySettings", [{"category": "HARM_CATEGORY_HARASSMENT", "threshold": "BLOCK_NONE"}]),
    ("tools", "tools", [{"googleSearch": {}}]),
    ("toolConfig", "toolConfig", {"functionCallingConfig": {"mode": "ANY"}}),
    ("tool_config", "toolConfig", {"functionCallingConfig": {"mode": "ANY"}}),
    ("systemInstruction", "systemInstruction", {"parts": [{"text": "Other rules."}]}),
    ("system_instruction", "systemInstruction", {"parts": [{"text": "Other rules."}]}),
    ("cachedContent", "cachedContent", "cachedContents/abc"),
    ("cached_content", "cachedContent", "cachedContents/abc"),
]


@pytest.mark.parametrize(("key", "field", "value"), GEMINI_TOP_LEVEL)
def test_gemini_top_level_keys_and_their_snake_case_aliases(key, field, value):
    assert gemini_payload({key: value})[field] == value


GEMINI_GENERATION = [
    ("candidateCount", "candidateCount", 1),
    ("candidate_count", "candidateCount", 1),
    ("stopSequences", "stopSequences", ["END"]),
    ("stop_sequences", "stopSequences", ["END"]),
    ("maxOutputTokens", "maxOutputTokens", 256),
    ("max_output_tokens", "maxOutputTokens", 256),
    ("max_tokens", "maxOutputTokens", 256),
    ("temperature", "temperature", 0.1),
    ("topP", "topP", 0.8),
    ("top_p", "topP", 0.8),
    ("topK", "topK", 40),
    ("top_k", "topK", 40),
    ("responseMimeType", "responseMimeType", "text/plain"),
    ("response_mime_type", "responseMimeType", "text/plain"),
    ("responseSchema", "responseSchema", {"type": "object"}),
    ("response_schema", "responseSchema", {"type": "object"}),
]


@pytest.mark.parametrize(("key", "field", "value"), GEMINI_GENERATION)
def test_gemini_generation_config_keys_and_their_snake_case_aliases(key, field, value):
    payload = gemini_payload({key: value})
    assert payload["generationConfig"][field] == value
    assert key not in payload


def test_gemini_json_schema_goes_whole_as_the_raw_json_schema_field():
    payload = gemini_payload({"json_schema": SCHEMA})
    config = payload["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"] == dict(JsonSchemaSpec.parse(SCHEMA).schema)
    assert "responseSchema" not in config and "json_schema" not in payload


BUILDERS = {"openai": openai_payload, "gigachat": gigachat_payload, "gemini": gemini_payload}


@pytest.mark.parametrize("adapter", sorted(BUILDERS))
@pytest.mark.parametrize("key", ["max_depth", "claude_cli_path"])
def test_keys_of_other_tools_are_always_dropped(adapter, key):
    payload = BUILDERS[adapter]({key: "x"})
    assert key not in payload
    assert key not in payload.get("generationConfig", {})


@pytest.mark.parametrize("adapter", sorted(BUILDERS))
def test_unknown_keys_are_ignored_with_a_debug_line(adapter, caplog):
    caplog.set_level(logging.DEBUG, logger="llm.params")
    payload = BUILDERS[adapter]({"mirostat_tau": 5.0})
    assert "mirostat_tau" not in payload
    assert "mirostat_tau" not in payload.get("generationConfig", {})
    assert "mirostat_tau" in caplog.text


@pytest.mark.parametrize(
    ("adapter", "key"),
    [("gigachat", "reasoning_effort"), ("gemini", "reasoning_effort"), ("gigachat", "max_completion_tokens"),
     ("gemini", "max_completion_tokens"), ("openai", "reasoning_effort"),
     ("openai", "repetition_penalty"), ("openai", "top_k"), ("gigachat", "seed"), ("gigachat", "logit_bias"), ("gemini", "presence_penalty"), ("gemini", "n")],
)
def test_keys_of_other_providers_are_ignored_so_switching_never_fails(adapter, key):
    payload = BUILDERS[adapter]({key: 1})
    assert key not in payload
    assert key not in payload.get("generationConfig", {})


# --- the translated payload is what goes over the wire -----------------------------------------

PORTABLE = {"temperature": 0.2, "max_tokens": 64, "reasoning_effort": "high", "json_schema": SCHEMA}


@pytest.mark.usefixtures("without_audit_rows")
async def test_openai_sends_the_translated_params(fake_openai):
    await get_provider().complete(ChatRequest(messages=MESSAGES, model_params=PORTABLE))
    sent = fake_openai.chat_requests[-1].json
    assert (sent["temperature"], sent["max_tokens"]) == (0.2, 64)
    assert sent["response_format"]["type"] == "json_schema"
    # Not a reasoning model (OPENAI_REASONING_MODEL off): reasoning_effort would be refused.
    assert "reasoning_effort" not in sent and "json_schema" not in sent


def test_a_reasoning_model_gets_its_output_limit_as_max_completion_tokens():
    from llm.params import translate_openai

    sent = translate_openai({"max_tokens": 400, "reasoning_effort": "low"}, reasoning=True).payload

    assert sent == {"max_completion_tokens": 400, "reasoning_effort": "low"}
    assert translate_openai({"max_tokens": 400}).payload == {"max_tokens": 400}


@pytest.mark.usefixtures("without_audit_rows")
async def test_the_reasoning_model_switch_sends_what_reasoning_models_take(fake_openai, settings):
    openai = settings.LLM["PROVIDERS"]["openai"]
    settings.LLM = {**settings.LLM, "PROVIDERS": {**settings.LLM["PROVIDERS"], "openai": {**openai, "REASONING_MODEL": True}}}
    params = {**PORTABLE, "top_p": 0.9, "presence_penalty": 0.1, "seed": 7}

    await get_provider().complete(ChatRequest(messages=MESSAGES, model_params=params))

    sent = fake_openai.chat_requests[-1].json
    assert (sent["max_completion_tokens"], sent["reasoning_effort"], sent["seed"]) == (64, "high", 7)
    # Refused by o-series models ("Unsupported parameter"): dropped, not sent.
    assert not {"max_tokens", "temperature", "top_p", "presence_penalty"} & set(sent)


@pytest.mark.usefixtures("without_audit_rows")
async def test_gigachat_sends_the_translated_params(fake_gigachat):
    fake_gigachat.script(Reply.tool_call("answer", {"intent": "general"}))
    completion = await get_provider().complete(ChatRequest(messages=MESSAGES, model_params=PORTABLE))
    sent = fake_gigachat.chat_requests[-1].json
    assert (sent["temperature"], sent["max_tokens"]) == (0.2, 64)
    assert sent["function_call"] == {"name": "answer"}
    assert completion.text == '{"intent": "general"}'


@pytest.mark.usefixtures("without_audit_rows")
async def test_gemini_sends_the_translated_params(fake_gemini):
    await get_provider().complete(ChatRequest(messages=MESSAGES, model_params=PORTABLE))
    sent = fake_gemini.chat_requests[-1].json
    assert sent["generationConfig"]["temperature"] == 0.2
    assert sent["generationConfig"]["maxOutputTokens"] == 64
    assert sent["generationConfig"]["responseMimeType"] == "application/json"
    assert "reasoning_effort" not in sent


@pytest.mark.usefixtures("without_audit_rows")
async def test_stream_false_gets_whole_answers_from_gigachat_and_gemini(fake_gigachat, settings):
    gigachat = await get_provider().complete(ChatRequest(messages=MESSAGES, model_params={"stream": False}))
    assert gigachat.text == "ok" and fake_gigachat.chat_requests[-1].json["stream"] is False

    settings.LLM = fake_gigachat.llm_settings("gemini")
    gemini = await get_provider().complete(ChatRequest(messages=MESSAGES, model_params={"stream": False}))
    assert gemini.text == "ok"
    assert fake_gigachat.chat_requests[-1].path == "/v1beta/models/gemini-2.0-flash:generateContent"
    assert "stream" not in fake_gigachat.chat_requests[-1].json


@pytest.mark.usefixtures("without_audit_rows")
async def test_the_deployments_reasoning_effort_reaches_every_call_of_a_reasoning_model(fake_openai, settings):
    openai = settings.LLM["PROVIDERS"]["openai"]
    settings.LLM = {**settings.LLM, "PROVIDERS": {**settings.LLM["PROVIDERS"],
                                                  "openai": {**openai, "REASONING_MODEL": True, "REASONING_EFFORT": "low"}}}

    await get_provider().complete(ChatRequest(messages=MESSAGES, model_params={"max_tokens": 64}))
    await get_provider().complete(ChatRequest(messages=MESSAGES, model_params={"reasoning_effort": "high"}))

    first, second = (request.json for request in fake_openai.chat_requests)
    assert (first["reasoning_effort"], first["max_completion_tokens"]) == ("low", 64)
    # A call that asks for its own effort keeps it.
    assert second["reasoning_effort"] == "high"


@pytest.mark.usefixtures("without_audit_rows")
async def test_without_an_effort_setting_none_is_sent(fake_openai, settings):
    openai = settings.LLM["PROVIDERS"]["openai"]
    settings.LLM = {**settings.LLM, "PROVIDERS": {**settings.LLM["PROVIDERS"], "openai": {**openai, "REASONING_MODEL": True}}}

    await get_provider().complete(ChatRequest(messages=MESSAGES))

    assert "reasoning_effort" not in fake_openai.chat_requests[-1].json

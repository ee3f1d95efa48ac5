"""The Gemini adapter against the local fake server speaking Gemini's wire format."""

from __future__ import annotations

import pytest

from llm.providers.gemini import GeminiProvider, wire_contents
from llm.registry import get_provider
from llm.types import ChatRequest, Message, ToolCall, ToolSpec
from tests.llm.fakes import Reply

pytestmark = pytest.mark.usefixtures("without_audit_rows")

QUESTION = ChatRequest(messages=(Message("system", "Be brief."), Message("user", "Hello")))


async def test_it_streams_with_the_system_text_as_system_instruction(fake_gemini):
    fake_gemini.script(Reply.text("Hi there you", chunk_size=5, usage=(7, 3)))
    provider = get_provider()
    assert isinstance(provider, GeminiProvider)
    events = [e async for e in provider.stream(QUESTION)]

    assert [e.text for e in events if e.type == "text"] == ["Hi th", "ere y", "ou"]
    usage = next(e.usage for e in events if e.type == "usage")
    assert (usage.prompt_tokens, usage.completion_tokens) == (7, 3)
    assert events[-1].type == "done" and events[-1].text == "Hi there you" and events[-1].finish_reason == "stop"
    sent = fake_gemini.chat_requests[-1]
    assert sent.path == "/v1beta/models/gemini-2.0-flash:streamGenerateContent"
    assert sent.query == {"alt": "sse"}
    assert sent.headers["x-goog-api-key"] == "test-key"
    assert sent.json["systemInstruction"] == {"parts": [{"text": "Be brief."}]}
    assert sent.json["contents"] == [{"role": "user", "parts": [{"text": "Hello"}]}]


async def test_function_calls_arrive_as_tool_calls(fake_gemini):
    fake_gemini.script(Reply.tool_call("read_file", {"path": "llm/retry.py", "start": 1}))
    tool = ToolSpec("read_file", "Read lines of a file", {"type": "object", "properties": {"path": {"type": "string"}}})
    completion = await get_provider().complete(ChatRequest(messages=(Message("user", "show retry"),), tools=(tool,)))

    assert [(c.name, dict(c.arguments)) for c in completion.tool_calls] == [("read_file", {"path": "llm/retry.py", "start": 1})]
    assert completion.finish_reason == "tool_calls"
    assert fake_gemini.chat_requests[-1].json["tools"][0]["functionDeclarations"][0]["name"] == "read_file"


def test_tool_results_become_function_responses_and_turns_alternate():
    call = ToolCall(id="call_1", name="read_file", arguments={"path": "a.py"})
    contents, system = wire_contents(
        [
            Message("system", "Rules."),
            Message("user", "one"),
            Message("user", "two"),
            Message("assistant", "", tool_calls=(call,)),
            Message("tool", '{"lines": "x = 1"}', tool_call_id="call_1", name="read_file"),
        ]
    )
    assert system == "Rules."
    assert contents == [
        {"role": "user", "parts": [{"text": "one"}, {"text": "two"}]},
        {"role": "model", "parts": [{"functionCall": {"name": "read_file", "args": {"path": "a.py"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"name": "read_file", "response": {"lines": "x = 1"}}}]},
    ]


async def test_embeddings_use_batch_embed_contents(fake_gemini):
    vectors = await get_provider().embed(["alpha", "beta"])
    assert len(vectors) == 2 and vectors[0] != vectors[1]
    request = fake_gemini.requests_to(":batchEmbedContents")[0]
    assert request.path == "/v1beta/models/text-embedding-004:batchEmbedContents"
    assert request.json["requests"][1] == {"model": "models/text-embedding-004", "content": {"parts": [{"text": "beta"}]}}


async def test_token_counts_come_from_count_tokens(fake_gemini):
    fake_gemini.script(Reply.count(123), kind="tokens")
    assert await get_provider().count_tokens([Message("user", "hello world")]) == 123


# --- stream details of the real API (google-genai's response models) --------------------------


def _chunk(parts=(), finish=None, usage=None) -> str:
    import json

    candidate = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish:
        candidate["finishReason"] = finish
    body = {"candidates": [candidate], "modelVersion": "gemini-2.5-flash"}
    if usage:
        body["usageMetadata"] = usage
    return json.dumps(body)


def test_a_thinking_models_signature_goes_back_with_its_function_call():
    from llm.providers.gemini import GeminiStreamParser

    parser = GeminiStreamParser()
    (event,) = parser.feed(_chunk([{"functionCall": {"name": "read_file", "args": {"path": "a.py"}}, "thoughtSignature": "c2lnbmVk"}]))
    parser.feed(_chunk(finish="STOP"))
    contents, _ = wire_contents([Message("user", "read it"), Message("assistant", "", tool_calls=(event.tool_call,))])

    assert event.tool_call.signature == "c2lnbmVk"
    assert contents[1]["parts"] == [
        {"functionCall": {"name": "read_file", "args": {"path": "a.py"}}, "thoughtSignature": "c2lnbmVk"}
    ]


def test_a_signature_survives_the_audit_record_for_replay():
    from llm.audit import request_from_dict, request_to_dict

    call = ToolCall(id="c", name="f", arguments={}, signature="c2ln")
    request = ChatRequest(messages=(Message("assistant", "", tool_calls=(call,)),))

    assert request_from_dict(request_to_dict(request)).messages[0].tool_calls[0].signature == "c2ln"


@pytest.mark.parametrize("reason", ["SAFETY", "RECITATION", "PROHIBITED_CONTENT"])
def test_an_answer_stopped_for_safety_is_a_refusal_not_an_empty_answer(reason):
    from llm.providers.gemini import GeminiStreamParser
    from llm.retry import LLMError

    parser = GeminiStreamParser()
    parser.feed(_chunk(finish=reason))

    with pytest.raises(LLMError) as caught:
        parser.finish()
    assert reason in caught.value.provider_message and not caught.value.retryable


def test_a_stop_at_the_output_limit_says_so_and_thoughts_count_as_output():
    from llm.providers.gemini import GeminiStreamParser

    parser = GeminiStreamParser()
    parser.feed(_chunk([{"text": "partial"}], finish="MAX_TOKENS",
                       usage={"promptTokenCount": 10, "candidatesTokenCount": 5, "thoughtsTokenCount": 20}))
    usage, done = parser.finish()

    assert done.finish_reason == "length" and done.text == "partial"
    assert (usage.usage.prompt_tokens, usage.usage.completion_tokens) == (10, 25)


def test_a_malformed_function_call_is_a_retryable_protocol_error():
    from llm.providers.gemini import GeminiStreamParser
    from llm.retry import ProviderProtocolError

    parser = GeminiStreamParser()
    parser.feed(_chunk(finish="MALFORMED_FUNCTION_CALL"))

    with pytest.raises(ProviderProtocolError) as caught:
        parser.finish()
    assert caught.value.retryable


def test_a_safety_stop_reaches_the_chat_as_the_models_refusal_with_its_reason():
    from chat.user_errors import for_provider_error
    from llm.providers.gemini import GeminiStreamParser
    from llm.retry import ModelRefusal

    parser = GeminiStreamParser()
    parser.feed(_chunk(finish="SAFETY"))
    with pytest.raises(ModelRefusal) as caught:
        parser.finish()

    assert for_provider_error(caught.value) == (
        "The model declined to answer (finish reason SAFETY). The text so far is kept; rephrase the question."
    )


async def test_an_error_document_in_the_middle_of_the_stream_keeps_its_message(fake_gemini):
    from llm.retry import ProviderHTTPError

    fake_gemini.script(Reply.text("Partial answer that", chunk_size=4, error_document_at=2, error_message="The model is overloaded."))
    events = [event async for event in get_provider().stream(QUESTION)]

    error = events[-1]
    assert error.type == "error" and isinstance(error.error, ProviderHTTPError)
    assert (error.error.status, error.error.provider_message) == (503, "The model is overloaded.")
    assert error.text == "Part" + "ial "


async def test_tool_schemas_go_whole_as_parameters_json_schema(fake_gemini):
    schema = {"type": "object", "additionalProperties": False, "properties": {"q": {"type": "string", "minLength": 1}}}
    fake_gemini.script(Reply.text("none needed"))

    await get_provider().complete(ChatRequest(messages=QUESTION.messages, tools=(ToolSpec("search", "Search.", schema),)))

    (declaration,) = fake_gemini.chat_requests[-1].json["tools"][0]["functionDeclarations"]
    assert declaration["parametersJsonSchema"] == schema and "parameters" not in declaration


@pytest.mark.parametrize("stream", [True, False])
async def test_a_signature_from_the_server_goes_back_with_its_function_call_over_the_wire(fake_gemini, stream):
    tool = ToolSpec("read_file", "Read a file.", {"type": "object", "properties": {"path": {"type": "string"}}})
    fake_gemini.script(Reply.tool_call("read_file", {"path": "a.py"}, thought_signature="c2lnbmVkIHRob3VnaHQ="),
                       Reply.text("a.py defines one function."))
    params = {} if stream else {"stream": False}
    question = Message("user", "What does a.py do?")

    first = await get_provider().complete(ChatRequest(messages=(question,), tools=(tool,), model_params=params))
    (call,) = first.tool_calls
    result = Message("tool", '{"lines": "def f(): pass"}', tool_call_id=call.id, name=call.name)
    await get_provider().complete(
        ChatRequest(messages=(question, Message("assistant", "", tool_calls=(call,)), result), tools=(tool,), model_params=params)
    )

    model_turn = fake_gemini.chat_requests[-1].json["contents"][1]
    assert model_turn == {
        "role": "model",
        "parts": [{"functionCall": {"name": "read_file", "args": {"path": "a.py"}}, "thoughtSignature": "c2lnbmVkIHRob3VnaHQ="}],
    }


async def test_a_server_error_after_the_answer_began_is_not_said_to_be_retried(fake_gemini):
    from chat.user_errors import for_provider_error

    fake_gemini.script(Reply.text("Partial answer that", chunk_size=4, error_document_at=2, error_message="The model is overloaded."))
    events = [event async for event in get_provider().stream(QUESTION)]

    # Text had reached the reader, so the call was not made again.
    assert len(fake_gemini.chat_requests) == 1 and events[-1].error.attempts == 1
    assert for_provider_error(events[-1].error) == (
        "The model provider failed (HTTP 503: The model is overloaded.). The text so far is kept; try again later."
    )

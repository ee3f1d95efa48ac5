"""Structured answers on project questions: tool rounds keep their tools (the format is asked
in the prompt), a call without tools asks for the schema, and only answer text is streamed.
The agent runs against the fake model in the OpenAI, GigaChat and Gemini wire formats."""

from __future__ import annotations

import json

import pytest

from llm.conversation.structured import FORMAT_INSTRUCTION
from tests.chat.agent.conftest import answer_text, make_turn, one, run_turn_to_end, shopapp  # noqa: F401 (fixture)
from tests.llm.fakes import FakeProviderServer, RecordedRequest, Reply

pytestmark = pytest.mark.django_db

QUESTION = "where is the login view defined?"
LOOKING = "Let me look at the views."
ANSWER = "The login view is `login_view` in djshop/orders/views.py:11-18."


@pytest.fixture(params=["openai", "gigachat", "gemini"])
def model(request, fake_llm_server: FakeProviderServer, settings) -> FakeProviderServer:
    settings.LLM = {**fake_llm_server.llm_settings(request.param), "AUDIT": False}
    settings.CHAT = {**settings.CHAT, "STRUCTURED_ANSWERS": True}
    fake_llm_server.wire = request.param
    return fake_llm_server


def route_reply(server: FakeProviderServer) -> Reply:
    if server.wire == "gigachat":
        return Reply.tool_call("route_intent", {"intent": "project_qa", "reason": "scripted"})
    return Reply.text(json.dumps({"intent": "project_qa", "reason": "scripted"}))


def document(thought: str, answer: str, *, is_safe: bool = True) -> str:
    return json.dumps({"internal_thought": thought, "is_safe": is_safe, "answer": answer})


def final_reply(server: FakeProviderServer, thought: str, answer: str) -> Reply:
    if server.wire == "gigachat":
        return Reply.tool_call("structured_answer", json.loads(document(thought, answer)))
    return Reply.text(document(thought, answer), chunk_size=7)


def asks_for_schema(request: RecordedRequest) -> bool:
    body = request.json
    if request.wire == "gigachat":
        return body.get("function_call") == {"name": "structured_answer"}
    if request.wire == "gemini":
        return "responseJsonSchema" in body.get("generationConfig", {})
    return "response_format" in body


def offers_tools(request: RecordedRequest) -> bool:
    body = request.json
    if request.wire == "gigachat":
        return any(f["name"] == "read_file" for f in body.get("functions", []))
    return bool(body.get("tools"))


def system_text(request: RecordedRequest) -> str:
    body = request.json
    if request.wire == "gemini":
        return "".join(part.get("text", "") for part in body["systemInstruction"]["parts"])
    return body["messages"][0]["content"]


def test_tool_rounds_keep_their_tools_and_only_answer_text_is_streamed(shopapp, model):  # noqa: F811
    model.script(
        route_reply(model),
        # GigaChat calls one function per answer, with no text beside it.
        Reply.tool_call(
            "read_file",
            {"path": "djshop/orders/views.py", "start": 10, "end": 18},
            text="" if model.wire == "gigachat" else document("PRIVATE-ONE", LOOKING),
        ),
        Reply.text(document("PRIVATE-TWO", ANSWER), chunk_size=7),
    )

    events = run_turn_to_end(make_turn(QUESTION, shopapp))

    tool_round, answering = model.chat_requests[1:]
    for request in (tool_round, answering):
        assert offers_tools(request) and not asks_for_schema(request)
        assert FORMAT_INSTRUCTION in system_text(request)
    expected = ANSWER if model.wire == "gigachat" else f"{LOOKING}\n\n{ANSWER}"
    assert answer_text(events) == expected
    kinds = [event.type for event in events]
    assert kinds.count("verdict") == 1 and kinds.index("verdict") < kinds.index("text")
    assert one(events, "verdict").detail == {"is_safe": True}
    record = one(events, "structured").detail
    thoughts = ["PRIVATE-TWO"] if model.wire == "gigachat" else ["PRIVATE-ONE", "PRIVATE-TWO"]
    assert record == {"is_safe": True, "internal_thoughts": thoughts}
    assert not any("PRIVATE" in event.text for event in events)
    citations = one(events, "citations").citations
    assert [(c.path, c.start_line, c.end_line) for c in citations] == [("djshop/orders/views.py", 11, 18)]


def test_the_last_round_without_tools_asks_for_the_schema(shopapp, model, settings):  # noqa: F811
    settings.CHAT = {**settings.CHAT, "AGENT_MAX_TOOL_ROUNDS": 0}
    model.script(route_reply(model), final_reply(model, "PRIVATE", ANSWER))

    events = run_turn_to_end(make_turn(QUESTION, shopapp))

    (answering,) = model.chat_requests[1:]
    assert asks_for_schema(answering) and not offers_tools(answering)
    assert answer_text(events) == ANSWER
    assert one(events, "structured").detail == {"is_safe": True, "internal_thoughts": ["PRIVATE"]}


@pytest.mark.parametrize("question", ["where is the login view defined?", "hello, how are you?"])
def test_without_a_model_structured_mode_changes_nothing(shopapp, settings, question):  # noqa: F811
    settings.LLM = {**settings.LLM, "PROVIDER": "offline"}
    settings.CHAT = {**settings.CHAT, "STRUCTURED_ANSWERS": True}

    events = run_turn_to_end(make_turn(question, shopapp))

    assert answer_text(events).startswith("No language model is configured")
    assert not [event for event in events if event.type in ("verdict", "structured")]
    assert events[-1].type == "done"

"""Project questions with a model scripted at the HTTP level, in the OpenAI and GigaChat wire formats."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.chat.agent.conftest import answer_text, make_turn, one, run_turn_to_end
from tests.llm.fakes import FakeProviderServer, RecordedRequest, Reply

pytestmark = pytest.mark.django_db

QUESTION = "where is the login view defined?"


@pytest.fixture(params=["openai", "gigachat"])
def model(request, fake_llm_server: FakeProviderServer, settings) -> FakeProviderServer:
    """The fake model server, with the product talking to it in one wire format."""
    # No audit rows: storing one closes the thread's connection afterwards (right for a worker
    # thread), and these turns run on the test's own connection, inside its transaction.
    settings.LLM = {**fake_llm_server.llm_settings(request.param), "AUDIT": False}
    fake_llm_server.wire = request.param
    return fake_llm_server


def route_reply(server: FakeProviderServer, intent: str) -> Reply:
    # GigaChat answers a json_schema request by calling the schema's function.
    if server.wire == "gigachat":
        return Reply.tool_call("route_intent", {"intent": intent, "reason": "scripted"})
    return Reply.text(json.dumps({"intent": intent, "reason": "scripted"}))


def answer_requests(server: FakeProviderServer) -> list[RecordedRequest]:
    """The chat requests after the router's (which is the first)."""
    return server.chat_requests[1:]


def tool_results(request: RecordedRequest) -> list[str]:
    """The tool results a request carries, whatever the wire format."""
    return [m["content"] for m in request.json["messages"] if m["role"] in ("tool", "function")]


def result_text(content: str) -> str:
    # GigaChat carries a function result as a JSON object.
    try:
        value = json.loads(content)
    except ValueError:
        return content
    return value.get("result", content) if isinstance(value, dict) else content


def offered_tools(request: RecordedRequest) -> list[str]:
    body: dict[str, Any] = request.json
    if "functions" in body:
        return [f["name"] for f in body["functions"]]
    return [t["function"]["name"] for t in body.get("tools", [])]


def test_a_two_round_tool_loop_answers_with_citations_of_the_lines_it_read(shopapp, model):
    model.script(
        route_reply(model, "project_qa"),
        Reply.tool_call("search_code", {"query": "login view"}),
        Reply.tool_call("read_file", {"path": "djshop/orders/views.py", "start": 10, "end": 18}),
        Reply.text(
            "The login view is `login_view` in djshop/orders/views.py:11-18; it authenticates on POST "
            "(djshop/orders/views.py:13-17). Its route is declared in djshop/djshop/urls.py:8. "
            "It is not in accounts/views.py:1-20.",
            chunk_size=16,
        ),
    )

    events = run_turn_to_end(make_turn(QUESTION, shopapp))

    assert one(events, "intent").intent == "project_qa"
    # Each tool call is announced as it starts, then reported as a step when it finishes.
    tool_events = [
        (event.type, event.detail["tool"]) for event in events if event.type == "tool" or event.node.startswith("tool:")
    ]
    assert tool_events == [
        # The search with the question, before the first model call; then the model's two calls.
        ("tool", "search_code"), ("step", "search_code"),
        ("tool", "search_code"), ("step", "search_code"),
        ("tool", "read_file"), ("step", "read_file"),
    ]
    assert [event.detail["arguments"] for event in events if event.type == "tool"][:2] == [
        {"query": QUESTION}, {"query": "login view"},
    ]
    first, second, third = answer_requests(model)
    assert set(offered_tools(first)) == {
        "search_code", "search_text", "read_file", "get_symbol", "find_references", "callers", "callees", "changes_since", "list_entrypoints",
        "list_dependencies",
    }
    system = first.json["messages"][0]["content"]
    assert "Answer the user's question about the repository using the retrieved material below" in system
    assert "Retrieved material (a search of the index with the question)" in system
    assert "djshop/orders/views.py:10-18 | " in system
    assert "djshop/orders/views.py:10-18" in result_text(tool_results(second)[0])
    read = result_text(tool_results(third)[-1])
    assert read.startswith("djshop/orders/views.py:10-18 (of 33 lines, python)")
    assert "11 | def login_view(request, next=None) -> HttpResponse:" in read
    text = answer_text(events)
    assert text.startswith("The login view is `login_view`")
    citations = one(events, "citations").citations
    assert [(c.path, c.start_line, c.end_line) for c in citations] == [
        ("djshop/orders/views.py", 11, 18),
        ("djshop/orders/views.py", 13, 17),
        ("djshop/djshop/urls.py", 8, 8),
    ]
    assert all(c.layer and c.score > 0 for c in citations[:2])
    tools = [(e.detail["tool"], e.detail["ok"]) for e in events if e.type == "step" and e.node.startswith("tool:")]
    # The question's own search (the retrieved material), then the model's two calls.
    assert tools == [("search_code", True), ("search_code", True), ("read_file", True)]
    usage = one(events, "usage").detail
    assert usage["calls"] == 4 and usage["tokens_in"] > 0
    assert events[-1].type == "done"


def test_a_failing_tool_returns_its_error_to_the_model_and_the_turn_goes_on(shopapp, model):
    model.script(
        route_reply(model, "project_qa"),
        Reply.tool_call("read_file", {"path": "djshop/orders/nope.py", "start": 1, "end": 10}),
        Reply.tool_call("read_file", {"path": "djshop/orders/views.py", "start": 1}),
        Reply.text("I could not read that file."),
    )

    events = run_turn_to_end(make_turn(QUESTION, shopapp))

    _, after_missing, after_invalid = answer_requests(model)
    missing = result_text(tool_results(after_missing)[-1])
    assert missing.startswith("Error: read_file: no file 'djshop/orders/nope.py' in the index")
    invalid = result_text(tool_results(after_invalid)[-1])
    assert invalid == "Error: read_file: invalid arguments: 'end' is a required property"
    steps = [e.detail for e in events if e.type == "step" and e.node == "tool:read_file"]
    assert [step["ok"] for step in steps] == [False, False]
    assert answer_text(events) == "I could not read that file."
    assert events[-1].type == "done"


def test_an_unknown_tool_name_is_answered_with_the_tools_that_exist(shopapp, model):
    model.script(
        route_reply(model, "project_qa"),
        Reply.tool_call("delete_repository", {"confirm": True}),
        Reply.text("That tool does not exist; the login view is in accounts/views.py:11-18."),
    )

    events = run_turn_to_end(make_turn(QUESTION, shopapp))

    result = result_text(tool_results(answer_requests(model)[-1])[-1])
    assert result == (
        "Error: there is no tool named 'delete_repository'; the tools are: "
        "search_code, search_text, read_file, get_symbol, find_references, callers, callees, changes_since, list_entrypoints, "
        "list_dependencies"
    )
    # No file of that name was retrieved or read, so the citation is not shown.
    assert one(events, "citations").citations == ()
    assert events[-1].type == "done"


def test_a_router_answer_that_is_not_json_falls_back_to_the_keyword_router(shopapp, model):
    model.script(
        Reply.text("Sure! This looks like a question about the project."),
        Reply.text("It is in djshop/orders/views.py."),
    )

    events = run_turn_to_end(make_turn(QUESTION, shopapp))

    assert one(events, "intent").intent == "project_qa"
    route = next(e for e in events if e.type == "step" and e.node == "route_intent")
    assert route.detail["method"] == "keywords"
    assert "not valid JSON" in route.detail["reason"]
    assert answer_text(events) == "It is in djshop/orders/views.py."
    assert events[-1].type == "done"


def test_the_router_asks_for_structured_output(shopapp, model):
    model.script(route_reply(model, "general"), Reply.text("A decorator wraps a function."))

    events = run_turn_to_end(make_turn("What is a decorator in Python?", shopapp))

    router, general = model.chat_requests
    if model.wire == "gigachat":
        assert router.json["function_call"] == {"name": "route_intent"}
    else:
        assert router.json["response_format"]["json_schema"]["name"] == "route_intent"
    assert one(events, "intent").intent == "general"
    system = general.json["messages"][0]["content"]
    assert "Answer the user's message directly" in system
    assert answer_text(events) == "A decorator wraps a function."


def test_the_last_round_has_no_tools_and_asks_for_the_answer(shopapp, model, settings):
    settings.CHAT = {**settings.CHAT, "AGENT_MAX_TOOL_ROUNDS": 1}
    model.script(
        route_reply(model, "project_qa"),
        Reply.tool_call("get_symbol", {"name": "login_view"}),
        Reply.text("It is djshop/orders/views.py:10-18."),
    )

    events = run_turn_to_end(make_turn(QUESTION, shopapp))

    final = answer_requests(model)[-1]
    assert offered_tools(final) == []
    assert "You have used all tool rounds" in final.json["messages"][-1]["content"]
    (citation,) = one(events, "citations").citations
    assert (citation.path, citation.start_line, citation.end_line) == ("djshop/orders/views.py", 10, 18)


# Small enough that two search results pass 80% of it, large enough for one plus the summary.
WINDOW = 4700


def test_older_tool_exchanges_are_summarized_past_80_percent_of_the_window(shopapp, model, settings):
    wire = model.wire
    llm = {**settings.LLM}
    provider = {**llm["PROVIDERS"][wire]}
    provider["MODELS"] = {**provider["MODELS"], "summarization": "summary-model"}
    provider["CONTEXT_WINDOWS"] = {**provider["CONTEXT_WINDOWS"], "main": WINDOW}
    llm["PROVIDERS"] = {**llm["PROVIDERS"], wire: provider}
    settings.LLM = llm
    model.script(
        route_reply(model, "project_qa"),
        Reply.tool_call("search_code", {"query": "login view"}),
        Reply.tool_call("read_file", {"path": "djshop/orders/views.py", "start": 1, "end": 33}),
        Reply.text("- `login_view` is routed at djshop/djshop/urls.py:8-8 and defined at djshop/orders/views.py:10-18."),
        Reply.text("The login view is djshop/orders/views.py:11-18, routed at djshop/djshop/urls.py:8."),
    )

    events = run_turn_to_end(make_turn(QUESTION, shopapp))

    router, first, second, summary_request, final = model.chat_requests
    shown = re.match(r"(\d+) results for 'login view'", result_text(tool_results(second)[0]))
    assert shown and 1 <= int(shown.group(1)) <= 12  # the cap for a small window
    assert summary_request.json["model"] == "summary-model"
    summarized = summary_request.json["messages"][-1]["content"]
    assert "Called search_code" in summarized and "results for 'login view'" in summarized
    assert "Called read_file" not in summarized
    # The latest exchange stays whole: the read_file call and its answer, after the summary.
    messages = final.json["messages"]
    assert not any("results for 'login view'" in str(m.get("content")) for m in messages)
    assert any("`login_view` is routed at djshop/djshop/urls.py:8-8" in str(m.get("content")) for m in messages)
    assert messages[-1]["role"] in ("tool", "function") and "11 | def login_view" in result_text(messages[-1]["content"])
    step = one([e for e in events if e.type == "step" and e.node == "summarize_tool_results"], "step")
    assert step.detail["method"] == "model" and step.detail["exchanges"] == 1
    assert step.detail["tokens_before"] > 0.8 * WINDOW > step.detail["tokens_after"]
    # Spans seen before the summary can still be cited.
    citations = one(events, "citations").citations
    assert [(c.path, c.start_line, c.end_line) for c in citations] == [
        ("djshop/orders/views.py", 11, 18),
        ("djshop/djshop/urls.py", 8, 8),
    ]


def test_text_from_several_rounds_streams_as_one_answer_in_paragraphs(shopapp, model):
    model.script(
        route_reply(model, "project_qa"),
        Reply.tool_call("get_symbol", {"name": "login_view"}, text="Let me find its definition."),
        Reply.text("It is defined at djshop/orders/views.py:10-18."),
    )

    events = run_turn_to_end(make_turn(QUESTION, shopapp))

    assert answer_text(events) == "Let me find its definition.\n\nIt is defined at djshop/orders/views.py:10-18."
    assert [(c.path, c.start_line, c.end_line) for c in one(events, "citations").citations] == [
        ("djshop/orders/views.py", 10, 18)
    ]


def test_a_quoted_text_is_looked_up_line_by_line_before_the_model_answers(shopapp, model):
    model.script(route_reply(model, "project_qa"), Reply.text("It is in src/shopapp/pricing.py:7."))

    events = run_turn_to_end(make_turn('Where is the "WELCOME10" code handled?', shopapp))

    (first,) = answer_requests(model)
    system = first.json["messages"][0]["content"]
    written = system.split("Where the question's quoted text is written:\n\n", 1)[1]
    assert written.startswith("2 lines matching the text 'WELCOME10':\nsrc/shopapp/pricing.py:7: DISCOUNT_CODES")
    assert [event.detail["tool"] for event in events if event.type == "tool"] == ["search_code", "search_text"]
    (citation,) = one(events, "citations").citations
    assert (citation.path, citation.start_line) == ("src/shopapp/pricing.py", 7)


def test_a_package_the_question_names_is_shown_where_the_manifests_declare_it_before_the_model_answers(shopapp, model):
    model.script(route_reply(model, "project_qa"), Reply.text("Flask 3.0 or later, pyproject.toml:11."))

    events = run_turn_to_end(make_turn("Which version of Flask does the shop need?", shopapp))

    (first,) = answer_requests(model)
    system = first.json["messages"][0]["content"]
    declared = system.split("Where the manifests declare the package 'flask':\n\n", 1)[1]
    assert declared.startswith("1 dependency declared in 1 manifest:\n- pypi flask >=3.0 [runtime] at pyproject.toml:11")
    assert [event.detail["tool"] for event in events if event.type == "tool"] == ["search_code", "list_dependencies"]
    (citation,) = one(events, "citations").citations
    assert (citation.path, citation.start_line) == ("pyproject.toml", 11)


def test_a_plain_word_that_names_a_package_only_outside_a_question_about_versions_adds_nothing(shopapp, model):
    model.script(route_reply(model, "project_qa"), Reply.text("The CLI is src/shopapp/cli.py:14-17."))

    events = run_turn_to_end(make_turn("How do the click commands sync products?", shopapp))

    assert [event.detail["tool"] for event in events if event.type == "tool"] == ["search_code"]

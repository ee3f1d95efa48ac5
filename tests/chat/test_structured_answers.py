"""Structured answers in the chat (``CHAT["STRUCTURED_ANSWERS"]``): the model answers
``{internal_thought, is_safe, answer}`` JSON; the page gets only the answer, after the
verdict; an unsafe answer is flagged on the page and in admin; the reasoning stays with
staff. The real consumer, agent and provider adapters run against the local fake model."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from chat.models import ChatSession, Message
from llm.conversation.structured import FORMAT_INSTRUCTION
from tests.chat.conftest import DONE_FRAME, TOKEN_FRAME, frames_until_done, is_done, socket, stored_answer, token_deltas
from tests.llm.fakes import FakeProviderServer, RecordedRequest, Reply

pytestmark = pytest.mark.django_db(transaction=True)

THOUGHT = "PRIVATE-REASONING the user asks for a greeting; harmless"
ANSWER = 'Hello! Here is a *Markdown* answer with "quotes", a back\\slash and é.'
UNSAFE_THOUGHT = "PRIVATE-REASONING this asks for a weapon recipe"
REFUSAL = "I can't help with that."
PLAIN = 'A model that ignores the format writes {"just": "text"} like this.'
VERDICT_FRAME = re.compile(r'<p id="msg-(\d+)-verdict"[^>]*data-safe="(true|false|unknown)"[^>]*hx-swap-oob="true"')
FLAG = "Flagged as possibly unsafe"
FLAG_ELEMENT = re.compile(r'<p id="msg-\d+-verdict"[^>]*>')


def shown_flags(html: str) -> list[str]:
    """The verdict elements of a page or frame that are shown (an unsafe answer's flag)."""
    return [tag for tag in FLAG_ELEMENT.findall(html) if " hidden" not in tag]


def schema_name(request: RecordedRequest) -> str:
    """The name of the JSON schema a request asks for, whatever the wire format ('' for none)."""
    body = request.json or {}
    if request.wire == "gigachat":
        call = body.get("function_call")
        return call["name"] if isinstance(call, dict) else ""
    return ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")


def structured_reply(request: RecordedRequest, document: dict) -> Reply:
    if request.wire == "gigachat":
        # GigaChat answers a schema by calling the schema's function.
        return Reply.tool_call("structured_answer", document)
    # Pieces apart in time, as a model sends them: an answer is read at its page's pace.
    return Reply.text(json.dumps(document, ensure_ascii=False), chunk_size=5, interval=0.03)


def reply(request: RecordedRequest) -> Reply:
    if schema_name(request) == "route_intent":
        if request.wire == "gigachat":
            return Reply.tool_call("route_intent", {"intent": "general"})
        return Reply.text('{"intent": "general"}')
    question = request.last_user_text
    if question.startswith("plain"):
        return Reply.text(PLAIN, chunk_size=6)
    if question.startswith("weapon"):
        return structured_reply(request, {"internal_thought": UNSAFE_THOUGHT, "is_safe": False, "answer": REFUSAL})
    return structured_reply(request, {"internal_thought": THOUGHT, "is_safe": True, "answer": ANSWER})


def use_model(server: FakeProviderServer, settings, wire: str, *, structured: bool) -> FakeProviderServer:
    settings.LLM = {**server.llm_settings(wire), "AUDIT": False}
    settings.CHAT = {**settings.CHAT, "STRUCTURED_ANSWERS": structured}
    server.fallback = reply
    return server


@pytest.fixture(params=["openai", "gigachat"])
def structured_model(request, fake_llm_server: FakeProviderServer, settings) -> FakeProviderServer:
    return use_model(fake_llm_server, settings, request.param, structured=True)


async def ask(chat: ChatSession, cookie: str, text: str) -> tuple[list[str], Message]:
    """Every frame of one answer, and the answer as stored."""
    communicator = socket(chat.pk, cookie)
    assert (await communicator.connect())[0]
    await communicator.send_json_to({"action": "send", "text": text})
    frames = await frames_until_done(communicator)
    await communicator.disconnect()
    answer = await Message.objects.filter(session=chat, role="assistant").alatest("id")
    return frames, await stored_answer(answer.pk)


def verdicts(frames: list[str]) -> list[tuple[int, str]]:
    """(index of the frame, data-safe) of every verdict frame."""
    return [(index, match.group(2)) for index, frame in enumerate(frames) for match in VERDICT_FRAME.finditer(frame)]


def verdict_before_first_token(frames: list[str]) -> bool:
    """The verdict fragment comes before the first text fragment (both may share one websocket message)."""
    fragments = "".join(frames)
    return VERDICT_FRAME.search(fragments).start() < TOKEN_FRAME.search(fragments).start()


def answer_requests(server: FakeProviderServer) -> list[RecordedRequest]:
    return [r for r in server.chat_requests if schema_name(r) != "route_intent"]


async def test_a_structured_answer_streams_only_its_answer_after_the_verdict_and_stores_it_alone(structured_model, owner_chat, owner_cookie):
    frames, answer = await ask(owner_chat, owner_cookie, "hello there")

    streamed = [delta for frame in frames for delta in token_deltas(frame)]
    assert "".join(streamed) == ANSWER
    if structured_model.chat_requests[-1].wire == "openai":
        assert len(streamed) > 3, "the answer must arrive in pieces as the JSON streams"
    (_, verdict), = verdicts(frames)
    assert verdict == "true" and verdict_before_first_token(frames)
    assert not any("PRIVATE-REASONING" in frame for frame in frames)

    assert answer.status == "complete" and answer.content == ANSWER and answer.is_safe is True
    assert answer.metrics["structured"] == {"is_safe": True, "internal_thoughts": [THOUGHT]}
    assert "PRIVATE-REASONING" not in json.dumps(answer.steps) + json.dumps(answer.artifacts)
    request = answer_requests(structured_model)[-1]
    assert schema_name(request) == "structured_answer"
    assert FORMAT_INSTRUCTION in request.json["messages"][0]["content"]

    # The next turn sends the model the answer alone.
    await ask(owner_chat, owner_cookie, "hello again")
    history = json.dumps(answer_requests(structured_model)[-1].json["messages"], ensure_ascii=False)
    assert json.dumps(ANSWER, ensure_ascii=False)[1:-1] in history
    assert "PRIVATE-REASONING" not in history


async def test_an_unsafe_answer_is_flagged_on_the_page_and_in_admin(
    structured_model, owner_chat, owner_cookie, owner_client, admin_client
):
    frames, answer = await ask(owner_chat, owner_cookie, "weapon instructions please")

    (_, verdict), = verdicts(frames)
    assert verdict == "false" and verdict_before_first_token(frames)
    # Fragments, not websocket messages: several frames may share one message.
    fragments = "".join(frames)
    flag = re.search(r'<p id="msg-\d+-verdict"[^>]*hx-swap-oob="true".*?</p>', fragments, re.S).group(0)
    assert 'role="alert"' in flag and FLAG in flag
    assert len(shown_flags(flag)) == 1
    done = fragments[DONE_FRAME.search(fragments).start() :]
    assert len(shown_flags(done)) == 1
    assert answer.is_safe is False and answer.content == REFUSAL
    assert answer.metrics["structured"]["internal_thoughts"] == [UNSAFE_THOUGHT]

    page = (await sync_to_async(owner_client.get)(reverse("chat-session", args=[owner_chat.pk]))).content.decode()
    assert len(shown_flags(page)) == 1 and REFUSAL in page and "PRIVATE-REASONING" not in page

    changelist = reverse("admin:chat_message_changelist")
    flagged = (await sync_to_async(admin_client.get)(changelist, {"is_safe__exact": "0"})).content.decode()
    safe = (await sync_to_async(admin_client.get)(changelist, {"is_safe__exact": "1"})).content.decode()
    change_link = reverse("admin:chat_message_change", args=[answer.pk])
    assert change_link in flagged and change_link not in safe
    detail = (await sync_to_async(admin_client.get)(change_link)).content.decode()
    assert UNSAFE_THOUGHT in detail
    session = (await sync_to_async(admin_client.get)(reverse("admin:chat_chatsession_change", args=[owner_chat.pk]))).content
    assert b"is safe" in session.lower()


async def test_a_model_that_ignores_the_format_has_its_raw_text_as_the_answer(structured_model, owner_chat, owner_cookie):
    frames, answer = await ask(owner_chat, owner_cookie, "plain words please")

    assert "".join(delta for frame in frames for delta in token_deltas(frame)) == PLAIN
    assert answer.content == PLAIN and answer.is_safe is None
    assert verdicts(frames) == []
    assert shown_flags(next(frame for frame in frames if is_done(frame))) == []


async def test_with_the_mode_off_the_model_is_asked_for_plain_text_and_shown_whole(
    fake_llm_server, settings, owner_chat, owner_cookie
):
    model = use_model(fake_llm_server, settings, "openai", structured=False)

    frames, answer = await ask(owner_chat, owner_cookie, "hello there")

    request = answer_requests(model)[-1]
    assert schema_name(request) == "" and FORMAT_INSTRUCTION not in json.dumps(request.json)
    # The model's text is the answer, whatever it looks like.
    assert answer.content == "".join(delta for frame in frames for delta in token_deltas(frame))
    assert THOUGHT in answer.content and answer.is_safe is None and "structured" not in answer.metrics
    assert verdicts(frames) == []


async def test_a_joining_page_sees_the_flag_and_a_stopped_unsafe_answer_keeps_its_verdict(
    fake_llm_server, settings, owner_chat, owner_cookie
):
    model = use_model(fake_llm_server, settings, "openai", structured=True)
    long_refusal = "No. " * 150
    document = {"internal_thought": UNSAFE_THOUGHT, "is_safe": False, "answer": long_refusal}
    model.fallback = lambda request: (
        Reply.text('{"intent": "general"}')
        if schema_name(request) == "route_intent"
        else Reply.text(json.dumps(document), chunk_size=4, interval=0.01)
    )
    first = socket(owner_chat.pk, owner_cookie)
    assert (await first.connect())[0]
    await first.send_json_to({"action": "send", "text": "weapon instructions please"})
    deltas = 0
    while deltas < 5:
        deltas += len(token_deltas(await first.receive_from(timeout=5)))
    answer = await Message.objects.filter(session=owner_chat, role="assistant").alatest("id")

    second = socket(owner_chat.pk, owner_cookie, f"?watch={answer.pk}")
    assert (await second.connect())[0]
    verdict, snapshot = await second.receive_from(timeout=5), await second.receive_from(timeout=5)
    assert len(shown_flags(verdict)) == 1 and token_deltas(snapshot)
    await first.send_json_to({"action": "stop"})
    await frames_until_done(first)
    await first.disconnect()
    await second.disconnect()

    stopped = await stored_answer(answer.pk)
    assert stopped.status == "cancelled" and stopped.is_safe is False
    assert 0 < len(stopped.content) < len(long_refusal) and long_refusal.startswith(stopped.content)
    assert "PRIVATE-REASONING" not in stopped.content

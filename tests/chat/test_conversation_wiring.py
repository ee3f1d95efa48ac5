"""Every chat turn goes through the chat's conversation manager: a long dialog in the chat
hands over to a summarized context, the answer stores the manager's figures, and deleting
the chat forgets its summaries. The real consumer, agent and OpenAI adapter run against
the local fake model, whose window is small enough for a few questions to fill it."""

from __future__ import annotations

import asyncio
import re

import pytest
from asgiref.sync import sync_to_async
from django.contrib import admin
from django.urls import reverse

from chat.admin import MessageInline
from chat.conversations import CONVERSATIONS, conversation_key
from chat.models import ChatSession, Message
from llm.conversation.context import SUMMARY_HEADING
from llm.conversation.store import ConversationSummary
from tests.chat.conftest import frames_until_done, socket, stored_answer, token_deltas
from tests.llm.fakes import FakeProviderServer, RecordedRequest, Reply

pytestmark = pytest.mark.django_db(transaction=True)

MAIN_MODEL = "chat-main"
SUMMARY_MODEL = "chat-summarizer"
# The dialog gets AGENT_HISTORY_SHARE (0.3) of it: 600 tokens, filled in a handful of turns.
MAIN_WINDOW = 2000
MAX_TURNS = 30
ANSWER = (
    "Here is an answer with enough words to take some room in the window of the model; "
    "it names a file, `app/handlers.py:10-42`, and says what the handler does with its input."
)


LONG_QUESTION = "Tell me everything"


def question(number: int) -> str:
    return f"Question {number}: how does part {number} of the repository handle its input?"


def reply(request: RecordedRequest) -> Reply:
    body = request.json or {}
    if body.get("model") == SUMMARY_MODEL:
        numbers = [int(n) for n in re.findall(r"Question (\d+):", body["messages"][-1]["content"])]
        return Reply.text(f"SUMMARY of questions {min(numbers)}-{max(numbers)}.")
    if "response_format" in body:
        return Reply.text('{"intent": "general"}', usage=(0, 0))
    if request.last_user_text == LONG_QUESTION:
        return Reply.text("word " * 400, chunk_size=5, interval=0.005)
    return Reply.text(ANSWER, chunk_size=16)


@pytest.fixture
def small_window_model(fake_llm_server: FakeProviderServer, settings) -> FakeProviderServer:
    llm = fake_llm_server.llm_settings("openai")
    openai = llm["PROVIDERS"]["openai"]
    openai["MODELS"] = {**openai.get("MODELS", {}), "main": MAIN_MODEL, "summarization": SUMMARY_MODEL}
    openai["CONTEXT_WINDOWS"] = {"main": MAIN_WINDOW, "summarization": 8000}
    llm["CONVERSATION"] = {**llm.get("CONVERSATION", {}), "STRUCTURED": False}
    llm["AUDIT"] = False
    settings.LLM = llm
    fake_llm_server.fallback = reply
    return fake_llm_server


def answer_requests(server: FakeProviderServer) -> list[RecordedRequest]:
    return [
        r
        for r in server.chat_requests
        if (r.json or {}).get("model") == MAIN_MODEL and "response_format" not in (r.json or {})
    ]


async def ask(communicator, text: str) -> None:
    await communicator.send_json_to({"action": "send", "text": text})
    await frames_until_done(communicator)


async def latest_answer(chat: ChatSession) -> Message:
    answer = await Message.objects.filter(session=chat, role="assistant").alatest("id")
    return await stored_answer(answer.pk)


async def test_a_long_chat_hands_over_to_a_summary_and_stores_every_message(small_window_model, owner_chat, owner_cookie):
    communicator = socket(owner_chat.pk, owner_cookie)
    assert (await communicator.connect())[0]
    answers: list[Message] = []
    for number in range(1, MAX_TURNS):
        await ask(communicator, question(number))
        answers.append(await latest_answer(owner_chat))
        if len(answers) >= 2 and answers[-2].metrics["conversation"]["handovers"]:
            break  # one turn after the handover
    await communicator.disconnect()

    handovers = [answer.metrics["conversation"]["handovers"] for answer in answers]
    assert sum(handovers) == 1, "the dialog must cross 90% of its window exactly once"
    assert sum(answer.metrics["conversation"]["warmups"] for answer in answers) >= 1
    assert all(answer.status == "complete" and answer.content == ANSWER for answer in answers)
    # The manager's figures are stored beside the chat's own.
    assert all(answer.metrics["tokens_out"] and answer.metrics["conversation"]["outcome"] == "ok" for answer in answers)
    assert answers[-1].metrics["conversation"]["summarized_messages"] > 0
    assert answers[-1].metrics["conversation"]["latency_ms"] > 0
    shown_in_admin = MessageInline(ChatSession, admin.site).metrics_summary(answers[-2])
    assert "handovers 1" in shown_in_admin

    # Nothing is lost in the database: every question and answer, in order.
    stored = [(m.role, m.content) async for m in Message.objects.filter(session=owner_chat).order_by("id")]
    assert stored == [pair for n in range(1, len(answers) + 1) for pair in (("user", question(n)), ("assistant", ANSWER))]

    # Before the handover the model saw the whole dialog; after it, the summary instead of the old turns.
    requests = answer_requests(small_window_model)
    assert len(requests) == len(answers)
    first = str(requests[0].json["messages"])
    assert SUMMARY_HEADING not in first
    assert question(1) in str(requests[len(answers) - 3].json["messages"])
    after = str(requests[-1].json["messages"])
    summary = await ConversationSummary.objects.filter(session_key=conversation_key(owner_chat.pk)).order_by("covered_messages").afirst()
    assert SUMMARY_HEADING in after and summary.text in after and summary.text.startswith("SUMMARY of questions 1-")
    assert question(1) not in after
    assert question(summary.covered_messages // 2 + 1) in after
    assert requests[-1].json["messages"][-1] == {"role": "user", "content": question(len(answers))}


async def test_a_manager_out_of_step_with_the_stored_dialog_is_rebuilt_from_it(small_window_model, owner_chat, owner_cookie):
    communicator = socket(owner_chat.pk, owner_cookie)
    assert (await communicator.connect())[0]
    await ask(communicator, question(1))
    await ask(communicator, question(2))
    # Another process (or an administrator) removed the first exchange.
    first_two = Message.objects.filter(session=owner_chat).order_by("id").values_list("id", flat=True)[:2]
    await Message.objects.filter(id__in=[pk async for pk in first_two]).adelete()
    await ask(communicator, question(3))
    await communicator.disconnect()

    sent = answer_requests(small_window_model)[-1].json["messages"]
    users = [m["content"] for m in sent if m["role"] == "user"]
    assert users == [question(2), question(3)]


async def test_after_stop_the_next_question_sees_the_stopped_answer_as_stored(small_window_model, owner_chat, owner_cookie):
    communicator = socket(owner_chat.pk, owner_cookie)
    assert (await communicator.connect())[0]
    await communicator.send_json_to({"action": "send", "text": LONG_QUESTION})
    deltas = 0
    while deltas < 5:
        deltas += len(token_deltas(await communicator.receive_from(timeout=5)))
    await communicator.send_json_to({"action": "stop"})
    await frames_until_done(communicator)
    stopped = await latest_answer(owner_chat)
    await ask(communicator, question(1))
    await communicator.disconnect()

    assert stopped.status == "cancelled" and 0 < len(stopped.content) < len("word " * 400)
    sent = answer_requests(small_window_model)[-1].json["messages"]
    assert [m for m in sent if m["role"] != "system"] == [
        {"role": "user", "content": LONG_QUESTION},
        {"role": "assistant", "content": stopped.content},
        {"role": "user", "content": question(1)},
    ]


async def test_deleting_a_chat_forgets_its_summaries_and_its_manager(small_window_model, owner_chat, owner_cookie, owner_client):
    communicator = socket(owner_chat.pk, owner_cookie)
    assert (await communicator.connect())[0]
    for number in range(1, MAX_TURNS):
        await ask(communicator, question(number))
        if await ConversationSummary.objects.filter(session_key=conversation_key(owner_chat.pk)).aexists():
            break
    await communicator.disconnect()
    assert owner_chat.pk in CONVERSATIONS
    other = await ConversationSummary.objects.acreate(key="k" * 64, session_key=conversation_key(owner_chat.pk + 1), covered_messages=2, text="kept")

    response = await sync_to_async(owner_client.post)(reverse("chat-delete", args=[owner_chat.pk]))

    assert response.status_code == 302
    assert not await ConversationSummary.objects.filter(session_key=conversation_key(owner_chat.pk)).aexists()
    assert await ConversationSummary.objects.filter(pk=other.pk).aexists()
    for _ in range(100):
        if owner_chat.pk not in CONVERSATIONS:
            break
        await asyncio.sleep(0.01)
    assert owner_chat.pk not in CONVERSATIONS


async def test_past_the_bound_the_least_recently_used_idle_managers_go_and_answering_chats_keep_theirs(settings):
    from chat.conversations import ConversationRegistry

    settings.CHAT = {**settings.CHAT, "ACTIVE_CONVERSATIONS": 2}
    registry = ConversationRegistry()
    for session_id in (1, 2):
        async with registry.turn(session_id, session_id * 10, 0):
            pass
    async with registry.turn(1, 11, 0):
        # Chat 1 was used again: chat 2 is now the least recently used.
        pass
    async with registry.turn(3, 30, 0):
        assert [session_id in registry for session_id in (1, 2, 3)] == [True, False, True]
        async with registry.turn(4, 40, 0):
            # Chat 3 is answering: chat 1, idle, goes instead of it.
            assert [session_id in registry for session_id in (1, 3, 4)] == [False, True, True]
            async with registry.turn(5, 50, 0):
                # Every kept chat is answering: the bound waits until one is idle.
                assert [session_id in registry for session_id in (3, 4, 5)] == [True, True, True]
    async with registry.turn(6, 60, 0):
        assert sum(session_id in registry for session_id in (3, 4, 5, 6)) == 2

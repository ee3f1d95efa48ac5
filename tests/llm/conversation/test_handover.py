"""Scripted dialogs through the real OpenAI adapter and the local fake server, crossing 50% and 90% of a small window."""

from __future__ import annotations

import asyncio
import logging
import uuid

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model

from chat.models import ChatSession
from chat.models import Message as StoredMessage
from llm.conversation.context import SUMMARY_HEADING
from llm.conversation.manager import ConversationManager, TurnChunk
from llm.conversation.store import ConversationSummary, forget_summaries
from llm.tokens import estimate_message_tokens
from llm.types import Message
from tests.llm.conversation.conftest import SYSTEM_PROMPT, WINDOW, DialogModels, question

pytestmark = pytest.mark.django_db(transaction=True)

MAX_TURNS = 80


async def ask(manager: ConversationManager, text: str) -> list[TurnChunk]:
    chunks = [chunk async for chunk in manager.process_user_turn(text)]
    assert chunks[-1].is_final and sum(chunk.is_final for chunk in chunks) == 1
    return chunks


def request_messages(request) -> list[Message]:
    return [Message(role=m["role"], content=m["content"]) for m in request.json["messages"]]


def user_texts(request) -> list[str]:
    return [m["content"] for m in request.json["messages"] if m["role"] == "user"]


async def store_turn(session: ChatSession, text: str, final: TurnChunk) -> None:
    """What the chat consumer does with a turn: the question and the answer with its figures."""
    await StoredMessage.objects.acreate(session=session, role="user", content=text)
    await StoredMessage.objects.acreate(session=session, role="assistant", content=final.answer, metrics=final.metrics.as_dict())


async def stored_history(session: ChatSession) -> list[Message]:
    return [Message(role=m.role, content=m.content) async for m in StoredMessage.objects.filter(session=session).order_by("created_at", "id")]


async def test_a_dialog_crossing_both_thresholds_warms_up_once_hands_over_once_and_reuses_the_summary(dialog_models: DialogModels):
    user = await get_user_model().objects.acreate(username=f"u{uuid.uuid4().hex[:8]}")
    session = await ChatSession.objects.acreate(owner=user)
    key = f"chat-session:{session.pk}"
    manager = ConversationManager(key, system_prompt=SYSTEM_PROMPT)
    finals: list[TurnChunk] = []
    handover_turn = None
    for number in range(1, MAX_TURNS):
        chunks = await ask(manager, question(number))
        final = chunks[-1]
        assert final.error == "" and final.answer == dialog_models.answer_text
        assert chunks[0].metadata is not None and all(chunk.metadata is None for chunk in chunks[1:])
        await store_turn(session, question(number), final)
        finals.append(final)
        if handover_turn is not None:
            break  # one turn after the handover
        if final.metrics.handovers:
            handover_turn = number
    await manager.shutdown()

    assert handover_turn is not None, "the dialog never reached the handover threshold"
    assert sum(f.metrics.handovers for f in finals) == 1
    # One warm-up before the handover turn. The new context starts near the warm-up threshold (the
    # turns since the warm-up came along verbatim), so the next cycle may begin right after it.
    assert sum(f.metrics.warmups for f in finals[: handover_turn - 1]) == 1
    # No turn lost: every question and answer is stored, in order.
    stored = await stored_history(session)
    assert len(stored) == 2 * len(finals)
    assert [m.content for m in stored[0::2]] == [question(n) for n in range(1, len(finals) + 1)]
    assert all(m.content == dialog_models.answer_text for m in stored[1::2])

    # The handover came before the handover turn's request or while its answer streamed: the first
    # request carrying the summary is that turn's or the next one's, and every earlier one is whole.
    main = dialog_models.main_requests()
    assert len(main) == len(finals)
    first_with_summary = next(i for i, r in enumerate(main) if SUMMARY_HEADING in r.json["messages"][0]["content"])
    assert first_with_summary in (handover_turn - 1, handover_turn)
    assert all(user_texts(r)[0] == question(1) for r in main[:first_with_summary])
    after = main[first_with_summary]
    requests = dialog_models.server.chat_requests
    summaries_before = [r for r in dialog_models.summary_requests() if requests.index(r) < requests.index(after)]
    assert len(summaries_before) == 1
    # After the handover the summary stands for the old turns, which are gone from the request.
    summary = await ConversationSummary.objects.filter(session_key=key).order_by("covered_messages").afirst()
    assert summary.text.startswith("SUMMARY of questions 1-")
    assert summary.text in after.json["messages"][0]["content"]
    first_kept = summary.covered_messages // 2 + 1
    assert user_texts(after)[0] == question(first_kept)
    assert question(1) not in str(after.json["messages"])
    assert user_texts(after)[-1] == question(first_with_summary + 1)
    for request in main:
        assert estimate_message_tokens(request_messages(request)) + request.json["max_tokens"] <= WINDOW

    # The session reopened (a restart): its stored history finds the summary again without a model call.
    reopened = ConversationManager(key, history=await stored_history(session), system_prompt=SYSTEM_PROMPT)
    final = (await ask(reopened, question(100)))[-1]
    await reopened.shutdown()
    assert final.metrics.summary_cache_hits >= 1
    latest = await ConversationSummary.objects.filter(session_key=key).order_by("-covered_messages").afirst()
    resumed = dialog_models.main_requests()[-1]
    assert latest.text in resumed.json["messages"][0]["content"]
    assert user_texts(resumed)[0] == question(latest.covered_messages // 2 + 1)
    assert user_texts(resumed)[-1] == question(100)


async def test_a_slow_summarization_model_makes_the_handover_wait_and_requests_stay_inside_the_window(dialog_models: DialogModels):
    dialog_models.summary_delay = 2.5
    manager = ConversationManager(f"s-{uuid.uuid4()}", system_prompt=SYSTEM_PROMPT)
    finals = []
    for number in range(1, MAX_TURNS):
        final = (await ask(manager, question(number)))[-1]
        finals.append(final)
        if final.metrics.handovers:
            break
    await manager.shutdown()

    handover = finals[-1]
    assert handover.metrics.handovers == 1
    # The turn at the threshold waited for the summary instead of sending an oversized request.
    assert handover.metrics.ttfc_ms > 200
    assert max(f.metrics.ttfc_ms for f in finals[:-1]) < handover.metrics.ttfc_ms
    assert sum(f.metrics.trimmed_messages for f in finals) == 0
    requests = dialog_models.server.chat_requests
    summary_index = requests.index(dialog_models.summary_requests()[0])
    last_main = dialog_models.main_requests()[-1]
    assert requests.index(last_main) > summary_index
    assert "SUMMARY of questions" in last_main.json["messages"][0]["content"]
    for request in dialog_models.main_requests():
        assert estimate_message_tokens(request_messages(request)) + request.json["max_tokens"] <= WINDOW


async def test_a_failing_summarization_model_costs_one_wait_then_the_guard_trims_and_turns_go_on(dialog_models: DialogModels):
    dialog_models.summary_fails = True
    dialog_models.summary_delay = 0.3
    manager = ConversationManager(f"s-{uuid.uuid4()}", system_prompt=SYSTEM_PROMPT)
    finals = [(await ask(manager, question(number)))[-1] for number in range(1, 45)]
    await manager.shutdown()

    assert all(f.error == "" and f.answer == dialog_models.answer_text for f in finals)
    assert sum(f.metrics.handovers for f in finals) == 0
    assert sum(f.metrics.trimmed_messages for f in finals) > 0
    # Once past the threshold with no standby, turns do not wait for the failing model again and again.
    slow = [f for f in finals if f.metrics.ttfc_ms >= 300]
    assert len(slow) <= 1
    for request in dialog_models.main_requests():
        assert estimate_message_tokens(request_messages(request)) + request.json["max_tokens"] <= WINDOW


async def test_the_hard_guard_cuts_a_message_larger_than_the_window(dialog_models: DialogModels):
    manager = ConversationManager(f"s-{uuid.uuid4()}", system_prompt=SYSTEM_PROMPT)
    huge = "Please read this log: " + "line of a very long log output\n" * 400 + "What failed?"
    final = (await ask(manager, huge))[-1]
    await manager.shutdown()

    sent = dialog_models.main_requests()[-1]
    assert estimate_message_tokens(request_messages(sent)) + sent.json["max_tokens"] <= WINDOW
    assert user_texts(sent)[-1].endswith("What failed?")
    assert final.answer == dialog_models.answer_text


async def test_a_handover_while_an_answer_streams_writes_the_rest_of_it_to_the_new_context(dialog_models: DialogModels):
    manager = ConversationManager(f"s-{uuid.uuid4()}", system_prompt=SYSTEM_PROMPT)
    for number in range(1, MAX_TURNS):
        await ask(manager, question(number))
        if manager.controller.usage_ratio() >= 0.84:
            break
    for _ in range(500):  # the warm-up runs in the background: give it up to 5 s
        if manager.controller.standby is not None:
            break
        await asyncio.sleep(0.01)
    assert manager.controller.standby is not None
    long_answer = " ".join(f"Step {n}: change the retry policy and rerun the tests." for n in range(20))
    dialog_models.answer_text = long_answer

    final = (await ask(manager, question(99)))[-1]
    await manager.shutdown()

    assert final.metrics.handovers == 1
    # The request went out before the handover (with the old turns), the answer landed after it.
    assert user_texts(dialog_models.main_requests()[-1])[0] == question(1)
    context = manager.context
    assert context.summary is not None
    assert context.messages[-1] == Message(role="assistant", content=long_answer)
    assert context.messages[-2] == Message(role="user", content=question(99))


async def test_it_goes_on_without_the_cache_and_logs_the_degradation(dialog_models: DialogModels, settings, caplog):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:9/0"}}
    key = f"s-{uuid.uuid4()}"
    manager = ConversationManager(key, system_prompt=SYSTEM_PROMPT)
    with caplog.at_level(logging.DEBUG, logger="llm.conversation"):
        for number in range(1, MAX_TURNS):
            final = (await ask(manager, question(number)))[-1]
            if final.metrics.handovers:
                break
    await manager.shutdown()

    assert final.metrics.handovers == 1
    assert await ConversationSummary.objects.filter(session_key=key).aexists()
    assert "summary cache unavailable" in caplog.text


async def test_forgetting_a_session_deletes_its_summaries_only():
    key, other = f"s-{uuid.uuid4()}", f"s-{uuid.uuid4()}"
    for session_key in (key, other):
        await ConversationSummary.objects.acreate(key=uuid.uuid4().hex, session_key=session_key, covered_messages=4, text="x")

    assert await sync_to_async(forget_summaries)(key) == 1

    assert not await ConversationSummary.objects.filter(session_key=key).aexists()
    assert await ConversationSummary.objects.filter(session_key=other).aexists()

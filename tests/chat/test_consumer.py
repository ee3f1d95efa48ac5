"""The chat websocket against the real ASGI app, the real runner and the OpenAI
adapter talking HTTP to a local fake model."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from chat.streams import REGISTRY
from chat.models import ChatSession, Message
from rag.models import Repository
from tests.chat.conftest import DONE_FRAME, Reply, frames_until_done, socket, stored_answer, token_deltas, token_text
from tests.factories import make_user

pytestmark = pytest.mark.django_db(transaction=True)

ANSWER = "The login view lives in accounts/views.py and checks the password before redirecting."
# In a chat with a repository the agent's router asks the model for the intent first (structured output);
# it spends no tokens here.
ROUTE_GENERAL = Reply.text('{"intent": "general"}', usage=(0, 0))


async def ask(communicator, text: str) -> None:
    await communicator.send_json_to({"action": "send", "text": text})


async def ask_and_wait(chat: ChatSession, cookie: str, text: str) -> None:
    """Open the chat's socket, ask, read until the answer is done, and close it."""
    communicator = socket(chat.pk, cookie)
    await communicator.connect()
    await ask(communicator, text)
    await frames_until_done(communicator)
    await communicator.disconnect()


async def latest_answer(chat: ChatSession) -> Message:
    return await Message.objects.filter(session=chat, role="assistant").alatest("id")


async def test_it_refuses_a_socket_without_login(owner_chat):
    communicator = socket(owner_chat.pk)
    connected, _ = await communicator.connect()
    assert connected is False


async def test_it_refuses_a_chat_of_another_user(owner_chat, client):
    intruder = await sync_to_async(make_user)("intruder")
    from tests.chat.conftest import session_cookie

    cookie = await sync_to_async(session_cookie)(client, intruder)
    communicator = socket(owner_chat.pk, cookie)
    connected, _ = await communicator.connect()
    assert connected is False
    assert await Message.objects.filter(session=owner_chat).acount() == 0


async def test_it_streams_tokens_in_order_and_stores_the_complete_answer(fake_openai, owner_chat, owner_cookie):
    fake_openai.script(Reply.text(ANSWER, chunk_size=5, interval=0.02, usage=(42, 17)))
    communicator = socket(owner_chat.pk, owner_cookie)
    assert (await communicator.connect())[0]
    await ask(communicator, "Where is the login view?")

    frames = await frames_until_done(communicator)
    tokens = [delta for frame in frames for delta in token_deltas(frame)]
    # 17 pieces 20 ms apart, read at the page's pace (50 ms): in several deltas, each with what one read brought.
    assert 1 < len(tokens) < len(range(0, len(ANSWER), 5))
    assert "".join(tokens) == ANSWER
    assert "Where is the login view?" in frames[0]  # the question is shown before any token
    await communicator.disconnect()

    question = await Message.objects.filter(session=owner_chat, role="user").aget()
    answer = await stored_answer((await latest_answer(owner_chat)).pk)
    assert question.content == "Where is the login view?" and question.id < answer.id
    assert answer.status == "complete" and answer.content == ANSWER and answer.intent == "general"
    assert answer.metrics["tokens_in"] == 42 and answer.metrics["tokens_out"] == 17
    assert answer.metrics["model"] and answer.metrics["latency_ms"] >= answer.metrics["ttft_ms"] >= 0
    sent = fake_openai.chat_requests[-1].json["messages"]
    assert sent[-1] == {"role": "user", "content": "Where is the login view?"}


async def test_stop_keeps_the_partial_text_and_marks_the_answer_cancelled(fake_openai, owner_chat, owner_cookie):
    fake_openai.script(Reply.text("word " * 400, chunk_size=5, interval=0.01))
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "Tell me everything")
    received = []
    while len(received) < 5:
        text = token_text(await communicator.receive_from(timeout=5))
        if text is not None:
            received.append(text)
    await communicator.send_json_to({"action": "stop"})
    frames = await frames_until_done(communicator)
    received += [t for t in map(token_text, frames) if t is not None]
    await communicator.disconnect()

    answer = await stored_answer((await latest_answer(owner_chat)).pk)
    assert answer.status == "cancelled"
    assert answer.content == "".join(received)
    assert 5 * 5 <= len(answer.content) < len("word " * 400)
    assert fake_openai.disconnects, "stopping must close the upstream stream"


async def test_disconnect_mid_stream_still_stores_the_complete_answer(fake_openai, owner_chat, owner_cookie):
    fake_openai.script(Reply.text(ANSWER, chunk_size=4, interval=0.01))
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "Where is the login view?")
    while token_text(await communicator.receive_from(timeout=5)) is None:
        pass
    await communicator.disconnect()

    answer = await stored_answer((await latest_answer(owner_chat)).pk)
    assert answer.status == "complete"
    assert answer.content == ANSWER


async def test_a_provider_failure_mid_stream_shows_an_error_and_keeps_the_partial_text(fake_openai, owner_chat, owner_cookie):
    fake_openai.script(Reply.text(ANSWER, chunk_size=6, interval=0.002, cut_after=3))
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "Where is the login view?")
    frames = await frames_until_done(communicator)
    await communicator.disconnect()

    errors = [f for f in frames if "notice-error" in f]
    assert len(errors) == 1 and "text so far is kept" in errors[0]
    answer = await stored_answer((await latest_answer(owner_chat)).pk)
    assert answer.status == "error"
    streamed = "".join(t for t in map(token_text, frames) if t is not None)
    assert answer.content == streamed and streamed and ANSWER.startswith(streamed) and streamed != ANSWER
    assert answer.error and "Traceback" not in answer.error
    assert 'class="msg-error"' in frames[-1]


async def test_a_new_question_cancels_the_answer_being_written(fake_openai, owner_chat, owner_cookie):
    fake_openai.script(
        Reply.text("slow " * 300, chunk_size=5, interval=0.01), Reply.text("Second answer.")
    )
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "first")
    while token_text(await communicator.receive_from(timeout=5)) is None:
        pass
    await ask(communicator, "second")
    # The first answer's final frame (cancelled), then the second's; frames close together share
    # one websocket message, so both can arrive in one.
    received = []
    while sum(len(DONE_FRAME.findall(frame)) for frame in received) < 2:
        received.append(await communicator.receive_from(timeout=10))
    await communicator.disconnect()

    first, second = [m async for m in Message.objects.filter(session=owner_chat, role="assistant").order_by("id")]
    assert first.status == "cancelled" and first.content.startswith("slow")
    # The page says why the first answer stopped, in that answer, not as an error.
    assert first.error == "Stopped: a new question was sent."
    stopped = next(frame for frame in received if f'id="msg-{first.pk}"' in frame)
    assert '<p class="msg-note">Stopped: a new question was sent.</p>' in stopped
    assert not any("notice-error" in frame for frame in received)
    second = await stored_answer(second.pk)
    assert second.status == "complete" and second.content == "Second answer."
    history = fake_openai.chat_requests[-1].json["messages"]
    assert [m["content"] for m in history if m["role"] == "user"] == ["first", "second"]


async def test_it_limits_the_running_answers_of_one_user(fake_openai, owner, owner_chat, owner_cookie, settings):
    settings.CHAT = {**settings.CHAT, "MAX_RUNNING_GENERATIONS": 1}
    other_chat = await ChatSession.objects.acreate(owner=owner, title="Other")
    fake_openai.script(Reply.text("long " * 200, chunk_size=5, interval=0.01))
    first = socket(owner_chat.pk, owner_cookie)
    second = socket(other_chat.pk, owner_cookie)
    await first.connect()
    await second.connect()
    await ask(first, "one")
    while token_text(await first.receive_from(timeout=5)) is None:
        pass
    await ask(second, "two")
    refusal = await second.receive_from(timeout=5)
    assert "already have 1 answers being written" in refusal
    assert 'data-text="two"' in refusal  # the unsent question goes back into the input
    assert await Message.objects.filter(session=other_chat).acount() == 0
    await first.send_json_to({"action": "stop"})
    await frames_until_done(first)
    await first.disconnect()
    await second.disconnect()


async def test_another_tab_joins_the_answer_being_written(fake_openai, owner_chat, owner_cookie):
    # The model streams for 2 s; the second tab joins after the first has shown 3 frames (a frame
    # carries what one paced read brought: about one frame interval, 50 ms, of the stream).
    fake_openai.script(Reply.text("abcdefghij" * 30, chunk_size=3, interval=0.02))
    first = socket(owner_chat.pk, owner_cookie)
    await first.connect()
    await ask(first, "go")
    seen = 0
    while seen < 3:
        seen += token_text(await first.receive_from(timeout=5)) is not None
    answer = await latest_answer(owner_chat)
    second = socket(owner_chat.pk, owner_cookie, f"?watch={answer.pk}")
    assert (await second.connect())[0]
    frames = await frames_until_done(second)
    snapshot = frames[0]
    assert 'hx-swap-oob="innerHTML:#msg-' in snapshot
    joined = token_text(snapshot) + "".join(t for t in map(token_text, frames[1:]) if t is not None)
    assert joined == "abcdefghij" * 30
    await frames_until_done(first)
    await first.disconnect()
    await second.disconnect()


async def test_the_text_is_stored_while_it_streams(fake_openai, owner_chat, owner_cookie, settings):
    settings.CHAT = {**settings.CHAT, "FLUSH_SECONDS": 0.05}
    fake_openai.script(Reply.text("x" * 200, chunk_size=2, interval=0.01))
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "go")
    while token_text(await communicator.receive_from(timeout=5)) is None:
        pass
    answer = await latest_answer(owner_chat)
    partial = ""
    for _ in range(100):
        await asyncio.sleep(0.03)
        await answer.arefresh_from_db()
        if answer.status == "streaming" and answer.content:
            partial = answer.content
            break
    assert partial and len(partial) < 200
    await frames_until_done(communicator)
    await communicator.disconnect()
    assert (await stored_answer(answer.pk)).content == "x" * 200


async def test_access_is_checked_again_on_every_message(fake_openai, owner_chat, owner_cookie):
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await owner_chat.adelete()
    await ask(communicator, "still there?")
    output = await communicator.receive_output(timeout=5)
    assert output == {"type": "websocket.close", "code": 4403}
    assert not REGISTRY.running()


async def test_it_rejects_an_empty_question_without_storing_anything(owner_chat, owner_cookie):
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "   ")
    frame = await communicator.receive_from(timeout=5)
    assert "Type a question first." in frame
    assert await Message.objects.filter(session=owner_chat).acount() == 0
    await communicator.disconnect()


async def test_a_reconnecting_page_gets_the_final_form_of_the_latest_answer(owner_chat, owner_cookie):
    answer = await Message.objects.acreate(session=owner_chat, role="assistant", content="**done** already")
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    frame = await communicator.receive_from(timeout=5)
    assert f'id="msg-{answer.pk}"' in frame and 'hx-swap-oob="true"' in frame
    assert "<strong>done</strong>" in frame
    await communicator.disconnect()


async def test_deleting_a_chat_while_it_answers_ends_the_run_quietly(fake_openai, owner_chat, owner_cookie):
    fake_openai.script(Reply.text("gone " * 40, chunk_size=5, interval=0.005))
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "go")
    while token_text(await communicator.receive_from(timeout=5)) is None:
        pass
    (running,) = REGISTRY.running()
    await owner_chat.adelete()
    await asyncio.wait_for(asyncio.wait([running.task]), timeout=10)
    assert running.task.exception() is None
    assert not REGISTRY.running()
    await communicator.disconnect()


async def test_with_a_shared_layer_frames_of_other_processes_reach_the_page(shared_layer, owner_chat, owner_cookie):
    from channels.layers import get_channel_layer

    from chat.streams import PROCESS_ID, group_name

    communicator = socket(owner_chat.pk, owner_cookie)
    assert (await communicator.connect())[0]
    layer = get_channel_layer()
    frame = {"type": "chat.frame", "session_id": owner_chat.pk, "html": "<p>from elsewhere</p>", "message_id": 0, "seq": 0}
    await layer.group_send(group_name(owner_chat.pk), {**frame, "origin": PROCESS_ID})
    await layer.group_send(group_name(owner_chat.pk), {**frame, "origin": "another-process"})
    assert await communicator.receive_from(timeout=5) == "<p>from elsewhere</p>"
    assert await communicator.receive_nothing(timeout=0.2)
    await communicator.disconnect()


async def test_stop_from_a_page_of_another_process_stops_the_answer_here(
    shared_layer, fake_openai, owner_chat, owner_cookie
):
    from channels.layers import get_channel_layer

    from chat.streams import stop_group_name

    fake_openai.script(Reply.text("long " * 300, chunk_size=5, interval=0.01))
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "go")
    while token_text(await communicator.receive_from(timeout=5)) is None:
        pass
    await get_channel_layer().group_send(
        stop_group_name(owner_chat.pk), {"type": "chat.stop", "origin": "another-process", "session_id": owner_chat.pk}
    )
    await frames_until_done(communicator)
    answer = await stored_answer((await latest_answer(owner_chat)).pk)
    assert answer.status == "cancelled" and 0 < len(answer.content) < len("long " * 300)
    await communicator.disconnect()


async def test_the_first_question_names_a_new_chat_on_the_page(fake_openai, owner, owner_cookie):
    chat = await ChatSession.objects.acreate(owner=owner)
    fake_openai.script(Reply.text("Hi."))
    communicator = socket(chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "How are refunds   computed?")
    start = await communicator.receive_from(timeout=5)
    assert '<h1 id="chat-title" hx-swap-oob="true">How are refunds computed?</h1>' in start
    await frames_until_done(communicator)
    await communicator.disconnect()
    await chat.arefresh_from_db()
    assert chat.title == "How are refunds computed?"


@pytest.mark.parametrize(
    "payload", [{"action": "stop"}, {"action": "send", "text": "  "}, {"action": "dance"}], ids=["stop", "empty", "unknown"]
)
async def test_every_kind_of_message_to_a_lost_chat_closes_the_socket_without_data(payload, owner_chat, owner_cookie):
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await owner_chat.adelete()
    await communicator.send_json_to(payload)
    assert await communicator.receive_output(timeout=5) == {"type": "websocket.close", "code": 4403}


async def test_the_answering_call_is_limited_to_the_room_left_for_the_answer(fake_openai, owner_chat, owner_cookie, settings):
    fake_openai.script(Reply.text(ANSWER))
    await ask_and_wait(owner_chat, owner_cookie, "where is the login view?")

    answering = fake_openai.chat_requests[-1].json
    window = settings.LLM["PROVIDERS"]["openai"]["CONTEXT_WINDOWS"]["main"]
    assert 0 < answering["max_tokens"] < window


async def test_an_answer_stopped_at_its_length_limit_says_so(fake_openai, owner_chat, owner_cookie):
    fake_openai.script(Reply.text("The answer goes on and", finish_reason="length"))
    await ask_and_wait(owner_chat, owner_cookie, "explain everything")

    stored = await stored_answer((await latest_answer(owner_chat)).pk)
    assert stored.content.startswith("The answer goes on and")
    assert "reached its length limit" in stored.content


async def test_a_reasoning_model_that_spent_its_whole_limit_thinking_shows_the_length_note_not_an_empty_answer(
    fake_openai, owner_chat, owner_cookie
):
    fake_openai.script(Reply.text("", finish_reason="length", usage=(40, 400), reasoning_tokens=400))
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "prove the theorem")
    frames = await frames_until_done(communicator)
    await communicator.disconnect()

    stored = await stored_answer((await latest_answer(owner_chat)).pk)
    assert stored.status == "complete"
    assert stored.content == "*(The answer reached its length limit.)*"
    assert "reached its length limit" in "".join(delta for frame in frames for delta in token_deltas(frame))
    assert stored.metrics["tokens_thinking"] == 400


async def test_a_provider_failure_that_outlasts_the_retries_says_what_the_provider_said(fake_openai, owner_chat, owner_cookie):
    fake_openai.script(Reply.error(500, "upstream model crashed"), Reply.error(500, "upstream model crashed"),
                       Reply.error(500, "upstream model crashed"), Reply.error(500, "upstream model crashed"))
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await ask(communicator, "explain the cart")
    frames = await frames_until_done(communicator)
    await communicator.disconnect()

    # LLM_MAX_RETRIES is 3: four calls, then the page says so (a chat without a repository is routed without the model).
    assert "HTTP 500: upstream model crashed), retried 3 times." in "".join(frames)
    assert len(fake_openai.chat_requests) == 4


async def test_a_server_that_refuses_json_schema_costs_one_refusal_then_questions_go_straight_to_what_it_takes(
    fake_openai, owner_chat, owner_cookie
):
    # The model routes the questions of a chat with a repository (here one not indexed yet).
    owner_chat.repository = await Repository.objects.acreate(owner_id=owner_chat.owner_id, name="shop")
    await owner_chat.asave(update_fields=["repository"])
    fake_openai.refused_formats = {"json_schema"}
    fake_openai.script(ROUTE_GENERAL, Reply.text(ANSWER), ROUTE_GENERAL, Reply.text(ANSWER))
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    for question in ("first question", "second question"):
        await ask(communicator, question)
        await frames_until_done(communicator)
    await communicator.disconnect()

    formats = [(r.json.get("response_format") or {}).get("type") for r in fake_openai.chat_requests]
    # Router, router again (json_object), answer; then the second question's router and answer.
    assert formats == ["json_schema", "json_object", None, "json_object", None]
    assert (await stored_answer((await latest_answer(owner_chat)).pk)).content == ANSWER


async def test_a_chat_without_a_repository_asks_the_model_only_for_the_answer(fake_openai, owner_chat, owner_cookie):
    # Without a repository there is nothing to route to but the general answer: the first word comes one call sooner.
    fake_openai.script(Reply.text(ANSWER))
    await ask_and_wait(owner_chat, owner_cookie, "Where is the login view?")

    assert [(r.json.get("response_format") or {}).get("type") for r in fake_openai.chat_requests] == [None]
    answer = await stored_answer((await latest_answer(owner_chat)).pk)
    assert answer.content == ANSWER and answer.intent == "general"


async def test_a_thinking_models_thoughts_are_counted_in_the_answers_metrics(fake_openai, owner_chat, owner_cookie):
    fake_openai.script(Reply.text(ANSWER, usage=(40, 90), reasoning_tokens=70))
    await ask_and_wait(owner_chat, owner_cookie, "where is the login view?")

    metrics = (await stored_answer((await latest_answer(owner_chat)).pk)).metrics
    assert metrics["tokens_thinking"] == 70 and metrics["tokens_out"] >= 90


@pytest.mark.django_db(transaction=True)
async def test_a_socket_is_refused_for_a_session_that_no_longer_signs_its_user_in(owner_chat, owner_cookie, owner):
    # Signed in, the page connects; once the password changed, the same cookie signs nobody in.
    communicator = socket(owner_chat.pk, owner_cookie)
    connected, _ = await communicator.connect()
    assert connected is True
    await communicator.disconnect()

    def change_password():
        owner.set_password("a different password")
        owner.save()

    await sync_to_async(change_password)()
    for cookie in (owner_cookie, "not-a-session-key"):
        communicator = socket(owner_chat.pk, cookie)
        connected, _ = await communicator.connect()
        assert connected is False
        await communicator.disconnect()

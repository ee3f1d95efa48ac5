"""Limits of the chat websocket that hold across chats and server processes."""

from __future__ import annotations

import asyncio

import pytest

from chat import user_errors
from chat.models import ChatSession, Message
from tests.chat.conftest import Reply, frames_until_done, socket, token_text

pytestmark = pytest.mark.django_db(transaction=True)

ROUTE_GENERAL = Reply.text('{"intent": "general"}', usage=(0, 0))


async def test_questions_sent_at_once_in_several_chats_start_no_more_answers_than_the_cap(
    fake_openai, owner, owner_cookie, settings
):
    settings.CHAT = {**settings.CHAT, "MAX_RUNNING_GENERATIONS": 2}
    fake_openai.script(*[ROUTE_GENERAL, Reply.text("long " * 200, chunk_size=5, interval=0.01)] * 5)
    chats = [await ChatSession.objects.acreate(owner=owner, title=f"Chat {i}") for i in range(5)]
    sockets = [socket(chat.pk, owner_cookie) for chat in chats]
    for communicator in sockets:
        await communicator.connect()

    await asyncio.gather(*(c.send_json_to({"action": "send", "text": f"question {i}"}) for i, c in enumerate(sockets)))
    replies = [await c.receive_from(timeout=10) for c in sockets]

    refused = [reply for reply in replies if "answers being written" in reply]
    assert len(refused) == 3
    assert await Message.objects.filter(session__owner=owner, role="assistant").acount() == 2
    for communicator in sockets:
        await communicator.send_json_to({"action": "stop"})
    for communicator, reply in zip(sockets, replies):
        if reply not in refused:
            await frames_until_done(communicator)
        await communicator.disconnect()


async def test_an_answer_written_by_another_server_process_counts_toward_the_cap(
    fake_openai, owner, owner_chat, owner_cookie, settings
):
    settings.CHAT = {**settings.CHAT, "MAX_RUNNING_GENERATIONS": 1}
    elsewhere = await ChatSession.objects.acreate(owner=owner, title="Served by another process")
    await Message.objects.acreate(session=elsewhere, role="assistant", status=Message.Status.STREAMING, content="so far")
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()

    await communicator.send_json_to({"action": "send", "text": "one more"})

    assert "already have 1 answers being written" in await communicator.receive_from(timeout=5)
    assert await Message.objects.filter(session=owner_chat).acount() == 0
    await communicator.disconnect()


async def test_a_message_too_long_for_any_question_is_refused_before_it_is_parsed(owner_chat, owner_cookie, settings):
    settings.CHAT = {**settings.CHAT, "MAX_MESSAGE_CHARS": 100}
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()

    await communicator.send_to(text_data="[" * 5000)

    assert user_errors.SOCKET_MESSAGE_TOO_LONG in await communicator.receive_from(timeout=5)
    await communicator.disconnect()


async def test_messages_past_the_rate_are_dropped_with_one_notice(owner_chat, owner_cookie, settings):
    settings.CHAT = {**settings.CHAT, "SOCKET_MESSAGES_PER_SECOND": 0.1, "SOCKET_MESSAGE_BURST": 3}
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()

    for _ in range(8):
        await communicator.send_json_to({"action": "dance"})
    replies = []
    while not await communicator.receive_nothing(timeout=0.5):
        replies.append(await communicator.receive_from())

    assert sum(user_errors.UNKNOWN_ACTION in reply for reply in replies) == 3
    assert sum(user_errors.TOO_MANY_SOCKET_MESSAGES in reply for reply in replies) == 1
    await communicator.disconnect()

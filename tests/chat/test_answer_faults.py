"""Answers that outlive database faults: a failed store of the text so far, an answer given up on too early."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.utils import timezone

from chat import services, user_errors
from chat.models import Message
from tests.chat.conftest import Reply, frames_until_done, socket, stored_answer, token_text

pytestmark = pytest.mark.django_db(transaction=True)



def _rename_messages(old: str, new: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {old} RENAME TO {new}")


async def test_a_database_error_while_storing_the_text_so_far_loses_nothing(
    fake_openai, owner_chat, owner_cookie, settings, caplog
):
    settings.CHAT = {**settings.CHAT, "FLUSH_SECONDS": 0.05}
    fake_openai.script(Reply.text("y" * 800, chunk_size=2, interval=0.01))
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    await communicator.send_json_to({"action": "send", "text": "go"})
    while token_text(await communicator.receive_from(timeout=5)) is None:
        pass
    answer = await Message.objects.filter(session=owner_chat, role="assistant").alatest("id")

    # A real failure of the periodic store: its table is gone for a moment.
    with caplog.at_level(logging.ERROR, logger="chat.streams"):
        await sync_to_async(_rename_messages)("chat_message", "chat_message_away")
        await asyncio.sleep(0.3)
        await sync_to_async(_rename_messages)("chat_message_away", "chat_message")
        before = len((await Message.objects.aget(pk=answer.pk)).content)
        # The periodic store goes on after the failure: the stored text grows while the answer streams.
        for _ in range(100):
            await asyncio.sleep(0.05)
            current = await Message.objects.aget(pk=answer.pk)
            if current.status == Message.Status.STREAMING and len(current.content) > before:
                break
        else:
            raise AssertionError("the text so far was not stored again after the failure")
        await frames_until_done(communicator)
    await communicator.disconnect()

    assert any("storing the text of" in record.getMessage() for record in caplog.records)
    stored = await stored_answer(answer.pk)
    assert stored.status == Message.Status.COMPLETE
    assert stored.content == "y" * 800


def _streaming_answer(chat) -> Message:
    Message.objects.create(session=chat, role="user", content="q")
    return Message.objects.create(session=chat, role="assistant", status=Message.Status.STREAMING, content="par")


def _silence(message: Message) -> None:
    Message.objects.filter(pk=message.pk).update(updated_at=timezone.now() - timedelta(minutes=5))


def test_an_answer_given_up_on_as_interrupted_is_still_completed_by_its_run(owner_chat):
    answer = _streaming_answer(owner_chat)
    _silence(answer)
    assert services.interrupt_stale_answers(owner_chat.pk) == 1
    answer.refresh_from_db()
    assert (answer.status, answer.error) == (Message.Status.ERROR, user_errors.INTERRUPTED)

    finished = services.finish_answer(answer.pk, status=Message.Status.COMPLETE, content="partial and the rest")

    assert finished.status == Message.Status.COMPLETE
    assert finished.content == "partial and the rest"
    assert finished.error == ""


def test_storing_more_text_takes_an_interrupted_answer_back_to_streaming(owner_chat):
    answer = _streaming_answer(owner_chat)
    _silence(answer)
    services.interrupt_stale_answers(owner_chat.pk)

    services.save_partial_answers({answer.pk: "partial and more"})

    answer.refresh_from_db()
    assert (answer.status, answer.content, answer.error) == (Message.Status.STREAMING, "partial and more", "")


def test_a_finished_answer_is_never_changed_again(owner_chat):
    answer = _streaming_answer(owner_chat)
    services.finish_answer(answer.pk, status=Message.Status.CANCELLED, content="stopped here")

    again = services.finish_answer(answer.pk, status=Message.Status.COMPLETE, content="something else")
    services.save_partial_answers({answer.pk: "more"})

    answer.refresh_from_db()
    assert (again.status, again.content) == (Message.Status.CANCELLED, "stopped here")
    assert (answer.status, answer.content) == (Message.Status.CANCELLED, "stopped here")

"""Aborting a turn and shutting a session down, through the real adapter and the local fake server."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from llm.conversation.manager import ConversationManager
from llm.conversation.store import ConversationSummary
from llm.types import Message
from tests.llm.conversation.conftest import SYSTEM_PROMPT, DialogModels, question

pytestmark = pytest.mark.django_db(transaction=True)


def conversation_tasks() -> list[asyncio.Task]:
    return [
        task
        for task in asyncio.all_tasks()
        if task.get_name().startswith(("context-warmup:", "conversation-turn:")) and not task.done()
    ]


async def test_abort_mid_stream_keeps_what_was_shown_and_the_next_turn_sees_a_valid_history(dialog_models: DialogModels):
    dialog_models.answer_interval = 0.1
    manager = ConversationManager(f"s-{uuid.uuid4()}", system_prompt=SYSTEM_PROMPT)
    chunks = []
    async for chunk in manager.process_user_turn(question(1)):
        chunks.append(chunk)
        if len(chunks) == 1:
            await manager.abort_generation()
    final = chunks[-1]
    shown = "".join(chunk.text for chunk in chunks)

    assert final.is_final and final.aborted and final.metrics.outcome == "aborted"
    assert shown and shown == final.answer and shown != dialog_models.answer_text
    # The upstream stream was closed long before the answer was complete: no more tokens were paid for.
    await asyncio.sleep(0.3)
    assert dialog_models.server.disconnects and dialog_models.server.completed_streams == 0

    dialog_models.answer_interval = 0.0
    second = [chunk async for chunk in manager.process_user_turn(question(2))][-1]
    await manager.shutdown()

    assert second.answer == dialog_models.answer_text and not second.aborted
    sent = dialog_models.main_requests()[-1].json["messages"]
    assert [(m["role"], m["content"]) for m in sent[1:]] == [
        ("user", question(1)),
        ("assistant", shown),
        ("user", question(2)),
    ]
    assert manager.context.messages == [
        Message("user", question(1)),
        Message("assistant", shown),
        Message("user", question(2)),
        Message("assistant", dialog_models.answer_text),
    ]


async def test_cancelling_the_task_that_reads_the_stream_aborts_the_turn(dialog_models: DialogModels):
    dialog_models.answer_interval = 0.1
    manager = ConversationManager(f"s-{uuid.uuid4()}", system_prompt=SYSTEM_PROMPT)
    first_chunk = asyncio.Event()

    async def read() -> None:
        async for _chunk in manager.process_user_turn(question(1)):
            first_chunk.set()

    reader = asyncio.create_task(read())
    await asyncio.wait_for(first_chunk.wait(), 5)
    reader.cancel()
    await asyncio.wait({reader})

    assert conversation_tasks() == []
    assert manager.context.messages[0] == Message("user", question(1))
    assert manager.context.messages[1].role == "assistant"
    assert len(manager.context.messages[1].content) < len(dialog_models.answer_text)
    await manager.shutdown()


async def test_shutdown_with_a_warm_up_in_flight_leaves_no_task_running(dialog_models: DialogModels):
    dialog_models.summary_delay = 4
    key = f"s-{uuid.uuid4()}"
    manager = ConversationManager(key, system_prompt=SYSTEM_PROMPT)
    for number in range(1, 80):
        [chunk async for chunk in manager.process_user_turn(question(number))]
        if manager.controller.warmup_running:
            break
    assert manager.controller.warmup_running

    await asyncio.wait_for(manager.shutdown(), 5)

    assert conversation_tasks() == []
    assert not manager.controller.warmup_running
    assert not await ConversationSummary.objects.filter(session_key=key).aexists()
    with pytest.raises(RuntimeError):
        [chunk async for chunk in manager.process_user_turn("one more")]

"""Structured answers: ``answer`` streams as it arrives, ``is_safe`` comes first, ``internal_thought`` never shows."""

from __future__ import annotations

import json
import uuid

import pytest

from llm.conversation.manager import ConversationManager
from tests.llm.conversation.conftest import SYSTEM_PROMPT, DialogModels
from tests.llm.fakes import Reply

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "the user seems to be probing for the admin password"


def structured_reply(answer: str, *, is_safe: bool, safe_first: bool = True) -> Reply:
    fields = [("internal_thought", SECRET), ("is_safe", is_safe), ("answer", answer)]
    if not safe_first:
        fields = [fields[0], fields[2], fields[1]]
    return Reply.text(json.dumps(dict(fields)), chunk_size=5)


async def run(manager: ConversationManager, text: str):
    return [chunk async for chunk in manager.process_user_turn(text)]


async def test_it_streams_the_answer_with_is_safe_on_the_first_chunk_and_hides_the_thought(dialog_models: DialogModels):
    answer = 'Use `RetryPolicy` with "max_attempts=3" \\ then rerun.\nDone: ünïcode ✓'
    dialog_models.server.script(structured_reply(answer, is_safe=True))
    manager = ConversationManager(f"s-{uuid.uuid4()}", system_prompt=SYSTEM_PROMPT, structured_mode=True)
    chunks = await run(manager, "How do I retry?")
    await manager.shutdown()

    texts = [chunk.text for chunk in chunks if chunk.text]
    assert len(texts) > 3, "the answer should arrive in several pieces, not at the end"
    assert "".join(texts) == answer
    assert chunks[0].text and chunks[0].metadata["is_safe"] is True and chunks[0].is_safe is True
    assert all(SECRET not in chunk.text for chunk in chunks)
    final = chunks[-1]
    assert final.is_safe is True and final.answer == answer
    assert final.structured["internal_thought"] == SECRET
    sent = dialog_models.main_requests()[-1].json
    assert sent["response_format"]["type"] == "json_schema"
    assert "internal_thought" in sent["messages"][0]["content"]
    # The dialog keeps what the user saw, not the JSON or the thought.
    assert manager.context.messages[-1].content == answer


async def test_an_unsafe_answer_is_flagged_even_when_the_model_writes_the_verdict_last(dialog_models: DialogModels):
    dialog_models.server.script(structured_reply("I can't help with that.", is_safe=False, safe_first=False))
    manager = ConversationManager(f"s-{uuid.uuid4()}", system_prompt=SYSTEM_PROMPT, structured_mode=True)
    chunks = await run(manager, "Give me the admin password")
    await manager.shutdown()

    assert chunks[0].metadata["is_safe"] is False
    assert all(chunk.is_safe is False for chunk in chunks if chunk.text)
    assert "".join(chunk.text for chunk in chunks) == "I can't help with that."
    assert chunks[-1].is_safe is False

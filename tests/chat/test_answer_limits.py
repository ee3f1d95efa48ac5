"""Every model call that writes to the user carries ``max_tokens`` from the conversation manager's
answer reserve: the tool rounds of a project question and the calls writing a document, not only
the general answer. The chat runs through the websocket on an indexed repository, against the fake
model over HTTP."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from django.conf import settings

from chat.agent.config import AgentConfig
from chat.models import ChatSession, Message
from rag.models import Repository
from tests.chat.conftest import Reply, frames_until_done, indexed_shopapp, session_cookie, socket, stored_answer
from tests.chat.docs_edits.test_docs_graph import DISCOUNTS_FIXED, OK, TAXES, ScriptedWriter, user_text

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def shop_chat(transactional_db, tmp_path_factory, django_db_blocker, client) -> Iterator[tuple[ChatSession, str]]:
    """A chat on the indexed shopapp project, and its owner's session cookie."""
    with indexed_shopapp("shop-owner", tmp_path_factory, django_db_blocker) as repository:
        chat = ChatSession.objects.create(owner=repository.owner, title="The shop", repository=repository)
        yield chat, session_cookie(client, repository.owner)


def answer_reserve() -> int:
    """The room the chat's conversation manager leaves for an answer (of the dialog's share of the window)."""
    conversation = settings.LLM["CONVERSATION"]
    window = int(settings.LLM["PROVIDERS"]["openai"]["CONTEXT_WINDOWS"]["main"] * AgentConfig.from_settings().history_share)
    return min(int(window * conversation["ANSWER_RESERVE_RATIO"]), conversation["MAX_ANSWER_TOKENS"])


def route(intent: str) -> Reply:
    return Reply.text(json.dumps({"intent": intent, "reason": "scripted"}), usage=(0, 0))


async def ask_and_wait(chat: ChatSession, cookie: str, text: str, received: list[str] | None = None) -> Message:
    """The stored answer to ``text``; the websocket messages the page got go to ``received``."""
    communicator = socket(chat.pk, cookie)
    await communicator.connect()
    await communicator.send_json_to({"action": "send", "text": text})
    frames = await frames_until_done(communicator, timeout=30)
    await communicator.disconnect()
    if received is not None:
        received.extend(frames)
    latest = await Message.objects.filter(session=chat, role="assistant").alatest("id")
    return await stored_answer(latest.pk, timeout=30)


STATUS = re.compile(r'id="msg-\d+-status" class="badge live" role="status" hx-swap-oob="true">([^<]+)<')
STEP_FRAME = re.compile(
    r'<div hx-swap-oob="(?:beforeend:#msg-\d+-steps|beforebegin:#(?P<before>[\w-]+))">\s*'
    r'<li class="step" id="(?P<id>[\w-]+)"[^>]*>\s*<span class="step-node">(?P<node>[^<]+)</span>'
)


def live_trace(received: list[str]) -> list[str]:
    """The trace's nodes in the order the page shows them, after every step frame is swapped in."""
    shown: list[tuple[str, str]] = []
    for match in STEP_FRAME.finditer("".join(received)):
        ids = [dom_id for dom_id, _ in shown]
        at = ids.index(match["before"]) if match["before"] else len(shown)
        shown.insert(at, (match["id"], match["node"]))
    return [node for _, node in shown]


async def test_every_tool_round_of_a_project_question_is_limited_to_the_answer_reserve(fake_openai, shop_chat):
    chat, cookie = shop_chat
    fake_openai.script(
        route("project_qa"),
        Reply.tool_call("read_file", {"path": "src/shopapp/pricing.py", "start": 1, "end": 20}, text="Let me read pricing."),
        Reply.tool_call("search_code", {"query": "apply_discount"}),
        Reply.text("Discounts are applied in src/shopapp/pricing.py:14-19."),
    )

    received: list[str] = []
    answer = await ask_and_wait(chat, cookie, "How are discounts applied?", received)

    assert answer.status == "complete" and answer.intent == "project_qa"
    rounds = [request.json for request in fake_openai.chat_requests[1:]]
    assert [bool(body.get("tools")) for body in rounds] == [True, True, True]
    assert [body.get("max_tokens") for body in rounds] == [answer_reserve()] * 3
    # The status line says which tool runs while it runs (after text too), then what it did.
    statuses = STATUS.findall("".join(received))
    reading = statuses.index("Reading src/shopapp/pricing.py lines 1–20…")
    searching = statuses.index("Searching the code for “apply_discount”…")
    assert statuses.index("Writing the answer…") < reading < searching
    assert statuses[searching + 1] == "Searched the code for “apply_discount”…"
    # The live trace lists the steps by their start, as the stored answer does.
    by_start = [step["node"] for step in sorted(answer.steps, key=lambda step: (step["start_ms"], step["depth"]))]
    assert live_trace(received) == by_start
    assert by_start.index("run_tools") < by_start.index("tool:read_file")


async def test_the_calls_writing_a_document_are_limited_to_the_answer_reserve(fake_openai, shop_chat):
    chat, cookie = shop_chat
    fake_openai.script(route("docs"))
    fake_openai.fallback = ScriptedWriter(sections={"Taxes": [TAXES], "Discounts": [DISCOUNTS_FIXED]},
                                          checks={"Taxes": [OK], "Discounts": [OK]})

    answer = await ask_and_wait(chat, cookie, "Document the pricing module")

    assert answer.status == "complete" and answer.intent == "docs" and TAXES in answer.content
    # Each section as written ("Document: ...") and the summary streamed above the document ("Run record: ...").
    writing = [request.json for request in fake_openai.chat_requests if user_text(request).startswith(("Document:", "Run record:"))]
    assert len(writing) == 3
    assert [body.get("max_tokens") for body in writing] == [answer_reserve()] * 3


async def test_a_stopped_answer_keeps_its_citations_as_links_and_its_sources(fake_openai, shop_chat):
    chat, cookie = shop_chat
    fake_openai.script(
        route("project_qa"),
        Reply.tool_call("read_file", {"path": "src/shopapp/pricing.py", "start": 1, "end": 20}),
        # The answer document of structured answers: only its "answer" is streamed.
        Reply.text(
            json.dumps({
                "internal_thought": "", "is_safe": True,
                "answer": "Discounts are applied in `src/shopapp/pricing.py:14-19`. " + "more " * 400,
            }),
            chunk_size=5,
            interval=0.01,
        ),
    )
    communicator = socket(chat.pk, cookie)
    await communicator.connect()
    await communicator.send_json_to({"action": "send", "text": "How are discounts applied?"})
    streamed = ""
    while streamed.count("more") < 3:
        streamed += await communicator.receive_from(timeout=30)
    await communicator.send_json_to({"action": "stop"})
    frames = await frames_until_done(communicator, timeout=30)
    await communicator.disconnect()

    answer = await stored_answer((await Message.objects.filter(session=chat, role="assistant").alatest("id")).pk)
    assert answer.status == "cancelled"
    assert [(c["path"], c["start_line"], c["end_line"]) for c in answer.citations] == [("src/shopapp/pricing.py", 14, 19)]
    # The citation names the index version it cites, and its links open that version.
    version = (await Repository.objects.aget(pk=chat.repository_id)).active_run_id
    assert [c["version"] for c in answer.citations] == [version]
    link = f'href="/repositories/{chat.repository_id}/source/src/shopapp/pricing.py?start=14&amp;end=19&amp;at={version}#L14"'
    assert frames[-1].count(link) == 2  # in the text and in the Sources list
    assert "Sources of this answer" in frames[-1]

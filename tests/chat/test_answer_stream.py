"""Answers rendered as they stream: finished Markdown blocks go to the page rendered, the rest as typed."""

from __future__ import annotations

import re

import pytest

from chat import frames
from chat.answer_stream import StreamedMarkdown, split_for_page
from chat.presentation import activity, tool_activity
from tests.chat.conftest import Reply, frames_until_done, socket, token_deltas

ANSWER = "First **bold** paragraph\nwrapped.\n\n- one\n- two\n\n```python\ndef f():\n    return 1\n```\nAfter the code."
BLOCKS_FRAME = re.compile(r'<div hx-swap-oob="beforeend:#msg-(\d+)-rendered">(.*?)</div>\s*<div hx-swap-oob="innerHTML:#msg-\1-tail">', re.S)


def _feed(text: str, size: int) -> tuple[list[str], StreamedMarkdown]:
    stream = StreamedMarkdown()
    blocks: list[str] = []
    for index in range(0, len(text), size):
        blocks.extend(stream.feed(text[index : index + size]).blocks)
    return blocks, stream


@pytest.mark.parametrize("size", [1, 3, 7, len(ANSWER)])
def test_blocks_finish_at_blank_lines_and_closing_fences_however_the_text_is_cut(size):
    blocks, stream = _feed(ANSWER, size)
    assert blocks == [
        "First **bold** paragraph\nwrapped.\n\n",
        "- one\n- two\n\n",
        "```python\ndef f():\n    return 1\n```\n",
    ]
    assert stream.unfinished == "After the code." and not stream.in_code


def test_an_open_fence_shows_its_code_so_far_as_code():
    blocks, stream = _feed("Intro\n```js\nlet a = 1;\nlet b", 4)
    assert blocks == ["Intro\n"]  # a fence ends the paragraph before it
    assert stream.in_code and stream.unfinished == "let a = 1;\nlet b"
    _, tail = split_for_page(9, "Intro\n```js\nlet a = 1;\n<b>")
    assert tail == '<pre class="highlight"><code id="msg-9-body" class="stream-tail">let a = 1;\n&lt;b&gt;</code></pre>'


def test_inline_code_between_triple_backticks_is_no_fence():
    blocks, stream = _feed("Use ```a``` here\nand more", 2)
    assert blocks == [] and not stream.in_code


def test_a_joining_page_gets_the_finished_blocks_rendered_and_the_rest_as_a_token():
    html = frames.snapshot(5, "Para **one**.\n\nSecond <b>", "Writing the answer…")
    assert '<div hx-swap-oob="innerHTML:#msg-5-rendered"><p>Para <strong>one</strong>.</p>' in html
    assert '<p id="msg-5-body" class="stream-tail"></p>' in html
    assert token_deltas(html) == ["Second <b>"]
    assert 'id="msg-5-status"' in html and "Writing the answer…" in html


def test_the_status_line_says_what_the_agent_did_last():
    assert activity() == "Reading your question…"
    assert activity(intent="project_qa") == "Searching the code…"
    step = {"node": "tool:read_file", "detail": {"tool": "read_file", "arguments": {"path": "shop/views.py", "start": 4, "end": 7}}}
    assert activity(step=step) == "Reading shop/views.py lines 4–7…"
    assert tool_activity("search_code", {"query": "where is   login"}) == "Searched the code for “where is login”…"
    assert tool_activity("search_text", {"pattern": "jackson-databind"}, running=True) == "Finding “jackson-databind” in the files…"
    assert activity(intent="project_qa", writing=True) == "Writing the answer…"


@pytest.mark.django_db(transaction=True)
async def test_the_socket_sends_each_finished_block_rendered_beside_the_text_deltas(fake_openai, owner_chat, owner_cookie):
    fake_openai.script(Reply.text(ANSWER, chunk_size=4, interval=0.002))
    communicator = socket(owner_chat.pk, owner_cookie)
    assert (await communicator.connect())[0]
    await communicator.send_json_to({"action": "send", "text": "explain"})
    received = await frames_until_done(communicator)
    assert "".join(delta for frame in received for delta in token_deltas(frame)) == ANSWER
    # The answer is read at the page's pace, so one frame may finish several blocks: in order, each rendered once.
    rendered = "".join(html for frame in received for _, html in BLOCKS_FRAME.findall(frame))
    paragraph = "<p>First <strong>bold</strong> paragraph\nwrapped.</p>\n"
    assert rendered.startswith(paragraph + "<ul>\n<li>one</li>")
    assert rendered.count("<ul>") == 1 and rendered.count('<pre class="highlight">') == 1
    assert rendered.index("</ul>") < rendered.index('<pre class="highlight"><code><span class="k">def</span>')
    statuses = re.findall(r'id="msg-\d+-status" class="badge live" role="status" hx-swap-oob="true">([^<]+)<', "".join(received))
    assert statuses == ["Writing the answer…", "Writing the answer…"]  # the intent (general), then the first text
    await communicator.disconnect()

"""An answer in a real browser while it streams: a live status line says what the
agent does, the Markdown is rendered as the blocks finish, and the answer's
height never jumps by more than a line (measured on every animation frame);
stopped, it keeps its citations as links and its Sources."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, expect

from rag.models import IndexRun
from tests.e2e.conftest import log_in, screenshot
from tests.llm.fakes import Reply
from tests.rag.conftest import SMALL_PROJECT, index_zip, make_zip

pytestmark = pytest.mark.e2e

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
ANSWER = (
    "The login flow starts in **`login_view`**, which opens the user's cart before rendering it.\n\n"
    "It does three things:\n\n"
    "- reads the user from the request\n"
    "- builds the cart with `Cart.for_user`\n"
    "- renders the total\n\n"
    "```python\n"
    "def login_view(request):\n"
    "    cart = Cart.for_user(request.user)\n"
    "    return render_cart(cart)\n"
    "```\n\n"
    "See shop/views.py:4-7 for the whole function; the cart's total is summed in `Cart.total`."
)

# Installed before the question is sent: every status line shown, and the answer's height on every frame.
WATCH = """() => {
  window.__statuses = [];
  window.__heights = [];
  window.__renderedWhileStreaming = false;
  new MutationObserver(() => {
    const badge = document.querySelector('.msg-assistant .badge.live');
    const text = badge && badge.textContent.trim();
    if (text && window.__statuses[window.__statuses.length - 1] !== text) window.__statuses.push(text);
  }).observe(document.getElementById('messages'), {childList: true, subtree: true, characterData: true});
  const sample = () => {
    const answer = document.querySelector('.msg-assistant .msg-body');
    if (answer) {
      window.__heights.push(answer.getBoundingClientRect().height);
      if (answer.matches('.streaming') && answer.querySelector('#' + answer.id.replace('-stream', '-rendered') + ' pre.highlight .nf, #' + answer.id.replace('-stream', '-rendered') + ' strong')) {
        window.__renderedWhileStreaming = true;
      }
    }
    if (!document.querySelector('.msg-assistant[data-status="complete"]')) requestAnimationFrame(sample);
    else window.__heights.push(answer.getBoundingClientRect().height);
  };
  requestAnimationFrame(sample);
}"""


def searches_then_answers(request) -> Reply:
    body = request.json or {}
    if "response_format" in body:
        return Reply.text('{"intent": "project_qa"}', usage=(0, 0), delay=0.4)
    if not any(message.get("role") == "tool" for message in body.get("messages", [])):
        return Reply.tool_call("search_code", {"query": "login view"}, delay=0.6)
    return Reply.text(ANSWER, chunk_size=5, interval=0.03, delay=0.4)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_an_answer_streams_rendered_with_a_status_line_and_no_jump(browser: Browser, site, person, fake_llm_server, settings, tmp_path, size):
    settings.RAG = {**settings.RAG, "UPLOAD_DIR": str(tmp_path / "uploads")}
    run = index_zip(person, make_zip(SMALL_PROJECT))
    assert run.status == IndexRun.Status.READY, run.error
    fake_llm_server.fallback = searches_then_answers
    context = browser.new_context(viewport=VIEWPORTS[size], has_touch=size == "phone", is_mobile=size == "phone")
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        log_in(page, site, person)
        page.get_by_role("button", name="Start chat").click()  # on the one indexed repository
        page.wait_for_url(f"{site}/chats/*/")
        expect(page.locator("#connection")).to_have_text("")
        page.evaluate(WATCH)
        page.fill("#question", "How does login work?")
        page.get_by_role("button", name="Send").click()

        expect(page.locator(".msg-assistant .badge.live")).to_have_text("Writing the answer…")
        expect(page.locator(".msg-assistant .msg-body.streaming pre.highlight")).to_be_visible()
        # The visible part only: a full-page screenshot resizes the page to its whole height while it
        # is taken, and the answer's height, measured all along, would follow.
        screenshot(page, f"streaming_answer_{size}.png", full_page=False)
        answer = page.locator(".msg-assistant")
        expect(answer).to_have_attribute("data-status", "complete")
        page.wait_for_function("window.__heights.length > 0 && !!document.querySelector('.msg-assistant[data-status=complete]')")

        statuses = page.evaluate("window.__statuses")
        assert statuses[:1] == ["Reading your question…"] and "Writing the answer…" in statuses, statuses
        assert "Searching the code…" in statuses and "Searched the code for “login view”…" in statuses, statuses
        assert page.evaluate("window.__renderedWhileStreaming"), "the finished blocks should be rendered while the answer streams"

        line = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.msg-assistant .markdown p')).lineHeight)")
        heights = page.evaluate("window.__heights")
        steps = [after - before for before, after in zip(heights, heights[1:])]
        assert len(heights) > 20, heights
        assert min(steps) >= -line, f"the answer shrank by {-min(steps):.0f}px at once (a line is {line:.0f}px): {heights}"
        assert max(steps) <= 2 * line, f"the answer grew by {max(steps):.0f}px at once (a line is {line:.0f}px): {heights}"
        expect(answer.locator(".markdown pre.highlight .nf")).to_have_text("login_view")
        expect(answer.locator(".badge.live")).to_have_count(0)
        screenshot(page, f"streamed_answer_done_{size}.png")
    finally:
        context.close()


def reads_then_answers_at_length(request) -> Reply:
    body = request.json or {}
    if "response_format" in body:
        return Reply.text('{"intent": "project_qa"}', usage=(0, 0))
    if not any(message.get("role") == "tool" for message in body.get("messages", [])):
        return Reply.tool_call("read_file", {"path": "shop/views.py", "start": 4, "end": 7})
    filler = " ".join(f"detail{i}" for i in range(800))
    return Reply.text(f"The login view is in shop/views.py:4-7.\n\nIt opens the cart. {filler}", chunk_size=8, interval=0.03)


@pytest.mark.parametrize("size", VIEWPORTS)
def test_a_stopped_answer_keeps_its_citations_as_links_and_its_sources(browser: Browser, site, person, fake_llm_server, settings, tmp_path, size):
    settings.RAG = {**settings.RAG, "UPLOAD_DIR": str(tmp_path / "uploads")}
    run = index_zip(person, make_zip(SMALL_PROJECT))
    assert run.status == IndexRun.Status.READY, run.error
    fake_llm_server.fallback = reads_then_answers_at_length
    context = browser.new_context(viewport=VIEWPORTS[size], has_touch=size == "phone", is_mobile=size == "phone")
    page = context.new_page()
    page.set_default_timeout(20_000)
    try:
        log_in(page, site, person)
        page.get_by_role("button", name="Start chat").click()
        page.wait_for_url(f"{site}/chats/*/")
        expect(page.locator("#connection")).to_have_text("")
        page.fill("#question", "Where is the login view?")
        page.get_by_role("button", name="Send").click()
        expect(page.locator(".msg-assistant .msg-body")).to_contain_text("detail20")
        page.get_by_role("button", name="Stop").click()

        answer = page.locator(".msg-assistant")
        expect(answer).to_have_attribute("data-status", "cancelled")
        expect(answer.locator(".markdown a", has_text="shop/views.py:4-7")).to_have_attribute(
            "href", re.compile(r"/source/shop/views\.py\?start=4&end=7&at=\d+#L4$")
        )
        expect(answer.locator(".citations a", has_text="shop/views.py:4-7")).to_be_visible()
        screenshot(page, f"stopped_answer_keeps_citations_{size}.png")
    finally:
        context.close()

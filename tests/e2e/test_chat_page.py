"""The chat page in a real browser: streaming, Stop, phone width, keyboard only."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from chat.models import ChatSession, Message
from tests.e2e.conftest import log_in, model_answers, screenshot
from tests.llm.fakes import Reply

pytestmark = pytest.mark.e2e

ANSWER = (
    "The **login view** checks the password, then redirects.\n\n"
    "```python\ndef login(request):\n    user = authenticate(request)\n    return redirect('home')\n```\n\n"
    "It lives in `accounts/views.py`."
)


def open_new_chat(page: Page, site: str, title: str) -> None:
    page.fill("#id_title", title)
    page.get_by_role("button", name="Start chat").click()
    page.wait_for_url(f"{site}/chats/*/")
    expect(page.locator("#connection")).to_have_text("")  # the socket is open


def test_an_answer_grows_in_the_page_and_is_rendered_when_done(page: Page, site, person, fake_llm_server):
    model_answers(fake_llm_server, Reply.text(ANSWER, chunk_size=6, interval=0.04))
    log_in(page, site, person)
    open_new_chat(page, site, "Login questions")

    page.fill("#question", "Where is the login view?")
    page.keyboard.press("Enter")
    body = page.locator(".msg-assistant .msg-body")
    expect(page.locator('.msg-assistant[data-status="streaming"]')).to_be_visible()
    lengths: list[int] = []
    deadline = time.monotonic() + 20
    while page.locator('.msg-assistant[data-status="streaming"]').count() and time.monotonic() < deadline:
        lengths.append(len(body.inner_text()))
        page.wait_for_timeout(60)
    grown = sorted({n for n in lengths if n > 0})
    assert len(grown) >= 3, f"the answer should appear in several steps, saw lengths {lengths}"

    answer = page.locator(".msg-assistant")
    expect(answer).to_have_attribute("data-status", "complete")
    expect(answer.locator(".markdown strong")).to_have_text("login view")
    expect(answer.locator("pre.highlight .nf")).to_have_text("login")
    expect(answer.locator(".badge.intent")).to_have_text("General")
    expect(page.locator(".msg-user .msg-body")).to_have_text("Where is the login view?")
    expect(page.locator("#question")).to_have_value("")
    expect(page.locator("#stop")).to_be_hidden()

    stored = Message.objects.get(role="assistant")
    assert stored.status == "complete" and stored.content == ANSWER


def test_stop_keeps_the_text_written_so_far(page: Page, site, person, fake_llm_server):
    long_answer = " ".join(f"word{i}" for i in range(600))
    model_answers(fake_llm_server, Reply.text(long_answer, chunk_size=8, interval=0.03))
    log_in(page, site, person)
    open_new_chat(page, site, "Long story")
    page.fill("#question", "Tell me everything")
    page.keyboard.press("Enter")
    stop = page.get_by_role("button", name="Stop")
    expect(stop).to_be_visible()
    expect(page.locator(".msg-assistant .msg-body")).to_contain_text("word20")
    stop.click()

    answer = page.locator(".msg-assistant")
    expect(answer).to_have_attribute("data-status", "cancelled")
    expect(answer.locator(".badge.muted")).to_have_text("stopped")
    expect(stop).to_be_hidden()
    shown = answer.locator(".msg-body").inner_text()
    stored = Message.objects.get(role="assistant")
    assert stored.status == "cancelled"
    assert stored.content.strip() and long_answer.startswith(stored.content)
    assert len(stored.content) < len(long_answer)
    assert stored.content.split()[-1] in shown


def test_the_chat_works_at_phone_width_with_the_keyboard_alone(browser, site, person, fake_llm_server, request):
    model_answers(fake_llm_server, Reply.text("Short answer.", chunk_size=3, interval=0.02))
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{site}/accounts/login/")
        page.keyboard.type(person.username)  # the username field has focus on load
        page.keyboard.press("Tab")
        page.keyboard.type("correct-horse-battery-staple")
        page.keyboard.press("Enter")
        page.wait_for_url(f"{site}/chats/")

        for _ in range(20):  # Tab to the title field of the new chat form
            if page.evaluate("document.activeElement.id") == "id_title":
                break
            page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "id_title"
        page.keyboard.type("From my phone")
        page.keyboard.press("Enter")
        page.wait_for_url(f"{site}/chats/*/")
        expect(page.locator("#connection")).to_have_text("")
        assert page.evaluate("document.activeElement.id") == "question"
        page.keyboard.type("First line")
        page.keyboard.press("Shift+Enter")
        page.keyboard.type("second line")
        assert page.input_value("#question") == "First line\nsecond line"
        page.keyboard.press("Enter")
        expect(page.locator(".msg-assistant")).to_have_attribute("data-status", "complete")
        expect(page.locator(".msg-user .msg-body")).to_have_text("First line\nsecond line")

        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the page scrolls sideways by {overflow}px at phone width"
        page.goto(f"{site}/chats/")
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0
        assert ChatSession.objects.get().title == "From my phone"
    finally:
        screenshot(page, f"{request.node.name}.png")
        context.close()

"""What people expect of a chat page, in a real browser: the tab's title, a page
that opens at its top, a composer that grows, copy buttons, regenerate and
edit-and-resend, code highlighted in their own messages, times in their own
zone, and a theme toggle that is remembered."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from playwright.sync_api import Browser, Page, expect

from chat.models import ChatSession, Message
from tests.e2e.conftest import log_in, model_answers, screenshot
from tests.llm.fakes import Reply

pytestmark = pytest.mark.e2e

CODE = "def login(request):\n    return redirect('home')"
ANSWER = f"The view is `login`:\n\n```python\n{CODE}\n```\n\nIt redirects home."
QUESTION = "Why does this fail?\n\n```python\nlogin(None)\n```"
VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def _context(browser: Browser, size: str, **options):
    phone = size == "phone"
    return browser.new_context(viewport=VIEWPORTS[size], has_touch=phone, is_mobile=phone, **options)


def _luminance(page: Page) -> float:
    return page.evaluate(
        """() => {
          const [r, g, b] = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
          return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        }"""
    )


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_chat_page_has_the_basics_people_expect(browser: Browser, site, person, fake_llm_server, size):
    model_answers(fake_llm_server, Reply.text(ANSWER, chunk_size=12, interval=0.01))
    context = _context(browser, size)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, site, person)
        page.get_by_role("button", name="Start chat").click()
        page.wait_for_url(f"{site}/chats/*/")
        expect(page).to_have_title("New chat · Codebase assistant")
        expect(page.locator("#connection")).to_have_text("")

        question = page.locator("#question")
        one_line = question.bounding_box()["height"]
        question.fill("one\ntwo\nthree\nfour\nfive\nsix")
        assert question.bounding_box()["height"] > one_line + 40, "the composer should grow with its text"
        question.fill(QUESTION)
        page.get_by_role("button", name="Send").click()
        answer = page.locator(".msg-assistant").last
        expect(answer).to_have_attribute("data-status", "complete")
        expect(page).to_have_title(re.compile(r"^Why does this fail\? .* · Codebase assistant$"))
        expect(question).to_have_value("")
        assert question.bounding_box()["height"] < one_line + 10, "an emptied composer shrinks back"

        # The person's own code is highlighted like the answer's.
        expect(page.locator(".msg-user pre.highlight .n").first).to_have_text("login")

        answer.get_by_role("button", name="Copy this answer").click()
        expect(answer.get_by_role("button", name="Copy this answer")).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == ANSWER
        answer.get_by_role("button", name="Copy this code").click()
        assert page.evaluate("navigator.clipboard.readText()").rstrip("\n") == CODE

        chat_url = page.url
        page.reload()
        expect(page.locator("#connection")).to_have_text("")
        assert page.evaluate("window.scrollY") == 0, "a short chat opens at its top, header in view, on a reload too"
        page.goto(f"{site}/chats/")
        page.goto(chat_url)
        expect(page.locator("#connection")).to_have_text("")
        assert page.evaluate("window.scrollY") == 0, "a short chat opens at its top, header in view"
        screenshot(page, f"chat_basics_{size}.png")

        edit = page.locator(".msg-user").get_by_role("button", name="Edit and resend this question")
        edit.click()
        expect(question).to_have_value(QUESTION)
        expect(question).to_be_focused()
        expect(page.locator("#editing")).to_be_visible()
        page.locator("#cancel-edit").click()
        expect(page.locator("#editing")).to_be_hidden()
        expect(question).to_have_value("")

        # Regenerate replaces the answer: still one question, with the new answer only.
        first_answer = answer.get_attribute("id")
        page.get_by_role("button", name="Regenerate: ask the question again").click()
        expect(page.locator(f"#{first_answer}")).to_have_count(0)
        expect(page.locator(".msg-assistant")).to_have_count(1)
        expect(page.locator(".msg-assistant")).to_have_attribute("data-status", "complete")
        expect(page.locator(".msg-user")).to_have_count(1)

        # Edit and resend replaces the question and its answer.
        edit.click()
        question.fill("Why does login(None) fail?")
        screenshot(page, f"chat_editing_{size}.png")
        question.press("Enter")
        expect(page.locator(".msg-user .msg-body")).to_have_text(["Why does login(None) fail?"])
        expect(page.locator(".msg-assistant")).to_have_count(1)
        expect(page.locator(".msg-assistant")).to_have_attribute("data-status", "complete")
        expect(page.locator("#editing")).to_be_hidden()
        screenshot(page, f"chat_replaced_{size}.png")
        # The replaced messages stay stored, marked, for audit.
        stored = [(m.role, m.content, m.replaced_at is not None) for m in Message.objects.order_by("id")]
        assert stored == [
            ("user", QUESTION, True), ("assistant", ANSWER, True),
            ("user", QUESTION, True), ("assistant", ANSWER, True),
            ("user", "Why does login(None) fail?", False), ("assistant", ANSWER, False),
        ]
    finally:
        context.close()


@pytest.mark.parametrize("size", VIEWPORTS)
def test_times_are_shown_in_the_browsers_own_time_zone(browser: Browser, site, person, size):
    session = ChatSession.objects.create(owner=person, title="Times")
    message = Message.objects.create(session=session, role=Message.Role.USER, content="When?")
    Message.objects.filter(pk=message.pk).update(created_at=datetime(2025, 11, 23, 20, 23, tzinfo=UTC))
    context = _context(browser, size, timezone_id="America/Los_Angeles", locale="en-US")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, site, person)
        page.goto(f"{site}/chats/{session.pk}/")
        stamp = page.locator(".msg-user time")
        expect(stamp).to_have_text("Nov 23, 2025, 12:23 PM")
        expect(stamp).to_have_attribute("title", re.compile(r"November 23, 2025 at 12:23:00 PM PST"))
        page.goto(f"{site}/chats/")
        expect(page.locator(".session-meta time").first).to_have_text("just now")
        screenshot(page, f"local_times_los_angeles_{size}.png")
    finally:
        context.close()


@pytest.mark.parametrize("size", VIEWPORTS)
def test_the_theme_toggle_is_remembered_and_can_return_to_the_system_setting(browser: Browser, site, person, size):
    context = _context(browser, size, color_scheme="light")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, site, person)
        toggle = page.locator("#theme-toggle")
        expect(toggle).to_have_text(re.compile("System"))
        assert _luminance(page) > 0.9
        toggle.click()
        expect(toggle).to_have_text(re.compile("Dark"))
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        assert _luminance(page) < 0.1
        page.goto(f"{site}/repositories/")
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")
        assert _luminance(page) < 0.1, "the choice holds on the next page"
        screenshot(page, f"theme_toggle_dark_{size}.png")
        toggle.click()
        expect(toggle).to_have_text(re.compile("Light"))
        toggle.click()
        expect(toggle).to_have_text(re.compile("System"))
        expect(page.locator("html")).to_have_attribute("data-theme", "light")
        page.emulate_media(color_scheme="dark")
        expect(page.locator("html")).to_have_attribute("data-theme", "dark")  # following the system again
    finally:
        context.close()

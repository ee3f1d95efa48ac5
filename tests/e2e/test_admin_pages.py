"""Admin list pages at 1280 px: every column is visible beside the filters, no serious axe-core
violation; a message's trace reads in start order. At 390 px (a phone) the list and change pages
fit the screen: nothing is cut off by a page scrolling sideways, the filters can be reached,
JSON fields wrap."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from chat.models import ChatSession, Message
from llm.models import LLMCall
from tests.e2e.accessibility import serious_violations
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PASSWORD

pytestmark = pytest.mark.e2e

LONG = "Where is the login view, and which middleware runs before it when a user posts the form from the checkout page? " * 3


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("admin-person", password=PASSWORD, is_staff=True, is_superuser=True)


PHONE_PAGE_WIDTH = """(() => {
  // What is cut off: past the right edge of the page, or of a box that clips it; a box that scrolls
  // sideways of its own (a results table) shows all of it.
  const cut = [...document.querySelectorAll('body *')].filter(element => {
    const box = element.getBoundingClientRect();
    if (!box.width || !element.checkVisibility()) return false;
    for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
      const overflow = getComputedStyle(parent).overflowX;
      if (overflow === 'auto' || overflow === 'scroll') return false;
      if (overflow === 'hidden' || overflow === 'clip') return box.right > parent.getBoundingClientRect().right + 1;
    }
    return box.right > window.innerWidth + 1;
  });
  return {scroll: document.documentElement.scrollWidth - window.innerWidth,
          cut: cut.slice(0, 5).map(e => e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className)};
})()"""


def test_admin_lists_fit_beside_their_filters_at_1280_and_admin_reads_well_on_a_phone(browser: Browser, site, staff):
    session = ChatSession.objects.create(owner=staff, title="A chat with a rather long title about the login flow")
    Message.objects.create(session=session, role=Message.Role.USER, content=LONG)
    # An answer replaced by a regenerate: kept, and marked in the lists.
    Message.objects.create(session=session, role=Message.Role.ASSISTANT, content="An older answer", replaced_at=timezone.now())
    answer = Message.objects.create(
        session=session, role=Message.Role.ASSISTANT, content=LONG, intent="project_qa", metrics={"latency_ms": 900},
        steps=[
            {"node": "tool:search_code", "depth": 1, "start_ms": 200.0, "duration_ms": 30.0, "detail": {"tool": "search_code", "arguments": {"query": "login"}}},
            {"node": "project_qa", "depth": 0, "start_ms": 100.0, "duration_ms": 800.0, "detail": {}},
        ],
    )
    for index in range(3):
        LLMCall.objects.create(
            provider="openai-compatible", model="a-rather-long-model-name-2025-11", kind="chat", prompt_name="project_qa_answer",
            prompt_version=12, outcome="ok", latency_ms=1234.5, ttft_ms=321.0, prompt_tokens=12000, completion_tokens=800,
            correlation_id=f"message:{answer.pk}",
        )
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, site, staff)
        for name, path in {
            "llm_calls": "/admin/llm/llmcall/",
            "messages": "/admin/chat/message/",
            "chats": "/admin/chat/chatsession/",
        }.items():
            page.goto(f"{site}{path}")
            expect(page.locator("#result_list")).to_be_visible()
            screenshot(page, f"admin_{name}_1280.png")
            table_right = page.evaluate("document.querySelector('#result_list').getBoundingClientRect().right")
            filters_left = page.evaluate("document.querySelector('#changelist-filter').getBoundingClientRect().left")
            assert table_right <= filters_left + 1, f"{name}: the columns run under the filters ({table_right} > {filters_left})"
            hidden = page.evaluate(
                "(() => { const box = document.querySelector('#result_list').parentElement; return box.scrollWidth - box.clientWidth; })()"
            )
            assert hidden <= 0, f"{name}: {hidden}px of columns scroll out of view"
            assert serious_violations(page) == [], name

        page.goto(f"{site}/admin/chat/message/{answer.pk}/change/")
        steps = page.locator(".readable-steps tbody tr td:nth-child(2)")
        expect(steps).to_have_text(["project_qa", "tool:search_code"])
        screenshot(page, "admin_message_1280.png")
        assert serious_violations(page) == [], "message"
    finally:
        context.close()

    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = phone.new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, site, staff)
        call = LLMCall.objects.order_by("id").first()
        for name, path in {
            "llm_calls": "/admin/llm/llmcall/",
            "messages": "/admin/chat/message/",
            "chats": "/admin/chat/chatsession/",
            "message": f"/admin/chat/message/{answer.pk}/change/",
            "chat": f"/admin/chat/chatsession/{session.pk}/change/",
            "llm_call": f"/admin/llm/llmcall/{call.pk}/change/",
        }.items():
            page.goto(f"{site}{path}")
            screenshot(page, f"admin_{name}_390.png")
            if name == "messages":
                expect(page.locator("#result_list")).to_contain_text("Complete (replaced)")
            width = page.evaluate(PHONE_PAGE_WIDTH)
            assert width == {"scroll": 0, "cut": []}, f"{name} at 390 px: {width}"
            if page.locator("#changelist-filter").count():
                # The filters come after the list; a link at its top leads to them.
                page.get_by_role("link", name="Filters").click()
                expect(page.locator("#changelist-filter").get_by_role("link").first).to_be_in_viewport()
                page.evaluate("window.scrollTo(0, 0)")
            for field in page.locator(".readable-json, .readable-text").all():
                assert field.evaluate("e => getComputedStyle(e).whiteSpace") == "pre-wrap", f"{name}: JSON on one line"
            assert serious_violations(page) == [], f"{name} at 390 px"
    finally:
        phone.close()

"""Admin list pages at 1280 px: every column is visible beside the filters, no serious axe-core
violation; a message's trace reads in start order."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from chat.models import ChatSession, Message
from llm.models import LLMCall
from tests.e2e.accessibility import serious_violations
from tests.e2e.conftest import SCREENSHOTS, log_in
from tests.factories import PASSWORD

pytestmark = pytest.mark.e2e

LONG = "Where is the login view, and which middleware runs before it when a user posts the form from the checkout page? " * 3


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("admin-person", password=PASSWORD, is_staff=True, is_superuser=True)


def test_admin_lists_fit_beside_their_filters_at_1280(browser: Browser, site, staff):
    session = ChatSession.objects.create(owner=staff, title="A chat with a rather long title about the login flow")
    Message.objects.create(session=session, role=Message.Role.USER, content=LONG)
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
        SCREENSHOTS.mkdir(exist_ok=True)
        for name, path in {
            "llm_calls": "/admin/llm/llmcall/",
            "messages": "/admin/chat/message/",
            "chats": "/admin/chat/chatsession/",
        }.items():
            page.goto(f"{site}{path}")
            expect(page.locator("#result_list")).to_be_visible()
            page.screenshot(path=str(SCREENSHOTS / f"admin_{name}_1280.png"), full_page=True)
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
        page.screenshot(path=str(SCREENSHOTS / "admin_message_1280.png"), full_page=True)
        assert serious_violations(page) == [], "message"
    finally:
        context.close()

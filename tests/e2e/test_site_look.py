"""How the site looks in a real browser: hidden things stay hidden."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from chat.models import ChatSession, Message
from tests.e2e.conftest import log_in

pytestmark = pytest.mark.e2e

ANSWER = "The view is `login` in views.py:\n\n```python\ndef login(request):\n    return redirect('home')\n```"


def a_chat_with_an_answer(person) -> ChatSession:
    session = ChatSession.objects.create(owner=person, title="Login questions")
    Message.objects.create(session=session, role=Message.Role.USER, content="Where is the login view?")
    Message.objects.create(session=session, role=Message.Role.ASSISTANT, content=ANSWER, intent="")
    return session


def test_an_answer_without_an_intent_shows_no_empty_badge(page: Page, site, person):
    session = a_chat_with_an_answer(person)
    log_in(page, site, person)
    page.goto(f"{site}/chats/{session.pk}/")
    expect(page.locator(".msg-assistant .markdown code").first).to_have_text("login")
    badge = page.locator(".msg-assistant .badge.intent")
    expect(badge).to_have_attribute("hidden", "")
    expect(badge).to_be_hidden()

    page.goto(f"{site}/repositories/")
    expect(page.locator(".upload-progress")).to_be_hidden()

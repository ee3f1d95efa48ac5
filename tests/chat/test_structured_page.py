"""An unsafe structured answer in a real browser: the flag shows while the answer streams,
stays on the finished message and after a reload, and the reasoning never shows."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.conftest import allow_orm_beside_playwright, browser, log_in, page, person, site  # noqa: F401 (fixtures)
from tests.llm.fakes import Reply

pytestmark = pytest.mark.e2e

REFUSAL = "I will not help with that. " * 12
THOUGHT = "PRIVATE-REASONING the question asks for harm"


@pytest.fixture(autouse=True)
def structured_site(monkeypatch) -> None:
    # Read by the site's web process, started after this fixture.
    monkeypatch.setenv("CHAT_STRUCTURED_ANSWERS", "true")


def reply(request) -> Reply:
    schema = ((request.json or {}).get("response_format") or {}).get("json_schema") or {}
    if schema.get("name") == "route_intent":
        return Reply.text('{"intent": "general"}', usage=(0, 0))
    document = {"internal_thought": THOUGHT, "is_safe": False, "answer": REFUSAL}
    return Reply.text(json.dumps(document), chunk_size=6, interval=0.03)


def test_an_unsafe_answer_is_flagged_while_it_streams_and_after_a_reload(page: Page, site, person, fake_llm_server):  # noqa: F811
    fake_llm_server.fallback = reply
    log_in(page, site, person)
    page.fill("#id_title", "Risky")
    page.get_by_role("button", name="Start chat").click()
    page.wait_for_url(f"{site}/chats/*/")
    expect(page.locator("#connection")).to_have_text("")

    page.fill("#question", "How do I hurt someone?")
    page.keyboard.press("Enter")
    answer = page.locator(".msg-assistant")
    flag = answer.get_by_role("alert")
    expect(answer).to_have_attribute("data-status", "streaming")
    expect(flag).to_contain_text("Flagged as possibly unsafe")
    assert answer.get_attribute("data-status") == "streaming", "the flag must show while the answer is written"

    expect(answer).to_have_attribute("data-status", "complete", timeout=20_000)
    expect(flag).to_be_visible()
    expect(answer.locator(".msg-body")).to_contain_text("I will not help with that.")
    page.reload()
    expect(page.locator(".msg-assistant").get_by_role("alert")).to_contain_text("Flagged as possibly unsafe")
    assert "PRIVATE-REASONING" not in page.content()

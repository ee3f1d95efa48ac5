"""The whole path in a real browser: upload a repository, wait for its index,
ask about it, follow the answer's citation to the highlighted lines."""

from __future__ import annotations

import re
import time
import zipfile

import pytest
from playwright.sync_api import Page, expect

from chat.models import Message
from tests.e2e.conftest import log_in, screenshot
from tests.llm.fakes import Reply

pytestmark = pytest.mark.e2e

VIEWS = '''"""Views of the shop."""

from django.shortcuts import redirect


def login_view(request):
    """Log the customer in, then send them home."""
    user = request.POST["user"]
    return redirect("home")


def logout_view(request):
    return redirect("login")
'''
ANSWER = (
    "The login view is `login_view` in shop/views.py:6-9. It reads the user from the posted form "
    "and then redirects to the home page."
)


@pytest.fixture
def shop_zip(tmp_path):
    path = tmp_path / "shop.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("shop/__init__.py", "")
        archive.writestr("shop/views.py", VIEWS)
        archive.writestr("README.md", "# Shop\n\nA tiny shop.\n")
    return path


def model_reads_then_answers(request) -> Reply:
    """Router: project_qa. First model call: read the view. Then: the answer, streamed."""
    body = request.json or {}
    if "response_format" in body:
        return Reply.text('{"intent": "project_qa"}', usage=(0, 0))
    if not any(message.get("role") == "tool" for message in body.get("messages", [])):
        return Reply.tool_call("read_file", {"path": "shop/views.py", "start": 6, "end": 9})
    return Reply.text(ANSWER, chunk_size=6, interval=0.05)


def test_an_uploaded_repository_is_asked_about_and_the_citation_opens_the_lines(
    page: Page, site, person, fake_llm_server, worker_process, shop_zip
):
    fake_llm_server.fallback = model_reads_then_answers
    log_in(page, site, person)

    page.get_by_role("link", name="Repositories").click()
    page.set_input_files("input[name=archive]", str(shop_zip))
    page.get_by_role("button", name="Upload and index").click()
    page.wait_for_url(f"{site}/repositories/*/")
    expect(page.get_by_text("Indexed 3 files")).to_be_visible(timeout=60_000)

    page.get_by_role("link", name="Chats").click()
    page.select_option("#id_repository", label="shop")
    page.get_by_role("button", name="Start chat").click()
    page.wait_for_url(f"{site}/chats/*/")
    expect(page.locator("#connection")).to_have_text("")
    page.fill("#question", "Where is the login view?")
    page.keyboard.press("Enter")

    body = page.locator(".msg-assistant .msg-body")
    expect(page.locator('.msg-assistant[data-status="streaming"]')).to_be_visible()
    lengths: list[int] = []
    deadline = time.monotonic() + 30
    while page.locator('.msg-assistant[data-status="streaming"]').count() and time.monotonic() < deadline:
        lengths.append(len(body.inner_text()))
        page.wait_for_timeout(60)
    assert len({n for n in lengths if n > 0}) >= 3, f"the answer should grow in steps, saw {lengths}"
    answer = page.locator(".msg-assistant")
    expect(answer).to_have_attribute("data-status", "complete")
    expect(answer.locator(".badge.intent")).to_have_text("Project Q&A")
    expect(answer.locator(".trace .step-tool", has_text="read_file")).to_contain_text("shop/views.py")

    expect(answer.locator(".markdown a", has_text="shop/views.py:6-9")).to_have_attribute(
        "href", re.compile(r"/source/shop/views\.py\?start=6&end=9&at=\d+#L6$")
    )
    citation = answer.locator(".citations a", has_text="shop/views.py:6-9")
    expect(citation).to_be_visible()
    answer.locator(".trace summary").click()
    screenshot(page, "repository_answer_with_citation.png")
    citation.click()
    page.wait_for_url("**/source/shop/views.py*")
    cited = page.locator("tr.cited")
    expect(cited).to_have_count(4)
    expect(cited.first).to_have_attribute("id", "L6")
    expect(page.locator("#L6")).to_be_in_viewport()
    expect(cited.last).to_contain_text('return redirect("home")')

    stored = Message.objects.get(role="assistant")
    assert stored.intent == "project_qa" and stored.content == ANSWER
    assert [(c["path"], c["start_line"], c["end_line"]) for c in stored.citations] == [("shop/views.py", 6, 9)]

"""Browser tests: Debian's Chromium driven by Playwright against a real daphne
process (and, where indexing is needed, a real worker) on the test database,
with the model replaced by the local fake server streaming at a set rate."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connections
from playwright.sync_api import Browser, Page, sync_playwright

from tests.conftest import product_process_env, web_process
from tests.factories import PASSWORD, make_user
from tests.llm.fakes import FakeProviderServer, Reply, fake_llm_server  # noqa: F401 (fixture)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"


def screenshot(page: Page, name: str, *, full_page: bool = True) -> None:
    """Keep a picture of the page in ``tests/e2e/screenshots/`` when ``E2E_SCREENSHOTS`` is set (to look
    at the pages a change touched); the suite asserts nothing of it, and encoding a picture per page is
    a good share of the browser tests' time."""
    if os.environ.get("E2E_SCREENSHOTS"):
        page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)


@pytest.fixture(autouse=True)
def allow_orm_beside_playwright(monkeypatch) -> None:
    # Playwright's sync API runs an event loop in this thread; the test's own
    # ORM calls are still plain synchronous code.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def browser(transactional_db, allow_orm_beside_playwright) -> Iterator[Browser]:
    if not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: apt-get install -y chromium (make test does it)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()
        # While Playwright's loop runs, the test's ORM calls get connections of
        # their own (asgiref's context-local storage); close them here, in the
        # same context, so the test database can be dropped.
        connections.close_all()


@pytest.fixture
def site(transactional_db, fake_llm_server: FakeProviderServer) -> Iterator[str]:  # noqa: F811
    """The product's web process on a free port, using the test database and the fake model."""
    env = product_process_env()
    env.update(fake_llm_server.env("openai"))
    env["CHAT_FLUSH_SECONDS"] = "0.2"
    with web_process(env) as url:
        yield url


@pytest.fixture
def page(browser: Browser, site: str, request) -> Iterator[Page]:
    """A desktop-sized page; its screenshot (``screenshot``) is taken while the site still runs."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    screenshot(page, f"{request.node.name}.png")
    context.close()


@pytest.fixture
def person(transactional_db):
    return make_user("reader")


def log_in(page: Page, site: str, user) -> None:
    page.goto(f"{site}/accounts/login/")
    page.fill("#id_username", user.username)
    page.fill("#id_password", PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{site}/chats/")


def model_answers(server: FakeProviderServer, answer: Reply, intent: str = "general") -> None:
    """The fake model routes every question to ``intent`` (requests asking for
    structured output) and answers everything else with ``answer``."""

    def reply(request) -> Reply:
        if "response_format" in (request.json or {}):
            return Reply.text(f'{{"intent": "{intent}"}}', usage=(0, 0))
        return answer

    server.fallback = reply

"""Every page of the site at desktop (1280x900) and phone (390x844, touch) sizes,
and in the dark theme: no serious or critical axe-core violation (contrast
included), no sideways scrolling, and on a phone
the header in one row, tables that keep their labels and no keyboard hints."""

from __future__ import annotations

import pytest
from django.urls import reverse
from playwright.sync_api import Browser, Page, expect

from chat.models import ChatSession, Message
from rag.models import IndexRun
from tests.e2e.accessibility import serious_violations
from tests.e2e.conftest import log_in, screenshot
from tests.factories import PASSWORD
from tests.rag.conftest import SMALL_PROJECT, index_zip, make_zip

pytestmark = pytest.mark.e2e

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
ANSWER = "The cart is built in `shop/views.py:4-7`:\n\n```python\ncart = Cart.for_user(request.user)\n```\n\n| step | where |\n|---|---|\n| login | views |"


@pytest.fixture
def world(person, settings, tmp_path):
    """An indexed repository and a chat about it with a finished, cited answer."""
    settings.RAG = {**settings.RAG, "UPLOAD_DIR": str(tmp_path / "uploads")}
    project = {
        **SMALL_PROJECT,
        "requirements.txt": "Django>=5.2\ncom.example-long-package-name-to-wrap==1.0\n",
        "shop/app.py": 'from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.route("/carts/<int:cart_id>/line-items", methods=["GET", "POST"])\ndef cart_lines(cart_id):\n    return str(cart_id)\n',
    }
    run = index_zip(person, make_zip(project))
    assert run.status == IndexRun.Status.READY, run.error
    repository = run.repository
    session = ChatSession.objects.create(owner=person, title="Cart questions", repository=repository)
    Message.objects.create(session=session, role=Message.Role.USER, content="Where is the cart built?\n\n```python\nCart()\n```")
    Message.objects.create(
        session=session, role=Message.Role.ASSISTANT, content=ANSWER, intent="project_qa",
        citations=[{"path": "shop/views.py", "start_line": 4, "end_line": 7}],
    )
    return repository, session


def _pages(repository, session) -> dict[str, str]:
    pk = repository.pk
    return {
        "chats": reverse("chat-sessions"),
        "chat": reverse("chat-session", args=[session.pk]),
        "chat_rename": reverse("chat-rename", args=[session.pk]),
        "chat_delete": reverse("chat-delete", args=[session.pk]),
        "chat_files": reverse("chat-artifacts", args=[session.pk]),
        "repositories": reverse("rag-repositories"),
        "repository": reverse("rag-repository", args=[pk]),
        "repository_delete": reverse("rag-delete", args=[pk]),
        "source": reverse("rag-source", args=[pk, "shop/views.py"]) + "?lines=4-7",
        "folder": reverse("rag-source", args=[pk, "shop"]) + "/",
        "code_search": reverse("rag-code-search", args=[pk]) + "?q=cart",
        "symbol": reverse("rag-symbol", args=[pk, "shop.views.login_view"]),
        "dependencies": reverse("rag-dependencies", args=[pk]),
        "entrypoints": reverse("rag-entrypoints", args=[pk]),
        "editor_access": reverse("mcp-tokens"),
        "not_found": "/no/such/page/",
    }


def _check_phone(page: Page, name: str) -> None:
    tops = page.evaluate(
        """() => [...document.querySelectorAll('.site-header > *')]
             .filter((el) => el.offsetParent !== null)
             .map((el) => Math.round(el.getBoundingClientRect().top + el.getBoundingClientRect().height / 2))"""
    )
    assert max(tops) - min(tops) <= 6, f"{name}: the header should be one row at phone width, centres at {tops}"
    hints = page.evaluate(
        """() => [...document.querySelectorAll('.key-hint')].filter((el) => getComputedStyle(el).display !== 'none').length"""
    )
    assert hints == 0, f"{name}: keyboard hints shown on a touch screen"
    placeholder = page.evaluate("document.querySelector('#question')?.placeholder || ''")
    assert "Enter" not in placeholder, f"{name}: the composer mentions keys on a touch screen"
    labels = page.evaluate(
        """() => [...document.querySelectorAll('.data-table td')].map((td) => getComputedStyle(td, '::before').content)"""
    )
    assert all(label not in ("none", "normal", "") for label in labels), f"{name}: table cells without labels {labels}"


@pytest.mark.parametrize(("size", "scheme"), [("desktop", "light"), ("phone", "light"), ("desktop", "dark")])
def test_every_page_is_accessible_and_fits_the_screen(browser: Browser, site, person, world, size, scheme):
    repository, session = world
    phone = size == "phone"
    context = browser.new_context(viewport=VIEWPORTS[size], has_touch=phone, is_mobile=phone, color_scheme=scheme)
    page = context.new_page()
    page.set_default_timeout(15_000)
    failures: list[str] = []
    try:
        page.goto(f"{site}/accounts/login/")
        failures += [f"login: {v}" for v in serious_violations(page)]
        log_in(page, site, person)
        for name, path in _pages(repository, session).items():
            page.goto(f"{site}{path}")
            expect(page.locator("main")).to_be_visible()
            if name == "chat":
                expect(page.locator("#connection")).to_have_text("")
            screenshot(page, f"page_{name}_{size}{'_dark' if scheme == 'dark' else ''}.png")
            overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            if overflow > 0:
                failures.append(f"{name}: {overflow}px wider than the window")
            failures += [f"{name}: {v}" for v in serious_violations(page)]
            if phone:
                _check_phone(page, name)
    finally:
        context.close()
    assert failures == []


def test_a_staff_persons_phone_header_keeps_one_row(browser: Browser, site, world, django_user_model):
    staff = django_user_model.objects.create_user("admin-person", password=PASSWORD, is_staff=True)
    context = browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, site, staff)
        _check_phone(page, "chats (staff)")
        expect(page.get_by_role("link", name="Admin")).to_be_attached()
    finally:
        context.close()

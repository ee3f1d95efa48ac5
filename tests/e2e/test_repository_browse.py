"""The repository home in a real browser at desktop and phone sizes: the tree, a folder,
the README, a search whose hits open the lines, a symbol page, and no serious
accessibility violations on any of them."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from rag.models import IndexRun
from tests.e2e.accessibility import serious_violations
from tests.e2e.conftest import log_in, screenshot
from tests.rag.conftest import SMALL_PROJECT, index_zip, make_zip

pytestmark = pytest.mark.e2e

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture
def shop(person, settings, tmp_path):
    settings.RAG = {**settings.RAG, "UPLOAD_DIR": str(tmp_path / "uploads")}
    run = index_zip(person, make_zip(SMALL_PROJECT))
    assert run.status == IndexRun.Status.READY, run.error
    return run.repository


def _open(browser: Browser, size: str) -> Page:
    context = browser.new_context(viewport=VIEWPORTS[size], has_touch=size == "phone", is_mobile=size == "phone")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def _check(page: Page, name: str) -> None:
    """Fits the width (no sideways scrolling), has no serious axe violation; a screenshot is kept (``screenshot``)."""
    screenshot(page, f"{name}.png")
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0, f"{name}: the page is {overflow}px wider than the window"
    assert serious_violations(page) == [], name


@pytest.mark.parametrize("size", VIEWPORTS)
def test_a_repository_is_browsed_searched_and_its_symbols_followed(browser: Browser, site, person, shop, size):
    page = _open(browser, size)
    try:
        log_in(page, site, person)
        page.goto(f"{site}/repositories/{shop.pk}/")
        expect(page.locator(".index-state strong")).to_have_text(re.compile(r"^Indexed 6 files, 7 symbols$"))
        expect(page.locator(".index-state time")).to_have_text("just now")
        expect(page.locator(".index-detail")).not_to_have_attribute("open", "")
        expect(page.get_by_text("C1_SYMBOL_CATALOG")).to_be_hidden()
        tree = page.locator(".tree-table")
        expect(tree.locator("tbody tr")).to_have_count(4)
        expect(page.locator(".readme h1")).to_have_text("Shop")
        _check(page, f"browse_home_{size}")

        tree.get_by_role("link", name="shop/").click()
        page.wait_for_url(f"{site}/repositories/{shop.pk}/source/shop/")
        expect(page.locator("h1")).to_have_text("shop/")
        expect(page.locator(".tree-file")).to_have_count(3)
        _check(page, f"browse_folder_{size}")
        page.locator(".tree-table").get_by_role("link", name="views.py").click()
        page.wait_for_url("**/source/shop/views.py")
        expect(page.locator("#L4")).to_contain_text("def login_view")

        page.goto(f"{site}/repositories/{shop.pk}/")
        if size == "desktop":
            page.keyboard.press("/")  # the search box's shortcut
            expect(page.get_by_role("searchbox", name="Search the code of shop")).to_be_focused()
        page.get_by_role("searchbox", name="Search the code of shop").fill("Cart total")
        page.get_by_role("searchbox", name="Search the code of shop").press("Enter")
        page.wait_for_url("**/code-search/?q=Cart+total&match=ranked")
        # On the search page the results follow the typing (and the address with them).
        page.get_by_role("searchbox", name="Search the code of shop").fill("login view")
        expect(page.locator("#search-results")).to_contain_text("for “login view”")
        expect(page).to_have_url(re.compile(r".*/code-search/\?q=login(\+|%20)view&match=ranked$"))
        page.go_back()
        expect(page).to_have_url(re.compile(r".*/code-search/\?q=Cart\+total&match=ranked$"))
        expect(page.locator("#search-results")).to_contain_text("for “Cart total”")
        group = page.locator(".hit-file", has=page.locator("h2", has_text="shop/models.py"))
        expect(group).to_have_count(1)
        _check(page, f"browse_search_{size}")
        # The exact text, found line by line, follows the choice of how to match.
        page.get_by_role("combobox", name="How to match").select_option("text")
        expect(page).to_have_url(re.compile(r".*/code-search/\?q=Cart(\+|%20)total&match=text$"))
        page.get_by_role("searchbox", name="Search the code of shop").fill("for_user")
        expect(page.locator("#search-results mark").first).to_have_text("for_user")
        expect(page.locator(".hit-file h2")).to_have_text(["shop/models.py", "shop/views.py"])
        _check(page, f"browse_exact_search_{size}")
        page.go_back()
        page.go_back()
        expect(page).to_have_url(re.compile(r".*/code-search/\?q=Cart\+total&match=ranked$"))
        group = page.locator(".hit-file", has=page.locator("h2", has_text="shop/models.py"))
        group.locator(".hit-lines").first.click()
        page.wait_for_url(re.compile(r".*/source/shop/models\.py\?lines=\d+-\d+#L\d+$"))
        expect(page.locator("tr.cited").first).to_be_in_viewport()

        page.goto(f"{site}/repositories/{shop.pk}/symbols/shop.views.render_cart")
        expect(page.locator("h1")).to_contain_text("shop.views.render_cart")
        page.locator("section", has=page.locator("#callers-title")).get_by_role("link", name="shop.views.login_view").click()
        page.wait_for_url("**/symbols/shop.views.login_view")
        expect(page.locator("section", has=page.locator("#callees-title"))).to_contain_text("shop.models.Cart.for_user")
        _check(page, f"browse_symbol_{size}")

        page.get_by_role("button", name="Chat about this repository").click()
        page.wait_for_url(f"{site}/chats/*/")
        expect(page.locator(".chat-sub")).to_contain_text("shop")
    finally:
        page.context.close()


def test_the_source_view_selects_lines_leads_back_to_the_chat_and_keeps_an_anchor_off_the_top_edge(browser: Browser, site, person, shop):
    from chat.models import ChatSession, Message

    long_run = index_zip(person, make_zip({"app/long.py": "".join(f"value_{n} = {n}\n" for n in range(1, 601)), "README.md": "# Long\n"}), name="long")
    session = ChatSession.objects.create(owner=person, title="Views", repository=shop)
    Message.objects.create(session=session, role=Message.Role.USER, content="Where is login?")
    Message.objects.create(
        session=session, role=Message.Role.ASSISTANT, content="In shop/views.py:4-7.", intent="project_qa",
        citations=[{"path": "shop/views.py", "start_line": 4, "end_line": 7}],
    )
    page = _open(browser, "desktop")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    try:
        log_in(page, site, person)
        page.goto(f"{site}/chats/{session.pk}/")
        page.locator(".msg-assistant .markdown a", has_text="shop/views.py:4-7").click()
        page.wait_for_url("**/source/shop/views.py*")
        back = page.get_by_role("link", name="← Back to the chat")
        expect(back).to_be_visible()
        expect(back).to_have_attribute("href", f"/chats/{session.pk}/")

        page.locator("#L2 .ln a").click()
        page.locator("#L5 .ln a").click(modifiers=["Shift"])
        expect(page.locator("tr.cited")).to_have_count(4)
        assert page.url.endswith("/source/shop/views.py?lines=2-5#L2"), page.url
        page.get_by_role("button", name="Copy link").click()
        assert page.evaluate("navigator.clipboard.readText()") == page.url
        page.get_by_role("button", name="Copy file").click()
        expect(page.locator("#copy-file")).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == SMALL_PROJECT["shop/views.py"]
        _check(page, "source_selected_lines_desktop")

        page.goto(f"{site}/repositories/{long_run.repository_id}/source/app/long.py#L400")
        top = page.locator("#L400").evaluate("(row) => row.getBoundingClientRect().top")
        assert 100 < top < 900 - 100, f"line 400 stands at {top}px, at an edge of the window"
    finally:
        page.context.close()

"""How the site looks in a real browser: hidden things stay hidden, and dark mode follows the system."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from chat.models import ChatSession, Message
from rag.models import Repository
from tests.e2e.conftest import log_in, screenshot

pytestmark = pytest.mark.e2e

ANSWER = "The view is `login` in views.py:\n\n```python\ndef login(request):\n    return redirect('home')\n```"

# WCAG contrast of an element's text against the first opaque background behind it.
CONTRAST = """(el) => {
  // An element the page replaced as it was read (a live region's swap) has no computed style: null.
  if (!el.isConnected) return null;
  // A computed color is rgb() or rgba(); one in another form is painted on a pixel and the pixel read.
  const pixel = document.createElement("canvas").getContext("2d", {willReadFrequently: true});
  const parse = (c) => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) {
      pixel.clearRect(0, 0, 1, 1);
      pixel.fillStyle = c;
      pixel.fillRect(0, 0, 1, 1);
      const [r, g, b, a] = pixel.getImageData(0, 0, 1, 1).data;
      return {r, g, b, a: a / 255};
    }
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1};
  };
  const channel = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
  const luminance = (c) => 0.2126 * channel(c.r) + 0.7152 * channel(c.g) + 0.0722 * channel(c.b);
  let bg = {r: 255, g: 255, b: 255, a: 1};
  for (let n = el; n; n = n.parentElement) {
    const c = parse(getComputedStyle(n).backgroundColor);
    if (c.a > 0) { bg = c; break; }
  }
  const [hi, lo] = [luminance(parse(getComputedStyle(el).color)), luminance(bg)].sort((a, b) => b - a);
  return {ratio: (hi + 0.05) / (lo + 0.05), background: luminance(bg)};
}"""


def contrast_of(element: Locator) -> dict:
    """The element's contrast with its background, read again when the page replaced it as it was read
    (the locator finds the element anew each time)."""
    for _ in range(5):
        found = element.evaluate(CONTRAST)
        if found is not None:
            return found
    raise AssertionError("the element was replaced each time its colors were read")


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


def test_the_site_follows_a_dark_system_setting_with_readable_text(browser: Browser, site, person, request):
    session = a_chat_with_an_answer(person)
    Repository.objects.create(owner=person, name="shop")
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        log_in(page, site, person)
        checked = {
            "/chats/": ["h1", ".session-title", ".session-meta", ".badge.muted", "button.primary", "label"],
            f"/chats/{session.pk}/": [".msg-user .msg-body", ".msg-assistant .markdown p", ".markdown pre .nf", ".markdown :not(pre) > code", ".msg-meta time"],
            "/repositories/": ["h1", ".data-table th a", ".data-table td .empty", "label"],
        }
        for path, selectors in checked.items():
            page.goto(f"{site}{path}")
            body = page.locator("body").evaluate(CONTRAST)
            assert body["background"] < 0.05, f"{path}: the page background should be dark, luminance {body['background']:.3f}"
            for selector in selectors:
                element = page.locator(selector).first
                expect(element).to_be_visible()
                contrast = contrast_of(element)
                assert contrast["ratio"] >= 4.5, f"{path} {selector}: contrast {contrast['ratio']:.2f} is below 4.5:1"
        page.goto(f"{site}/chats/{session.pk}/")
        screenshot(page, f"{request.node.name}.png")
    finally:
        context.close()

    light = browser.new_context(color_scheme="light").new_page()
    light.goto(f"{site}/accounts/login/")
    assert light.locator("body").evaluate(CONTRAST)["background"] > 0.8
    light.context.close()

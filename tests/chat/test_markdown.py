from __future__ import annotations

from html.parser import HTMLParser

from chat.markdown import render_markdown


class Elements(HTMLParser):
    """Every element and attribute a browser would create from the HTML."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attributes: list[tuple[str, str | None]] = []
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.extend(attrs)


def test_a_script_tag_and_an_onerror_handler_from_a_model_render_inert():
    html = render_markdown(
        'Here you go <script>alert("x")</script>\n\n<img src=x onerror="alert(1)">\n\n'
        '<a href="javascript:alert(2)">click</a> [link](javascript:alert(3))'
    )
    elements = Elements(html)
    assert "script" not in elements.tags and "img" not in elements.tags
    assert not [name for name, _ in elements.attributes if name.startswith("on")]
    assert not [value for name, value in elements.attributes if name == "href" and "javascript" in (value or "")]
    assert "&lt;script&gt;" in html  # shown as text, not dropped silently


def test_raw_html_that_survives_markdown_is_still_sanitized():
    # A fenced block with an unknown language must not let markup through its info string.
    html = render_markdown('```"><script>alert(1)</script>\ncode\n```')
    assert "script" not in Elements(html).tags


def test_code_blocks_are_highlighted_by_language():
    html = render_markdown("```python\ndef login(request):\n    return None\n```")
    assert '<pre class="highlight">' in html
    assert '<span class="k">def</span>' in html and '<span class="nf">login</span>' in html


def test_code_blocks_whose_highlighting_runs_past_the_texts_time_are_shown_plain(monkeypatch):
    import rag.highlighting

    # Perl's lexer reads the rest of a block again from every substitution it starts (16 KB took 2.3 s),
    # in a README or an answer as in a file. The text's blocks share one budget: here it is nothing.
    text = "```perl\ns{<b>}{x};\n```\n\n```python\ndef login(request):\n    return None\n```"
    assert '<span class="k">def</span>' in render_markdown(text)
    monkeypatch.setattr(rag.highlighting, "HIGHLIGHT_SECONDS", 0.0)

    html = render_markdown(text)

    assert html.count('<pre class="highlight"><code>') == 2 and "<span" not in html
    assert "s{&lt;b&gt;}{x};" in html and "def login(request):" in html


def test_links_get_a_safe_rel_and_tables_render():
    html = render_markdown("[docs](https://example.com)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    assert 'rel="noopener noreferrer nofollow"' in html
    assert "<table>" in html and "<td>1</td>" in html


def test_a_token_frame_escapes_the_text_and_appends_it_out_of_band():
    from chat import frames

    frame = frames.token(7, '<img src=x onerror="alert(1)"> & more')
    assert frame.strip() == (
        '<span hx-swap-oob="beforeend:#msg-7-body">&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; more</span>'
    )
    assert 'hx-swap-oob="innerHTML:#msg-7-body"' in frames.token(7, "all so far", replace=True)


def test_cited_ranges_in_the_text_link_only_when_the_linker_knows_them():
    def link(path, start, end):
        return f"/source/{path}?start={start}&end={end}" if path == "shop/views.py" else None

    html = render_markdown(
        "In shop/views.py:6-9 and `shop/views.py:7`; made up: other.py:1; [see shop/views.py:2](https://example.com)",
        link,
    )
    elements = Elements(html)
    hrefs = [value for name, value in elements.attributes if name == "href"]
    assert hrefs == ["/source/shop/views.py?start=6&end=9", "/source/shop/views.py?start=7&end=7", "https://example.com"]
    assert "other.py:1" in html
    assert render_markdown("In shop/views.py:6-9") == "<p>In shop/views.py:6-9</p>\n"

"""Model output to safe HTML: Markdown (markdown-it-py), code highlighted by
Pygments, then sanitized by nh3.

Raw HTML in the Markdown is escaped by the parser, and the sanitizer runs on
the final HTML anyway, so neither a parser quirk nor a highlighter bug can let
a script or an event handler through.
"""

from __future__ import annotations

from functools import lru_cache

import nh3
from markdown_it import MarkdownIt
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.util import ClassNotFound

ALLOWED_TAGS = {
    "a", "blockquote", "br", "code", "del", "div", "em", "h1", "h2", "h3", "h4", "h5", "h6", "hr",
    "li", "ol", "p", "pre", "span", "strong", "table", "tbody", "td", "th", "thead", "tr", "ul",
}
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    # Pygments token classes and the code block wrapper.
    "span": {"class"},
    "div": {"class"},
    "code": {"class"},
    "pre": {"class"},
    "th": {"style"},
    "td": {"style"},
    "ol": {"start"},
}
_FORMATTER = HtmlFormatter(nowrap=True)


def _highlight(code: str, language: str, attrs: str) -> str:
    try:
        lexer = get_lexer_by_name(language.strip() or "text")
    except ClassNotFound:
        lexer = get_lexer_by_name("text")
    body = highlight(code, lexer, _FORMATTER)
    return f'<pre class="highlight"><code>{body}</code></pre>'


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # "html": False escapes raw HTML instead of passing it through.
    return MarkdownIt("commonmark", {"html": False, "linkify": False, "highlight": _highlight}).enable(
        ["table", "strikethrough"]
    )


def sanitize(html: str) -> str:
    return nh3.clean(
        html,
        tags=ALLOWED_TAGS,
        attributes=ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        filter_style_properties={"text-align"},
    )


def render_markdown(text: str) -> str:
    """Markdown from a model (untrusted) to HTML that is safe to mark safe."""
    return sanitize(_parser().render(text))

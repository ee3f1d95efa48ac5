"""Untrusted Markdown (model answers, a repository's README) to safe HTML:
Markdown (markdown-it-py), code highlighted by Pygments, then sanitized by nh3.

Raw HTML in the Markdown is escaped by the parser, and the sanitizer runs on
the final HTML anyway, so neither a parser quirk nor a highlighter bug can let
a script or an event handler through. A repository's own documents
(``document=True``: its README) keep their raw HTML as the code hosts show it,
centred headers and ``<details>`` included, through a wider list of tags: still
no script, style, form or image (an image would be fetched from wherever the
document points, by every reader's browser). It lives in ``rag`` so that the
repository pages and the chat (which binds its citation pattern in
``chat/markdown.py``) render through the same pipeline.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from contextvars import ContextVar
from functools import lru_cache

import nh3
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.token import Text as PlainText
from pygments.util import ClassNotFound

from rag.highlighting import deadline, lexed

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
# A repository's documents also write these in HTML (GitHub's READMEs: ``<p align="center">``, ``<details>``).
DOCUMENT_TAGS = ALLOWED_TAGS | {"b", "i", "kbd", "sub", "sup", "details", "summary", "dl", "dt", "dd", "s", "u"}
DOCUMENT_ATTRIBUTES = {
    **ALLOWED_ATTRIBUTES,
    **{tag: {"align"} for tag in ("p", "h1", "h2", "h3", "h4", "h5", "h6")},
    "div": {"class", "align"},
    "details": {"open"},
}
_FORMATTER = HtmlFormatter(nowrap=True)

# (path, start, end) -> the URL of those lines, or None to leave the text as is.
CitationLinker = Callable[[str, int, int], "str | None"]


# When the code blocks of the text being rendered must stop being highlighted: one budget for all of a
# text's blocks (``rag.highlighting``); the blocks after it are shown plain.
_highlight_until: ContextVar[float | None] = ContextVar("highlight_until", default=None)


def _highlight(code: str, language: str, attrs: str) -> str:
    try:
        lexer = get_lexer_by_name(language.strip() or "text")
    except ClassNotFound:
        lexer = get_lexer_by_name("text")
    tokens = lexed(lexer, code, _highlight_until.get() or deadline())
    out = io.StringIO()
    _FORMATTER.format(tokens if tokens is not None else [(PlainText, code)], out)
    return f'<pre class="highlight"><code>{out.getvalue()}</code></pre>'


def _citation_url(linker: CitationLinker, match: re.Match[str]) -> str | None:
    start = int(match.group(2))
    end = int(match.group(3) or start)
    return linker(match.group(1), min(start, end), max(start, end))


def _linked(url: str, inner: Token) -> list[Token]:
    return [Token("link_open", "a", 1, attrs={"href": url}), inner, Token("link_close", "a", -1)]


def _link_citations(state: StateCore) -> None:
    """Core rule: citations in text and inline code become links (never inside a link)."""
    linker: CitationLinker | None = state.env.get("link_citation")
    pattern: re.Pattern[str] | None = state.env.get("citation_pattern")
    if linker is None or pattern is None:
        return
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        in_link = 0
        for token in block.children:
            in_link += {"link_open": 1, "link_close": -1}.get(token.type, 0)
            if in_link or token.type not in ("text", "code_inline"):
                children.append(token)
                continue
            if token.type == "code_inline":
                match = pattern.fullmatch(token.content.strip())
                url = match and _citation_url(linker, match)
                children.extend(_linked(url, token) if url else [token])
                continue
            position = 0
            for match in pattern.finditer(token.content):
                url = _citation_url(linker, match)
                if not url:
                    continue
                if match.start() > position:
                    children.append(Token("text", "", 0, content=token.content[position : match.start()]))
                children.extend(_linked(url, Token("text", "", 0, content=match.group(0))))
                position = match.end()
            if position == 0:
                children.append(token)
            elif position < len(token.content):
                children.append(Token("text", "", 0, content=token.content[position:]))
        block.children = children


# (href) -> the address a relative link of the document should lead to, or None to keep it.
LinkResolver = Callable[[str], "str | None"]
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def _resolve_links(state: StateCore) -> None:
    """Core rule: relative links (``docs/guide.md``) go where the resolver says, e.g. the file in the source view."""
    resolver: LinkResolver | None = state.env.get("resolve_link")
    if resolver is None:
        return
    for block in state.tokens:
        for token in block.children or ():
            href = token.attrGet("href") if token.type == "link_open" else None
            if href and not _SCHEME.match(href) and not href.startswith(("#", "/")):
                resolved = resolver(href)
                if resolved:
                    token.attrSet("href", resolved)


@lru_cache(maxsize=4)
def _parser(breaks: bool = False, html: bool = False) -> MarkdownIt:
    # "html": False escapes raw HTML instead of passing it through (to the sanitizer).
    parser = MarkdownIt("commonmark", {"html": html, "linkify": False, "breaks": breaks, "highlight": _highlight}).enable(
        ["table", "strikethrough"]
    )
    parser.core.ruler.push("citation_links", _link_citations)
    parser.core.ruler.push("resolve_links", _resolve_links)
    return parser


def sanitize(html: str, *, document: bool = False) -> str:
    return nh3.clean(
        html,
        tags=DOCUMENT_TAGS if document else ALLOWED_TAGS,
        attributes=DOCUMENT_ATTRIBUTES if document else ALLOWED_ATTRIBUTES,
        url_schemes={"http", "https", "mailto"},
        link_rel="noopener noreferrer nofollow",
        filter_style_properties={"text-align"},
    )


def render_markdown(
    text: str,
    link_citation: CitationLinker | None = None,
    citation_pattern: re.Pattern[str] | None = None,
    *,
    breaks: bool = False,
    resolve_link: LinkResolver | None = None,
    document: bool = False,
) -> str:
    """Untrusted Markdown to HTML that is safe to mark safe.

    With ``link_citation`` and ``citation_pattern`` (groups: path, start, end), code citations
    in the text link to what the linker returns. ``breaks`` keeps single newlines as line
    breaks (text a person typed, where a newline is meant as one). ``resolve_link`` rewrites
    relative links (a README's ``docs/guide.md``). ``document``: a repository's own document, whose raw
    HTML is kept within ``DOCUMENT_TAGS`` (see the module).
    """
    env = {"link_citation": link_citation, "citation_pattern": citation_pattern, "resolve_link": resolve_link}
    budget = _highlight_until.set(deadline())
    try:
        html = _parser(breaks, document).render(text, env)
    finally:
        _highlight_until.reset(budget)
    return sanitize(html, document=document)

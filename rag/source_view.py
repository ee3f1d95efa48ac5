"""Syntax-highlighted source as numbered lines, for the source view page."""

from __future__ import annotations

import io
import re
from dataclasses import dataclass
from functools import lru_cache

from django.utils.safestring import SafeString, mark_safe
from pygments.formatters import HtmlFormatter
from pygments.lexers import TextLexer, get_lexer_for_filename
from pygments.util import ClassNotFound

from rag.highlighting import deadline, lexed

# Token classes the page gives no colour (plain names, punctuation, whitespace): their spans only add
# bytes (a third of a highlighted Python file), so their text is kept without them.
_UNSTYLED_SPAN = re.compile(r'<span class="(?:w|n|p)">([^<]*)</span>')

_CITED = ' class="cited"'

# Past this many lines only a window around the cited range is rendered.
MAX_RENDERED_LINES = 5000
CONTEXT_LINES = 400


@dataclass(frozen=True)
class SourceLine:
    number: int
    html: SafeString
    cited: bool


@dataclass(frozen=True)
class SourceView:
    lines: list[SourceLine]
    language: str
    first: int
    last: int
    total: int
    # The lines marked as cited: the asked range, cut at the file's end.
    cited: tuple[int, int] | None = None
    # The asked range when it starts past the file's last line (nothing is cited then).
    beyond_end: tuple[int, int] | None = None

    @property
    def truncated(self) -> bool:
        return self.first > 1 or self.last < self.total

    @property
    def rows_html(self) -> SafeString:
        """The table's rows, built here rather than by a template loop (a tenth of the time for 5,000 lines)."""
        return mark_safe(  # noqa: S308 - each line's markup is Pygments' escaped output
            "".join(
                f'<tr id="L{line.number}"{_CITED if line.cited else ""}><td class="ln"><a href="#L{line.number}">'
                f"{line.number}</a></td><td class=\"code\">{line.html}</td></tr>\n"
                for line in self.lines
            )
        )


def _lexer(path: str, text: str):
    try:
        return get_lexer_for_filename(path, text[:4096], stripnl=False, ensurenl=False)
    except ClassNotFound:
        return TextLexer(stripnl=False, ensurenl=False)


@lru_cache(maxsize=16)
def _highlighted(path: str, window: str) -> tuple[str, tuple[str, ...]]:
    """The lexer's name and the window's highlighted lines. Highlighting is most of a long file's
    page time, and the same lines are opened again and again (each citation into a file), so the
    last few windows are kept; a window is at most MAX_RENDERED_LINES lines, about a megabyte."""
    lexer = _lexer(path, window)
    # Past the budget the window is shown as plain text (``rag.highlighting``).
    tokens = lexed(lexer, window, deadline())
    if tokens is None:
        lexer = TextLexer(stripnl=False, ensurenl=False)
        tokens = list(lexer.get_tokens(window))
    out = io.StringIO()
    HtmlFormatter(nowrap=True).format(tokens, out)
    html = _UNSTYLED_SPAN.sub(r"\1", out.getvalue())
    return lexer.name, tuple(html.split("\n"))


def highlight_excerpt(path: str, text: str, first_line: int) -> list[SourceLine]:
    """A few lines of a file (a definition on its symbol page), highlighted as the source view does, numbered from ``first_line``."""
    _, rendered = _highlighted(path, text if text.endswith("\n") else text + "\n")
    count = len(text.split("\n")) - (1 if text.endswith("\n") else 0)
    return [SourceLine(number=first_line + i, html=mark_safe(rendered[i] if i < len(rendered) else ""), cited=False) for i in range(count)]


def render_source(path: str, text: str, cited: tuple[int, int] | None) -> SourceView:
    """Highlight ``text`` and split it into lines, marking the cited range.

    Pygments escapes the source; with ``nowrap`` its HTML formatter closes
    and reopens spans at every newline, so each line is balanced markup.
    """
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    total = len(lines)
    beyond_end = None
    if cited and cited[0] > total:
        # Nothing to mark: the page says so and shows the file's end instead.
        beyond_end, cited = cited, None
    elif cited:
        cited = (cited[0], min(cited[1], total))
    first, last = 1, total
    if total > MAX_RENDERED_LINES:
        centre = cited[0] if cited else (total if beyond_end else 1)
        first = max(1, centre - CONTEXT_LINES)
        # However long the cited range (``?lines=1-999999999``), at most MAX_RENDERED_LINES are rendered.
        last = min(total, (cited[1] if cited else centre) + CONTEXT_LINES, first + MAX_RENDERED_LINES - 1)
    window = "\n".join(lines[first - 1 : last]) + "\n"
    language, rendered = _highlighted(path, window)
    out: list[SourceLine] = []
    for offset in range(last - first + 1):
        number = first + offset
        markup = rendered[offset] if offset < len(rendered) else ""
        is_cited = bool(cited and cited[0] <= number <= cited[1])
        out.append(SourceLine(number=number, html=mark_safe(markup), cited=is_cited))
    return SourceView(
        lines=out, language=language, first=first, last=last, total=total, cited=cited, beyond_end=beyond_end
    )


"""An answer's Markdown while it streams: each finished block is rendered once,
on the server, through the same pipeline as the finished answer; only the
unfinished block is shown as typed.

A block is finished by a blank line outside a code fence, or by the line that
closes a fence (a fence opening also ends the paragraph before it). While a
fence is open, the unfinished block is shown as code in the same box the
rendered block will have, so the answer does not jump when the fence closes.
Rendering a block in isolation can differ from the whole answer's rendering in
details (a loose list split in two, a reference link); the finished answer is
rendered whole and replaces the streamed one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.html import escape

from chat.markdown import render_markdown

_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")


def _opens_fence(line: str) -> str:
    match = _FENCE_OPEN.fullmatch(line)
    if not match:
        return ""
    marker, info = match.groups()
    # A backtick fence's info string has no backtick (CommonMark): "```a```" is inline code.
    if marker[0] == "`" and "`" in info:
        return ""
    return marker


def _closes_fence(line: str, marker: str) -> bool:
    stripped = line.strip()
    indent = len(line) - len(line.lstrip(" "))
    return indent <= 3 and len(stripped) >= len(marker) and set(stripped) == {marker[0]}


@dataclass
class Fed:
    """What one delta changed: finished blocks (Markdown) and whether the unfinished block changed form."""

    blocks: list[str]
    reshaped: bool

    def __bool__(self) -> bool:
        return bool(self.blocks or self.reshaped)


class StreamedMarkdown:
    """Splits streamed text into finished blocks and the unfinished rest."""

    def __init__(self) -> None:
        self._pending: list[str] = []
        # Offsets into the unfinished text: the end of its last whole line, and where an open fence's code starts.
        self._scanned = 0
        self._code_start = 0
        self._fence = ""

    def feed(self, delta: str) -> Fed:
        self._pending.append(delta)
        if "\n" not in delta:
            return Fed([], False)
        text = "".join(self._pending)
        blocks: list[str] = []
        start = 0
        reshaped = False
        while (end := text.find("\n", self._scanned)) >= 0:
            line_start, self._scanned = self._scanned, end + 1
            line = text[line_start:end]
            if self._fence:
                if _closes_fence(line, self._fence):
                    blocks.append(text[start : self._scanned])
                    start, self._fence, reshaped = self._scanned, "", True
            elif marker := _opens_fence(line):
                if text[start:line_start].strip():
                    blocks.append(text[start:line_start])
                start, self._fence, self._code_start, reshaped = line_start, marker, self._scanned, True
            elif not line.strip():
                if text[start : self._scanned].strip():
                    blocks.append(text[start : self._scanned])
                start = self._scanned
        rest = text[start:]
        self._pending = [rest]
        self._scanned -= start
        self._code_start = max(0, self._code_start - start)
        return Fed(blocks, reshaped or bool(blocks))

    @property
    def in_code(self) -> bool:
        return bool(self._fence)

    @property
    def unfinished(self) -> str:
        """The text shown as typed: the open fence's code, or the unfinished block."""
        text = "".join(self._pending)
        return text[self._code_start :] if self._fence else text


def render_blocks(blocks: list[str]) -> str:
    return "".join(render_markdown(block) for block in blocks)


def tail_html(message_id: int, stream: StreamedMarkdown, *, with_text: bool = True) -> str:
    """The unfinished block's element; the answer's text deltas are appended to ``#msg-N-body`` inside it."""
    text = escape(stream.unfinished) if with_text else ""
    if stream.in_code:
        return f'<pre class="highlight"><code id="msg-{message_id}-body" class="stream-tail">{text}</code></pre>'
    return f'<p id="msg-{message_id}-body" class="stream-tail">{text}</p>'


def split_for_page(message_id: int, text: str) -> tuple[str, str]:
    """(rendered finished blocks, unfinished block's element) of an answer's text so far."""
    stream = StreamedMarkdown()
    fed = stream.feed(text)
    return render_blocks(fed.blocks), tail_html(message_id, stream)

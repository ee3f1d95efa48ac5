"""D0 docs: Markdown, reStructuredText and plain text split into sections by headings.

Each section runs from its heading to the line before the next heading of any
level; its title is the heading path (``Install > From source``). Text before
the first heading is a section titled with the file name. Sections longer
than ``LONG_SECTION_LINES`` are cut into overlapping windows that keep the
title, so one huge section does not become one huge chunk.
"""

from __future__ import annotations

import posixpath
import re

from rag.analysis.chunking import window_spans
from rag.analysis.records import Chunk

LONG_SECTION_LINES = 120

_ATX = re.compile(r" {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*")
_SETEXT = re.compile(r" {0,3}(=+|-+)[ \t]*")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")
_RST_ADORNMENT_CHARS = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")

Heading = tuple[int, int, str]
"""(first line of the heading, level, heading text); lines are 1-based."""


def markdown_headings(lines: list[str]) -> list[Heading]:
    headings: list[Heading] = []
    fence: str | None = None
    index = _front_matter_end(lines)
    while index < len(lines):
        line = lines[index]
        fence_match = _FENCE.match(line)
        if fence is not None:
            if fence_match and fence_match.group(1)[0] == fence[0] and len(fence_match.group(1)) >= len(fence):
                if not line.strip().strip(fence[0]):
                    fence = None
            index += 1
            continue
        if fence_match:
            fence = fence_match.group(1)
            index += 1
            continue
        atx = _ATX.fullmatch(line)
        if atx:
            headings.append((index + 1, len(atx.group(1)), (atx.group(2) or "").strip()))
        elif (
            line.strip()
            and index + 1 < len(lines)
            and _SETEXT.fullmatch(lines[index + 1])
            and not line.lstrip().startswith(("-", "*", "+", ">", "|"))
            and (index == 0 or not lines[index - 1].strip() or _ATX.fullmatch(lines[index - 1]))
        ):
            level = 1 if lines[index + 1].strip()[0] == "=" else 2
            headings.append((index + 1, level, line.strip()))
            index += 1
        index += 1
    return headings


def _front_matter_end(lines: list[str]) -> int:
    if lines and lines[0].strip() == "---":
        for index in range(1, min(len(lines), 60)):
            if lines[index].strip() in ("---", "..."):
                return index + 1
    return 0


def _is_adornment(line: str) -> bool:
    stripped = line.rstrip()
    return len(stripped) >= 3 and stripped[0] in _RST_ADORNMENT_CHARS and stripped == stripped[0] * len(stripped)


def rst_headings(lines: list[str]) -> list[Heading]:
    """Underlined (optionally overlined) titles; levels follow the order styles first appear."""
    headings: list[Heading] = []
    styles: list[tuple[str, bool]] = []
    index = 0
    while index + 1 < len(lines):
        title = lines[index]
        underline = lines[index + 1]
        if (
            title.strip()
            and not title[0].isspace()
            and not _is_adornment(title)
            and _is_adornment(underline)
            and len(underline.rstrip()) >= len(title.rstrip())
        ):
            char = underline[0]
            overlined = index > 0 and _is_adornment(lines[index - 1]) and lines[index - 1][0] == char
            style = (char, overlined)
            if style not in styles:
                styles.append(style)
            start = index if overlined else index + 1
            headings.append((start, styles.index(style) + 1, title.strip()))
            index += 2
            continue
        index += 1
    return headings


def doc_chunks(path: str, lines: list[str], language: str) -> list[Chunk]:
    headings = markdown_headings(lines) if language == "markdown" else rst_headings(lines)
    sections: list[tuple[int, int, list[str], int]] = []
    stack: list[tuple[int, str]] = []
    first_heading = headings[0][0] if headings else len(lines) + 1
    if first_heading > 1:
        sections.append((1, first_heading - 1, [posixpath.basename(path)], 0))
    for position, (start, level, text) in enumerate(headings):
        end = headings[position + 1][0] - 1 if position + 1 < len(headings) else len(lines)
        while stack and stack[-1][0] >= level:
            stack.pop()
        stack.append((level, text or posixpath.basename(path)))
        sections.append((start, end, [name for _, name in stack], level))

    chunks: list[Chunk] = []
    for start, end, heading_path, level in sections:
        while start <= end and not lines[start - 1].strip():
            start += 1
        while end >= start and not lines[end - 1].strip():
            end -= 1
        if start > end:
            continue
        title = " > ".join(heading_path)
        spans = window_spans(start, end) if end - start + 1 > LONG_SECTION_LINES else [(start, end)]
        for first, last in spans:
            chunks.append(
                Chunk(
                    layer="D0_DOCS",
                    path=path,
                    start_line=first,
                    end_line=last,
                    content="\n".join(lines[first - 1 : last]),
                    title=title,
                    metadata={
                        "chunk_index": len(chunks),
                        "chunk_type": "section",
                        "module_or_unit": path,
                        "artifact_type": "docs",
                        "heading_path": list(heading_path),
                        "level": level,
                    },
                )
            )
    return chunks

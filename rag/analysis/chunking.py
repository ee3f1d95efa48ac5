"""C0 source chunks: symbol blocks where a parser knows the language, line windows for everything else.

Lines are 1-based and inclusive everywhere. Text is split into lines on
``\\r\\n``, ``\\r`` and ``\\n`` only, the same way Python's tokenizer counts
them, so AST line numbers and chunk spans agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rag.analysis.records import Chunk

WINDOW_LINES = 80
WINDOW_OVERLAP = 15
LARGE_CLASS_LINES = 120
"""Classes longer than this get one chunk per member plus header chunks."""
LONG_BLOCK_LINES = 150
"""A symbol block longer than this (a huge function, a class of attributes) is cut into
windows that keep its title and symbol, so no chunk is too long to embed or read."""


def split_lines(text: str) -> list[str]:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def window_spans(start: int, end: int, size: int = WINDOW_LINES, overlap: int = WINDOW_OVERLAP) -> list[tuple[int, int]]:
    """Windows of ``size`` lines over ``start..end`` where each starts ``size - overlap`` after the last.

    The last window ends at ``end``; no window lies wholly inside the previous one.
    """
    if end < start:
        return []
    step = size - overlap
    spans = []
    first = start
    while True:
        last = min(first + size - 1, end)
        spans.append((first, last))
        if last >= end:
            return spans
        first += step


@dataclass
class Block:
    """A symbol's span for chunking; ``members`` are the methods/classes of a class."""

    start: int
    end: int
    qname: str
    title: str
    members: list[Block] = field(default_factory=list)


# A line that holds no code worth a chunk: blank, punctuation, or a keyword that closes a block or
# only sets the visibility of what follows (``end``, ``private``) with its punctuation.
_NO_CODE_LINE = re.compile(r"[\W_]*+(?:(?:end|private|protected|public|module_function)\b[\W_]*+)?")


def _is_blank(line: str) -> bool:
    return not line.strip()


def _trim(lines: list[str], start: int, end: int) -> tuple[int, int] | None:
    """``start..end`` without blank lines at either edge; None when nothing is left."""
    while start <= end and _is_blank(lines[start - 1]):
        start += 1
    while end >= start and _is_blank(lines[end - 1]):
        end -= 1
    return (start, end) if start <= end else None


class ChunkBuilder:
    """Collects one file's C0 chunks in line order with their shared metadata."""

    def __init__(self, path: str, lines: list[str], unit: str, artifact: str) -> None:
        self.path = path
        self.lines = lines
        self.unit = unit
        self.artifact = artifact
        self.chunks: list[Chunk] = []

    def add_symbol_block(self, start: int, end: int, title: str, symbol: str) -> None:
        if end - start + 1 <= LONG_BLOCK_LINES:
            self.add(start, end, "symbol_block", title, symbol)
            return
        for part, (first, last) in enumerate(window_spans(start, end), start=1):
            self.add(first, last, "symbol_block", title, symbol, part=part)

    def add(
        self, start: int, end: int, chunk_type: str, title: str, symbol: str | None = None, part: int | None = None
    ) -> None:
        metadata: dict[str, object] = {
            "chunk_index": len(self.chunks),
            "chunk_type": chunk_type,
            "module_or_unit": self.unit,
            "artifact_type": self.artifact,
        }
        if symbol is not None:
            metadata["symbol"] = symbol
        if part is not None:
            metadata["part"] = part
        self.chunks.append(
            Chunk(
                layer="C0_SOURCE_CHUNKS",
                path=self.path,
                start_line=start,
                end_line=end,
                content="\n".join(self.lines[start - 1 : end]),
                title=title,
                metadata=metadata,
            )
        )

    def add_windows(self, start: int, end: int, chunk_type: str = "window") -> None:
        for first, last in window_spans(start, end):
            self.add(first, last, chunk_type, f"{self.path}:{first}-{last}")

    def add_gap(self, start: int, end: int, symbol: Block | None = None) -> None:
        """Code between symbols: one chunk, or windows when it is long; gaps of blanks, punctuation
        (the ``)`` closing a group of declarations) and bare keywords (Ruby's ``end`` and ``private``)
        alone give nothing."""
        span = _trim(self.lines, start, end)
        if span is None or all(_NO_CODE_LINE.fullmatch(line) for line in self.lines[span[0] - 1 : span[1]]):
            return
        first, last = span
        if symbol is not None:
            self.add_symbol_block(first, last, symbol.title, symbol.qname)
        elif last - first + 1 > WINDOW_LINES:
            self.add_windows(first, last, "module_block")
        else:
            self.add(first, last, "module_block", f"{self.path}:{first}-{last}")


def window_chunks(path: str, lines: list[str], unit: str, artifact: str) -> list[Chunk]:
    builder = ChunkBuilder(path, lines, unit, artifact)
    span = _trim(lines, 1, len(lines))
    if span is not None:
        builder.add_windows(*span)
    return builder.chunks


def symbol_chunks(path: str, lines: list[str], unit: str, artifact: str, blocks: list[Block]) -> list[Chunk]:
    """One chunk per top-level block, large classes split by member, module code in between."""
    builder = ChunkBuilder(path, lines, unit, artifact)
    cursor = 1
    for block in blocks:
        if block.end < cursor:
            continue  # inside the block before (a method of an object expression a property holds): chunked with it
        # A block's doc comment may start on the line that ends the one before: no line is chunked twice.
        start = max(block.start, cursor)
        builder.add_gap(cursor, start - 1)
        _add_block(builder, block, start)
        cursor = block.end + 1
    builder.add_gap(cursor, len(lines))
    return builder.chunks


# At most this many lines that open a block (``private companion object {``) go with the member below them.
OPENER_LINES = 2


def _opener(lines: list[str], start: int, end: int) -> int | None:
    """The first line of ``start..end`` when its lines, blanks aside, only open blocks (each ends with
    ``{``, at most ``OPENER_LINES`` of them); None otherwise."""
    span = _trim(lines, start, end)
    if span is None:
        return None
    code = [line for line in lines[span[0] - 1 : span[1]] if line.strip()]
    return span[0] if len(code) <= OPENER_LINES and all(line.rstrip().endswith("{") for line in code) else None


def _add_block(builder: ChunkBuilder, block: Block, start: int) -> None:
    """A block as one chunk, or, when it is large and has members, split by member at every depth: a
    class inside a module (Ruby's ``module Sinatra; class Base``) or inside another class is split
    by its own members too, not cut into windows."""
    if not (block.members and block.end - start + 1 > LARGE_CLASS_LINES):
        builder.add_symbol_block(start, block.end, block.title, block.qname)
        return
    inner = start
    for member in block.members:
        if member.end < inner:
            continue  # inside the member before: chunked with it
        member_start = max(member.start, inner)
        opener = _opener(builder.lines, inner, member_start - 1) if inner > start else None
        if opener is not None:
            # A gap that only opens what the member is declared in (Kotlin's ``companion object {``) is read with it.
            member_start = opener
        builder.add_gap(inner, member_start - 1, symbol=block)
        _add_block(builder, member, member_start)
        inner = member.end + 1
    builder.add_gap(inner, block.end, symbol=block)

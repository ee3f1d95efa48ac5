"""Citations: the code spans the agent saw, and the ones its answer actually cites.

Every retrieved item and every file range read during a turn is recorded as a
``Span``. The answer cites code as ``path:start-end`` (or ``path:line``); only
a cited range that overlaps a span the agent really saw becomes a stored
``Citation``, so a made-up path or line range never reaches the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from chat.agent.events import Citation
from rag.tools import Span

# A path ending in a dot-extension that starts with a letter (so ``1.2:3`` is not one), then :start or :start-end. Paths may
# be wrapped in backticks or brackets, so the pattern stops at those.
CITATION_RE = re.compile(
    r"(?<![\w/.-])(?P<path>(?:[\w.-]+/)*[\w.-]+\.[A-Za-z][A-Za-z0-9]*):(?P<start>\d+)(?:\s*[-\u2013]\s*(?P<end>\d+))?"
)


@dataclass(frozen=True)
class CitedRange:
    path: str
    start_line: int
    end_line: int


def parse_cited_ranges(text: str) -> list[CitedRange]:
    """The ``path:start-end`` references in ``text``, in order, without repeats."""
    found: dict[tuple[str, int, int], CitedRange] = {}
    for match in CITATION_RE.finditer(text):
        start = int(match["start"])
        end = int(match["end"]) if match["end"] else start
        if start < 1 or end < start:
            continue
        path = match["path"].removeprefix("./")
        key = (path, start, end)
        found.setdefault(key, CitedRange(path, start, end))
    return list(found.values())


def _same_file(cited: str, seen: str) -> bool:
    # Models sometimes drop a leading folder or add the repository name in front.
    return cited == seen or seen.endswith("/" + cited) or cited.endswith("/" + seen)


def used_citations(answer: str, spans: Iterable[Span]) -> tuple[Citation, ...]:
    """Citations for the ranges the answer cites that overlap a seen span.

    The stored lines are the ones the answer cites (clamped to what was seen);
    layer and score come from the best-scoring overlapping span.
    """
    spans = list(spans)
    citations: list[Citation] = []
    seen_keys: set[tuple[str, int, int]] = set()
    for cited in parse_cited_ranges(answer):
        matching = [
            span for span in spans if _same_file(cited.path, span.path) and span.overlaps(cited.start_line, cited.end_line)
        ]
        if not matching:
            continue
        best = max(matching, key=lambda span: span.score)
        low = min(span.start_line for span in matching)
        high = max(span.end_line for span in matching)
        start, end = max(cited.start_line, low), min(cited.end_line, high)
        key = (best.path, start, end)
        if key in seen_keys:
            continue
        seen_keys.add(key)
        citations.append(Citation(path=best.path, start_line=start, end_line=end, layer=best.layer, score=best.score))
    return tuple(citations)

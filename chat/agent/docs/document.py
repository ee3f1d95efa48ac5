"""The pieces of a generated document and the checks that need no model.

A section is written from numbered sources (spans of indexed files found by
retrieval) and cites code as ``path:start-end``. ``citation_problems`` checks
each citation against the index: the file exists, the lines exist, and the
range overlaps a source the section was written from. ``assemble`` joins the
sections into one Markdown document with its sources listed at the end.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from chat.agent.citing import parse_cited_ranges
from chat.agent.writing import SectionPlan, Source

DocKind = Literal["module", "feature", "repository", "readme", "api_reference"]
DOC_KINDS: tuple[DocKind, ...] = ("module", "feature", "repository", "readme", "api_reference")
KIND_LABELS: dict[str, str] = {
    "module": "module documentation",
    "feature": "feature documentation",
    "repository": "repository overview",
    "readme": "README",
    "api_reference": "API reference",
}

_HEADING = re.compile(r"^(#{1,6})\s++(.*)$")


def _heading(line: str) -> tuple[int, str] | None:
    """The level and title of a Markdown heading line (closing ``#``s dropped), or None.

    The closing run is stripped in Python: as a pattern (``(.*?)\\s*#*\\s*$``) it
    took time quadratic in a long run of spaces.
    """
    match = _HEADING.match(line)
    if match is None:
        return None
    return len(match.group(1)), match.group(2).rstrip().rstrip("#").rstrip()


@dataclass(frozen=True)
class DocsRequest:
    """What the user asked to document. ``target`` is a module, feature or path; empty for the whole repository."""

    kind: DocKind
    target: str = ""
    title: str = ""
    # How the kind was decided ("model" or "keywords") and why, for the trace.
    method: str = "keywords"
    reason: str = ""


@dataclass(frozen=True)
class SectionDraft:
    """One written section. ``problems`` are what the last check found (empty: it passed)."""

    plan: SectionPlan
    body: str
    sources: tuple[Source, ...]
    attempts: int = 1
    problems: tuple[str, ...] = ()
    # Problems that made the section be written again, kept for the summary.
    regenerated_for: tuple[str, ...] = ()


def citation_problems(body: str, sources: Sequence[Source], line_counts: Mapping[str, int]) -> list[str]:
    """What is wrong with the citations of a section, as sentences the model can act on.

    ``line_counts`` maps every indexed path to its number of lines.
    """
    problems: list[str] = []
    cited = parse_cited_ranges(body)
    if not cited:
        if sources:
            problems.append("the section cites no code; cite the lines each statement rests on as path:start-end")
        return problems
    spans = [source.span for source in sources]
    for citation in cited:
        where = f"{citation.path}:{citation.start_line}-{citation.end_line}"
        total = line_counts.get(citation.path)
        if total is None:
            problems.append(f"{where} cites a file that is not in the index; use the paths of the sources exactly")
        elif citation.end_line > total:
            problems.append(f"{where} cites lines past the end of the file, which has {total} lines")
        elif not any(span.path == citation.path and span.overlaps(citation.start_line, citation.end_line) for span in spans):
            problems.append(f"{where} is not within the sources given for this section; cite only lines you were shown")
    return problems


def clean_section_body(body: str, title: str) -> str:
    """The section text without a repeated title, its headings nested below the section's own."""
    lines = body.strip().splitlines()
    if lines:
        heading = _heading(lines[0])
        if heading and heading[1].strip().lower() == title.strip().lower():
            lines = lines[1:]
    nested: list[str] = []
    in_fence = False
    for line in lines:
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
        heading = None if in_fence else _heading(line)
        if heading and heading[0] < 3:
            line = f"### {heading[1]}"
        nested.append(line)
    return "\n".join(nested).strip()


def cited_locations(drafts: Sequence[SectionDraft], line_counts: Mapping[str, int]) -> list[str]:
    """The valid ``path:start-end`` citations of all sections, in order of first use."""
    seen: dict[str, None] = {}
    for draft in drafts:
        for citation in parse_cited_ranges(draft.body):
            total = line_counts.get(citation.path)
            if total is not None and citation.end_line <= total:
                seen.setdefault(f"{citation.path}:{citation.start_line}-{citation.end_line}", None)
    return list(seen)


def assemble(
    title: str, lead: str, drafts: Sequence[SectionDraft], line_counts: Mapping[str, int], *, appendix: str = ""
) -> str:
    """The whole Markdown document: title, lead paragraph, sections, an appendix, sources."""
    parts = [f"# {title}", "", lead.strip(), ""]
    for draft in drafts:
        parts += [f"## {draft.plan.title}", "", clean_section_body(draft.body, draft.plan.title), ""]
        if draft.problems:
            parts += [
                "> **Self-check:** after one rewrite this section may still be inaccurate: "
                + "; ".join(draft.problems),
                "",
            ]
    if appendix:
        parts += [appendix.strip(), ""]
    locations = cited_locations(drafts, line_counts)
    if locations:
        parts += ["## Sources", "", *(f"- `{location}`" for location in locations), ""]
    return "\n".join(parts).rstrip() + "\n"

"""Checks of a section's citations that need no model, and the assembled document."""

from __future__ import annotations

from chat.agent.docs.document import SectionDraft, assemble, citation_problems, clean_section_body
from chat.agent.writing import SectionPlan, Source

LINES = {"pkg/core.py": 40, "README.md": 10}
SOURCES = (Source("S1", "pkg/core.py", 10, 20, "..."),)


def test_citations_of_real_lines_inside_the_sources_pass():
    assert citation_problems("It runs (pkg/core.py:12-14) and stops (pkg/core.py:20).", SOURCES, LINES) == []


def test_each_kind_of_bad_citation_is_named():
    body = "See pkg/other.py:1-2, pkg/core.py:35-45 and pkg/core.py:30-31."

    assert citation_problems(body, SOURCES, LINES) == [
        "pkg/other.py:1-2 cites a file that is not in the index; use the paths of the sources exactly",
        "pkg/core.py:35-45 cites lines past the end of the file, which has 40 lines",
        "pkg/core.py:30-31 is not within the sources given for this section; cite only lines you were shown",
    ]


def test_a_section_with_sources_must_cite_one():
    assert citation_problems("It is fast.", SOURCES, LINES) == [
        "the section cites no code; cite the lines each statement rests on as path:start-end"
    ]
    assert citation_problems("The code shown does not cover this.", (), LINES) == []


def test_a_repeated_title_is_dropped_and_headings_are_nested_below_the_section():
    body = "## Usage\n\nCall it.\n\n# Options\n\n```python\n# not a heading\n```"
    assert clean_section_body(body, "usage") == "Call it.\n\n### Options\n\n```python\n# not a heading\n```"


def test_the_document_lists_its_valid_citations_and_flags_sections_still_failing():
    plan = SectionPlan("Usage", "how to call it", "run")
    good = SectionDraft(plan, "Call `run()` (pkg/core.py:12-14).", SOURCES)
    flagged = SectionDraft(
        SectionPlan("Limits", "", "limits"), "Slow (pkg/core.py:99-100).", SOURCES, problems=("cites past the end",)
    )

    document = assemble("Core", "From the index.", [good, flagged], LINES)

    assert document == (
        "# Core\n\nFrom the index.\n\n## Usage\n\nCall `run()` (pkg/core.py:12-14).\n\n"
        "## Limits\n\nSlow (pkg/core.py:99-100).\n\n"
        "> **Self-check:** after one rewrite this section may still be inaccurate: cites past the end\n\n"
        "## Sources\n\n- `pkg/core.py:12-14`\n"
    )

"""D0 docs: Markdown, reST and text split by headings with line spans."""

from __future__ import annotations

from rag.analysis.repository import analyze_file

MARKDOWN = """\
---
title: Guide
---
Intro before any heading.

# Install

Run this:

```bash
# not a heading
pip install shop
```

## From source
Clone it.

Setext title
============

Body.

Sub title
---------
More.
### Deep ###
Deepest.

# Usage
"""


def sections(path, text):
    return [(c.title, c.start_line, c.end_line, c.metadata["level"]) for c in analyze_file(path, text).chunks]


def test_it_splits_markdown_by_atx_and_setext_headings_outside_code_fences():
    assert sections("docs/guide.md", MARKDOWN) == [
        ("guide.md", 1, 4, 0),
        ("Install", 6, 13, 1),
        ("Install > From source", 15, 16, 2),
        ("Setext title", 18, 21, 1),
        ("Setext title > Sub title", 23, 25, 2),
        ("Setext title > Sub title > Deep", 26, 27, 3),
        ("Usage", 29, 29, 1),
    ]
    chunk = analyze_file("docs/guide.md", MARKDOWN).chunks[1]
    assert chunk.layer == "D0_DOCS"
    assert chunk.content.splitlines()[0] == "# Install"
    assert chunk.metadata == {
        "chunk_index": 1,
        "chunk_type": "section",
        "module_or_unit": "docs/guide.md",
        "artifact_type": "docs",
        "heading_path": ["Install"],
        "level": 1,
    }


def test_it_splits_rest_by_underlined_and_overlined_titles_in_order_of_first_use():
    rst = "=====\nTitle\n=====\n\nLead.\n\nPart\n----\n\nText.\n\nSection\n~~~~~~~\nMore.\n\nOther part\n----------\n\n====  ====\nA     B\n====  ====\n"
    assert sections("index.rst", rst) == [
        ("Title", 1, 5, 1),
        ("Title > Part", 7, 10, 2),
        ("Title > Part > Section", 12, 14, 3),
        ("Title > Other part", 16, 21, 2),
    ]


def test_plain_text_uses_underlined_headings_and_falls_back_to_one_section():
    assert sections("NOTES.txt", "Changes\n=======\n\n1.0 released.\n") == [("Changes", 1, 4, 1)]
    assert sections("LICENSE", "Permission is granted.\n\nNo warranty.\n") == [("LICENSE", 1, 3, 0)]


def test_long_sections_are_windowed_with_their_heading_path():
    text = "# Big\n" + "".join(f"line {n}\n" for n in range(200))
    assert [(t, s, e) for t, s, e, _ in sections("big.md", text)] == [
        ("Big", 1, 80),
        ("Big", 66, 145),
        ("Big", 131, 201),
    ]


def test_docs_with_crlf_tabs_and_nul_bytes_still_split():
    text = "# One\r\n\tindented\r\n\x00\r\n# Two\r\nend\r\n"
    assert sections("odd.md", text) == [("One", 1, 3, 1), ("Two", 4, 5, 1)]
    assert analyze_file("odd.md", text).chunks[0].content == "# One\n\tindented\n\x00"


def test_an_empty_or_blank_document_has_no_sections():
    assert analyze_file("empty.md", "").chunks == []
    assert analyze_file("blank.rst", "\n\n  \n").chunks == []

"""The source view renders a bounded window of a long file, whatever range is asked for."""

from __future__ import annotations

from rag.source_view import CONTEXT_LINES, MAX_RENDERED_LINES, render_source

LONG_FILE = "".join(f"value_{number} = {number}\n" for number in range(1, 20_001))


def test_a_huge_cited_range_renders_at_most_the_window():
    view = render_source("big.py", LONG_FILE, (1, 999_999_999))

    assert len(view.lines) == MAX_RENDERED_LINES
    assert (view.first, view.total) == (1, 20_000)
    assert view.truncated


def test_a_cited_range_in_a_long_file_is_shown_with_its_context():
    view = render_source("big.py", LONG_FILE, (12_000, 12_010))

    assert view.first == 12_000 - CONTEXT_LINES and view.last == 12_010 + CONTEXT_LINES
    assert [line.number for line in view.lines if line.cited] == list(range(12_000, 12_011))
    assert "value_12000" in str(view.lines[CONTEXT_LINES].html)


def test_a_short_file_is_rendered_whole():
    view = render_source("small.py", "a = 1\nb = 2\n", (2, 999_999_999))

    assert [line.number for line in view.lines] == [1, 2] and not view.truncated

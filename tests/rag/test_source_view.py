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


def test_a_range_past_the_end_cites_nothing_and_shows_the_end_of_a_long_file():
    view = render_source("big.py", LONG_FILE, (30_000, 31_000))

    assert view.cited is None and view.beyond_end == (30_000, 31_000)
    assert (view.first, view.last) == (20_000 - CONTEXT_LINES, 20_000)
    assert not any(line.cited for line in view.lines)


def test_a_range_running_past_the_end_is_cut_at_the_last_line():
    view = render_source("small.py", "a = 1\nb = 2\n", (2, 9))

    assert view.cited == (2, 2) and view.beyond_end is None


def test_a_file_whose_highlighting_runs_past_its_time_is_shown_as_plain_text(monkeypatch):
    import rag.highlighting

    # Rust's lexer reads the rest of the text again from every raw string it starts: 600 KB of ``r#"``
    # took minutes. Past the time the same lines come unhighlighted, escaped, one per line.
    text = 'let s = r#"<b>"#;\n' * 300
    assert render_source("src/even.rs", text, None).language == "Rust"
    monkeypatch.setattr(rag.highlighting, "HIGHLIGHT_SECONDS", 0.0)

    view = render_source("src/odd.rs", text, None)

    assert view.language == "Text only" and len(view.lines) == 300
    assert [str(line.html) for line in view.lines[:1]] == ['let s = r#"&lt;b&gt;"#;']

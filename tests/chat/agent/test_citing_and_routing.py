"""Citation parsing and matching, the keyword router and the router's JSON parsing (no database)."""

from __future__ import annotations

import pytest

from chat.agent.citing import CitedRange, Span, parse_cited_ranges, used_citations
from chat.agent.events import Citation
from chat.agent.router import keyword_intent, parse_intent


def test_it_parses_ranges_single_lines_and_ranges_in_markdown():
    text = "See `app/views.py:10-20`, [lib/a.b.py:7](x) and app/views.py:10–20 again; not version 1.2:3."
    assert parse_cited_ranges(text) == [
        CitedRange("app/views.py", 10, 20),
        CitedRange("lib/a.b.py", 7, 7),
    ]


def test_it_ignores_backwards_and_zero_ranges():
    assert parse_cited_ranges("a.py:0 b.py:9-3") == []


def test_only_cited_ranges_that_overlap_a_seen_span_become_citations():
    spans = [
        Span("app/views.py", 10, 30, "C0_SOURCE_CHUNKS", 0.4),
        Span("app/views.py", 12, 18, "C1_SYMBOL_CATALOG", 0.9),
        Span("app/urls.py", 5, 5, "C3_ENTRYPOINTS", 0.2),
    ]
    answer = "Defined at app/views.py:12-15, routed at urls.py:5, not at app/models.py:1-9 nor app/views.py:40-50."
    assert used_citations(answer, spans) == (
        Citation("app/views.py", 12, 15, "C1_SYMBOL_CATALOG", 0.9),
        Citation("app/urls.py", 5, 5, "C3_ENTRYPOINTS", 0.2),
    )


def test_a_citation_is_clamped_to_the_lines_that_were_seen():
    spans = [Span("a.py", 10, 20, "file", 0.0)]
    assert used_citations("a.py:5-25", spans) == (Citation("a.py", 10, 20, "file", 0.0),)


@pytest.mark.parametrize(
    ("text", "has_repository", "intent"),
    [
        ("where is the login view defined?", True, "project_qa"),
        ("what does CheckoutService.place_order do", True, "project_qa"),
        ("Which test checks how a map is serialized?", True, "project_qa"),
        ("Which tests cover the checkout?", True, "project_qa"),
        ("What commands does the CLI have?", True, "project_qa"),
        ("hello there!", True, "general"),
        ("Thank you for the help!", True, "general"),
        ("How is a date string parsed?", True, "project_qa"),
        ("How are null values serialized?", True, "project_qa"),
        ("How is a date string parsed?", False, "general"),
        ("where is the login view defined?", False, "general"),
        ("Write a README for this project", True, "docs"),
        ("Please fix the tax rounding bug", True, "edits"),
        ("Rename compute_tax to tax_for", False, "edits"),
        ("Change GetItemById to return NotFound when the id is negative", True, "edits"),
        ("Please remove the retry loop from the client", True, "edits"),
        ("Add a --verbose option", True, "edits"),
        ("Update the README with the new install steps", True, "docs"),
        ("Make sure I understand: how is the tax computed?", True, "project_qa"),
        ("Use of the cache: where is it read?", True, "project_qa"),
        ("Change the docs to mention Python 3.12", True, "docs"),
    ],
)
def test_the_keyword_router(text, has_repository, intent):
    assert keyword_intent(text, has_repository=has_repository).intent == intent


def test_the_router_accepts_fenced_json_and_rejects_everything_else():
    assert parse_intent('```json\n{"intent": "docs", "reason": "asks for a guide"}\n```') == ("docs", "asks for a guide")
    with pytest.raises(ValueError, match="not valid JSON"):
        parse_intent("project_qa")
    with pytest.raises(ValueError, match="does not follow the schema"):
        parse_intent('{"intent": "chitchat"}')

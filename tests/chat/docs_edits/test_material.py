"""What documents are written from: capped inputs chosen by retrieval, and the sections' sources."""

from __future__ import annotations

import pytest

from chat.agent.docs.material import CATALOG_CHARS, module_catalog_summary, policy_text
from chat.agent.writing import SectionPlan, open_index, section_sources

pytestmark = pytest.mark.django_db

STYLE_RULES = "Write docstrings in the imperative mood. Keep every line under 100 characters.\n"


def test_the_catalog_summary_keeps_whole_lines_of_the_most_relevant_modules_within_its_cap(shopapp):
    view = open_index(shopapp)

    full = module_catalog_summary(view, "discount codes and tax")
    capped = module_catalog_summary(view, "discount codes and tax", cap=400)

    assert len(full) <= CATALOG_CHARS and "more modules not listed" not in full
    assert full.splitlines()[0].startswith("- src/shopapp/pricing.py (shopapp.pricing): functions compute_tax, apply_discount")
    lines = capped.splitlines()
    assert len(capped) <= 400
    assert lines[0] == full.splitlines()[0]
    # Whole module lines only, then how many were left out.
    assert lines[:-1] == full.splitlines()[: len(lines) - 1]
    left_out = len(full.splitlines()) - (len(lines) - 1)
    assert lines[-1] == f"- ... {left_out} more modules not listed"


def test_the_policy_text_is_whole_convention_sections_within_its_cap(index_files):
    long_section = "## Everything else\n\n" + "Details that do not fit. " * 200 + "\n"
    repository = index_files(
        {
            "pkg/core.py": '"""Core."""\n\n\ndef run():\n    return 1\n',
            "CONTRIBUTING.md": (
                "# Contributing\n\n## Documentation style\n\n" + STYLE_RULES + "\n" + long_section
            ),
            "README.md": "# Pkg\n\nA package with a documentation style of its own.\n",
        },
        "policies",
    )
    view = open_index(repository)

    policy = policy_text(view, "document the core module", cap=600)

    assert STYLE_RULES.strip() in policy
    assert "Details that do not fit" not in policy
    assert "A package with a documentation style" not in policy
    assert len(policy) <= 600


def test_a_sections_sources_are_numbered_spans_read_from_the_indexed_file(shopapp):
    view = open_index(shopapp)

    sources = section_sources(view, SectionPlan("Taxes", "how tax is computed", "compute_tax TAX_RATE"), paths=["src/shopapp/pricing.py"])

    assert [s.label for s in sources] == [f"S{n}" for n in range(1, len(sources) + 1)]
    first = sources[0]
    assert (first.path, first.start_line, first.end_line) == ("src/shopapp/pricing.py", 10, 11)
    assert first.text == "def compute_tax(amount_cents: int) -> int:\n    return round(amount_cents * TAX_RATE)"
    for source in sources:
        assert source.end_line - source.start_line + 1 == len(source.text.splitlines())

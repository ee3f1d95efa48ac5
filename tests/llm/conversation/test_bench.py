"""The long-dialog benchmark runs every mode through the real manager and adapter, and reports them."""

from __future__ import annotations

import pytest

from llm.benchmarks.dialog import MODES, format_report, run_benchmark
from llm.conversation.store import ConversationSummary

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_benchmark_measures_every_turn_of_every_mode_and_cleans_up():
    figures = {"turns": 40, "runs": 1, "window": 2000, "first_token_ms": 2.0, "summary_ms": 20.0}
    report = run_benchmark(**figures)

    assert report.checkpoints == (10,)
    for mode in MODES:
        assert len(report.runs[mode][0].ttfc_ms) == 40
    assert report.runs["dual"][0].handovers >= 1
    # Summarizing the overflow before every request calls the summarization model far more often.
    assert report.runs["rolling"][0].summaries_made > 2 * report.runs["dual"][0].summaries_made
    text = format_report(report, **figures)
    assert all(mode in text for mode in MODES)
    assert not ConversationSummary.objects.exists()

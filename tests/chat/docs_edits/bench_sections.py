"""Benchmark: how long a document takes when its sections are written one by one or a few at a time.

Not part of the suite (the file name does not start with ``test_``). Run it with::

    .venv/bin/python -m pytest tests/chat/docs_edits/bench_sections.py -q -s

(``DOCS_BENCH_SECTIONS``, ``DOCS_BENCH_DELAY`` and ``DOCS_BENCH_RUNS`` in the
environment change the defaults: 6 sections, 0.3 s, 3 runs.) The docs graph
runs on the indexed shopapp fixture against the local fake model, which
answers every call after the delay (a stand-in for a model's latency). Each
concurrency setting runs that many times; the command
prints the median wall time per setting, the number of model calls, and the
ratio against writing one section at a time measured in the same run.
"""

from __future__ import annotations

import json
import os
import statistics
import time

import pytest

from chat.agent.docs import DOCS_GRAPH
from chat.agent.docs import graph as docs_graph
from tests.chat.docs_edits.conftest import Reply, artifacts, run_graph

PRICING = "src/shopapp/pricing.py"


def writer(sections: int, delay: float):
    plan = {
        "title": "Pricing",
        "sections": [
            {"heading": f"Part{n}", "purpose": "taxes", "query": "compute_tax", "paths": [PRICING]}
            for n in range(1, sections + 1)
        ],
    }

    def answer(request) -> Reply:
        text = request.json["messages"][-1]["content"]
        if text.startswith("Repository:"):
            body = json.dumps({"kind": "module", "target": PRICING, "title": "Pricing"})
        elif text.startswith("The user's request:"):
            body = json.dumps(plan if "Plan at most" in text else {"audience": "developers"})
        elif text.startswith("Document:"):
            body = f"`compute_tax` rounds the amount times the rate ({PRICING}:10-11)."
        elif text.startswith("Section:"):
            body = json.dumps({"ok": True, "issues": []})
        else:
            body = "Written."
        return Reply.text(body, delay=delay)

    return answer


@pytest.mark.django_db
def test_bench_section_concurrency(shopapp, model, monkeypatch):
    sections = int(os.environ.get("DOCS_BENCH_SECTIONS", 6))
    delay = float(os.environ.get("DOCS_BENCH_DELAY", 0.3))
    runs = int(os.environ.get("DOCS_BENCH_RUNS", 3))
    figures: dict[int, list[float]] = {}
    calls: dict[int, int] = {}
    model.fallback = writer(sections, delay)
    for concurrency in (1, docs_graph.SECTION_CONCURRENCY):
        monkeypatch.setattr(docs_graph, "SECTION_CONCURRENCY", concurrency)
        figures[concurrency] = []
        for _ in range(runs):
            before = len(model.chat_requests)
            started = time.perf_counter()
            final, events = run_graph(DOCS_GRAPH, "Document the pricing module", shopapp)
            figures[concurrency].append(time.perf_counter() - started)
            calls[concurrency] = len(model.chat_requests) - before
            assert len(artifacts(events)) == 1
    baseline = statistics.median(figures[1])
    print(f"\ndocs graph, {sections} sections, every model call answered after {delay:.2f} s, {runs} runs each")
    print(f"{'sections at a time':>20} {'model calls':>12} {'median s':>10} {'vs one at a time':>18}")
    for concurrency, times in figures.items():
        median = statistics.median(times)
        print(f"{concurrency:>20} {calls[concurrency]:>12} {median:>10.2f} {median / baseline:>17.2f}x")

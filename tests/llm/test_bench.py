"""The streaming benchmark command runs end to end and prints its figures."""

from __future__ import annotations

import re
from io import StringIO

from django.core.management import call_command


def test_bench_llm_stream_prints_rates_delays_and_the_ratio():
    out = StringIO()
    call_command("bench_llm_stream", chunks=200, runs=1, paced_chunks=20, interval_ms=1, stdout=out)
    printed = out.getvalue()
    rates = {name: float(value.replace(",", "")) for name, value in re.findall(r"(raw httpx lines \+ json\.loads|adapter stream \(OpenAI\)|parser alone \(no network\))\s+([\d,]+) events/s", printed)}
    assert len(rates) == 3 and all(rate > 0 for rate in rates.values())
    assert re.search(r"adapter / raw\s+\d+\.\d\d", printed)
    assert len(re.findall(r"median\s+\d+\.\d+ ms\s+p95\s+\d+\.\d+ ms", printed)) == 2

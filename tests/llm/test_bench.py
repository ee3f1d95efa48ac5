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


def test_bench_llm_stream_prints_the_cpu_per_chunk_of_paced_readers_both_ways_and_their_ratio():
    out = StringIO()
    call_command("bench_llm_stream", runs=1, paced_chunks=6, interval_ms=5, paced_streams=4, pace_ms=15, stdout=out)
    printed = out.getvalue()
    figures = re.findall(r"(read as chunks arrive|left unread between reads)\s+median\s+(\d+\.\d) us CPU per chunk", printed)
    assert [name for name, _ in figures] == ["read as chunks arrive", "left unread between reads"]
    assert all(float(value) > 0 for _, value in figures)
    assert re.search(r"unread between / as they come\s+\d+\.\d\d", printed)

"""Print the streaming adapter's own overhead against raw httpx on the same local upstream."""

from __future__ import annotations

import asyncio

from django.core.management.base import BaseCommand

from llm.benchmarks import stream as bench


class Command(BaseCommand):
    help = "Measure events/s and chunk-to-event delay of the OpenAI-compatible adapter against raw httpx (loopback only)."

    def add_arguments(self, parser):
        parser.add_argument("--chunks", type=int, default=5000, help="chunks per throughput stream")
        parser.add_argument("--runs", type=int, default=5, help="throughput runs per reader (the median is printed)")
        parser.add_argument("--paced-chunks", type=int, default=200, help="chunks per latency stream")
        parser.add_argument("--interval-ms", type=float, default=5.0, help="pause between paced chunks")

    def handle(self, *args, chunks: int, runs: int, paced_chunks: int, interval_ms: float, **options):
        interval = interval_ms / 1000
        figures = asyncio.run(bench.measure(chunks=chunks, runs=runs, paced_chunks=paced_chunks, interval=interval))
        self.stdout.write(bench.report(figures, chunks=chunks, runs=runs, paced_chunks=paced_chunks, interval=interval))

"""Print time to first chunk at turns 10, 100 and 300 of a long dialog, with and without the background warm-up."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from llm.benchmarks.dialog import format_report, run_benchmark


class Command(BaseCommand):
    help = (
        "Time to first chunk over a scripted dialog against a fixed-latency fake model: the dual-context "
        "handover against summarizing on the critical path, measured in the same run."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--turns", type=int, default=300)
        parser.add_argument("--runs", type=int, default=3, help="Dialogs per mode; figures are medians over runs.")
        parser.add_argument("--window", type=int, default=8000, help="The fake model's context window in tokens.")
        parser.add_argument("--first-token-ms", type=float, default=40.0, help="Main model latency to its first token.")
        parser.add_argument("--summary-ms", type=float, default=250.0, help="Summarization model latency.")

    def handle(self, *args, **options) -> None:
        figures = {key: options[key] for key in ("turns", "runs", "window", "first_token_ms", "summary_ms")}
        report = run_benchmark(**figures)
        self.stdout.write(format_report(report, **figures))

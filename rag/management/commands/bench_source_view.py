"""python manage.py bench_source_view [--lines 5000] [--runs 7]"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from database_pool.first_run import prepare_database
from rag.benchmarks.source_view import format_rows, run_source_view_bench


class Command(BaseCommand):
    help = "Time to first byte and bytes on the wire of the source view of a long file, through the product's web server."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--lines", type=int, default=5000, help="lines of the generated file (default 5000)")
        parser.add_argument("--runs", type=int, default=7, help="fetches of each page (default 7; the median is shown)")

    def handle(self, *args, lines: int, runs: int, **options) -> None:
        if lines < 1 or runs < 1:
            raise CommandError("--lines and --runs must be at least 1")
        prepare_database(self.stdout)
        self.stdout.write(format_rows(run_source_view_bench(lines=lines, runs=runs), lines))

"""python manage.py bench_versions [--path DIR] [--runs 3] [--keep 5] [--queries 100] [--no-large]"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from database_pool.first_run import prepare_database
from rag.benchmarks import index
from rag.benchmarks import versions as benchmark


class Command(BaseCommand):
    help = (
        "What a new version of a git repository costs: one-file commits (sync start to searchable) on a tree and on "
        "the same tree four times over, a commit touching a tenth of the files against the full build, and retrieval "
        "latency with versions kept against a store built whole."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("--path", default=None, help="directory to follow (default: the installed django package)")
        parser.add_argument("--runs", type=int, default=3, help="one-file commits per tree (default 3)")
        parser.add_argument("--keep", type=int, default=5, help="superseded versions kept (default 5)")
        parser.add_argument("--queries", type=int, default=100, help="retrieval queries (0: no latency figures)")
        parser.add_argument("--no-large", action="store_true", help="leave out the tree four times over")

    def handle(self, *args, path: str | None, runs: int, keep: int, queries: int, no_large: bool, **options) -> None:
        prepare_database(self.stdout)
        tree = Path(path) if path else index.django_tree()
        if not tree.is_dir():
            raise CommandError(f"{tree} is not a directory")
        try:
            benchmark.run_benchmark(tree, self.stdout.write, runs=max(runs, 1), keep=keep, queries=queries, large=not no_large)
        except benchmark.BenchmarkError as exc:
            raise CommandError(str(exc)) from exc

"""``python manage.py bench_mcp [--path DIR] [--queries N]``: what MCP adds to ``search_code`` (agentsite/benchmarks/mcp.py)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from agentsite.benchmarks import mcp
from rag.benchmarks import index as benchmark
from rag.services import delete_repository


class Command(BaseCommand):
    help = "Index a tree (default: the installed django package) and time search_code over MCP against in-process."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--path", default=None, help="directory to index (default: the installed django package)")
        parser.add_argument("--name", default="bench-mcp-django")
        parser.add_argument("--queries", type=int, default=200)
        parser.add_argument("--port", type=int, default=8765, help="port of the web process the benchmark starts")
        parser.add_argument("--keep", action="store_true", help="keep the benchmark repository afterwards")

    def handle(self, *args, path: str | None, name: str, queries: int, port: int, keep: bool, **options) -> None:
        tree = Path(path) if path else benchmark.django_tree()
        indexed = benchmark.index_tree(tree, name)
        run = indexed.run
        self.stdout.write(f"indexed {tree.name}: {run.counts.get('files', 0)} files in {indexed.wall_seconds:.1f} s")
        try:
            figures = mcp.measure(run.repository, benchmark.bench_queries(run, queries), port)
            for line in figures.lines():
                self.stdout.write(line)
        finally:
            if not keep:
                delete_repository(run.repository)

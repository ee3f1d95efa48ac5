"""python manage.py bench_index [--path DIR] [--queries 200] [--issue-texts DATASET.jsonl [--issue-repo NAME]] [--keep] [--reindex] [--incremental [--runs 3] [--changed 3]]"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from database_pool.first_run import prepare_database
from rag.benchmarks import index as benchmark


class Command(BaseCommand):
    help = "Index a real tree (default: the installed Django package) and print indexing and retrieval figures."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--path", default=None, help="directory to index (default: the installed django package)")
        parser.add_argument("--name", default="bench-django")
        parser.add_argument("--queries", type=int, default=200)
        parser.add_argument(
            "--issue-texts", default=None,
            help="also time issue-length queries: the first --queries issue texts (query) of this JSON-lines dataset, "
            "searched as the agent's search tool does (files ranked from its item depth)",
        )
        parser.add_argument("--issue-repo", default="", help="only issue texts of repositories whose name holds this")
        parser.add_argument("--keep", action="store_true", help="keep the benchmark repository afterwards")
        parser.add_argument("--reindex", action="store_true", help="also time a reindex of the unchanged tree")
        parser.add_argument(
            "--incremental", action="store_true",
            help="also time new versions of the tree with a few files changed (median, and ratio to the full build)",
        )
        parser.add_argument("--runs", type=int, default=3, help="incremental versions to time (default 3)")
        parser.add_argument("--changed", type=int, default=3, help="Python files changed in each incremental version")

    def handle(
        self, *args, path: str | None, name: str, queries: int, keep: bool, reindex: bool, incremental: bool,
        runs: int, changed: int, issue_texts: str | None, issue_repo: str, **options,
    ) -> None:
        prepare_database(self.stdout)
        texts: list[str] = []
        if issue_texts:
            try:
                texts = benchmark.issue_texts(Path(issue_texts), queries, issue_repo)
            except (OSError, ValueError) as exc:
                raise CommandError(f"cannot read issue texts from {issue_texts}: {exc}") from exc
            if not texts:
                raise CommandError(f"no issue text in {issue_texts}" + (f" of a repository named like {issue_repo!r}" if issue_repo else ""))
        tree = Path(path) if path else benchmark.django_tree()
        if not tree.is_dir():
            raise CommandError(f"{tree} is not a directory")
        try:
            benchmark.run_benchmark(
                tree, name, self.stdout.write, queries=queries, texts=texts, keep=keep, reindex=reindex,
                incremental=incremental, runs=runs, changed=changed,
            )
        except benchmark.BenchmarkError as exc:
            raise CommandError(str(exc)) from exc

"""``manage.py bench_offline_answers DATASET --mirrors DIR``: does the answer without a model point at the fix's files?"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from chat.benchmarks.offline_answers import answer_hits, format_report
from rag.evaluation.dataset import DatasetError, load_dataset, select_instances


class Command(BaseCommand):
    help = (
        "Ask each issue's title of its repository at the issue's commit, as a chat without a model answers it, and "
        "print how often the best match, a named definition and the first span worth reading are in a file the fix changed."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("dataset", help="JSON lines as rag_eval reads them")
        parser.add_argument("--mirrors", required=True, help="folder with one git mirror per 'mirror' value")
        parser.add_argument("--repos", default="", help="comma-separated repositories (owner/name or name)")
        parser.add_argument("--limit", type=int, default=None, help="at most this many instances")
        parser.add_argument("--keep", action="store_true", help="search versions kept by rag_eval --keep instead of indexing")

    def handle(self, *args, dataset: str, mirrors: str, repos: str, limit: int | None, keep: bool, **options) -> None:
        try:
            instances = select_instances(load_dataset(dataset), repos=repos.split(","), limit=limit)
        except (OSError, DatasetError) as exc:
            raise CommandError(str(exc)) from exc
        if not instances:
            raise CommandError("no instance matches")
        hits = answer_hits(instances, mirrors, keep=keep, out=lambda line: self.stdout.write(line) if options["verbosity"] > 1 else None)
        self.stdout.write(format_report(hits))

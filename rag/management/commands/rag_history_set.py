"""``manage.py rag_history_set --mirrors DIR MIRROR... --out SET.jsonl``: a localization set from commits."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from rag.evaluation.history import HistoryRules, history_instances
from rag.evaluation.snapshots import SnapshotError, resolve_mirror


class Command(BaseCommand):
    help = (
        "Write a dataset for rag_eval from repositories' own commits: each message of ten words or more as the "
        "query, the non-test source files it changed as the gold, its parent as the snapshot."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("mirror", nargs="+", help="a folder of --mirrors (owner+name), one per repository")
        parser.add_argument("--mirrors", required=True, help="folder with one git mirror per repository (bare, or with a repo/ subfolder)")
        parser.add_argument("--out", required=True, help="the dataset to write (JSON lines)")
        parser.add_argument("--per-repository", type=int, default=HistoryRules.per_repository, help="commits drawn from each (default %(default)s)")
        parser.add_argument("--commits", type=int, default=HistoryRules.commits, help="the newest commits read from each (default %(default)s)")
        parser.add_argument("--seed", type=int, default=0, help="which commits are drawn (default 0)")

    def handle(self, *args, mirror: list[str], mirrors: str, out: str, per_repository: int, commits: int, seed: int, **options) -> None:
        if per_repository < 1 or commits < 1:
            raise CommandError("--per-repository and --commits must be at least 1")
        rules = HistoryRules(commits=commits, per_repository=per_repository, seed=seed)
        written = 0
        with open(out, "w", encoding="utf-8") as dataset:
            for name in mirror:
                try:
                    instances = history_instances(resolve_mirror(mirrors, name), name, name.replace("+", "/"), rules)
                except SnapshotError as exc:
                    raise CommandError(str(exc)) from exc
                for instance in instances:
                    dataset.write(json.dumps(instance) + "\n")
                written += len(instances)
                self.stdout.write(f"{name}: {len(instances)} commits")
        self.stdout.write(f"{written} instances written to {out}")

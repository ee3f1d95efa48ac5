"""python manage.py bench_vector_recall DATASET.jsonl [--limit N]"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from rag.benchmarks.vector_recall import lines, measure
from rag.evaluation.dataset import DatasetError, load_dataset


class Command(BaseCommand):
    help = (
        "Search each instance's issue text in the evaluation's kept version of its snapshot (rag_eval --keep) "
        "by the HNSW list as configured, by the vector channel, and exactly; print the recall and time of each."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("dataset", help="JSON lines, as rag_eval reads them")
        parser.add_argument("--limit", type=int, default=0, help="at most this many instances (0: all)")

    def handle(self, *args, dataset: str, limit: int, **options) -> None:
        try:
            instances = load_dataset(dataset)
        except (OSError, DatasetError) as exc:
            raise CommandError(str(exc)) from exc
        for line in lines(measure(instances[:limit] if limit > 0 else instances)):
            self.stdout.write(line)

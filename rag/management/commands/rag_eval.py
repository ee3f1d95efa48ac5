"""``manage.py rag_eval DATASET.jsonl --mirrors DIR``: file-level retrieval quality on a localization dataset."""

from __future__ import annotations

import sys
from collections import Counter

from django.core.management.base import BaseCommand, CommandError

from database_pool.first_run import prepare_database
from rag.evaluation.candidates import DEFAULT_CANDIDATE, CandidateError, load_candidates
from rag.evaluation.crossval import CrossValidationError, assign_folds, cross_validate, fold_count
from rag.evaluation.dataset import DatasetError, load_dataset, select_instances
from rag.evaluation.report import cross_validation_table, summary_table, timing_summary, write_features, write_records
from rag.evaluation.runner import EvaluationError, InstanceResult, evaluate


class Command(BaseCommand):
    help = (
        "Index each instance's repository at its base commit through the product's indexing, run the issue text "
        "through retrieval, and print file-level Acc@1/3/5/10 and MRR overall and per repository."
    )

    def add_arguments(self, parser):
        parser.add_argument("dataset", help="JSON lines: instance_id, repo, base_commit, query, gold_files, mirror")
        parser.add_argument("--mirrors", required=True, help="folder with one git mirror per 'mirror' value (bare, or with a repo/ subfolder)")
        parser.add_argument("--baseline", choices=["bm25"], help="also rank whole files with BM25 on the same snapshots")
        parser.add_argument("--repos", default="", help="comma-separated repositories (owner/name or name)")
        parser.add_argument("--instances", default="", help="comma-separated instance ids")
        parser.add_argument("--limit", type=int, help="at most this many instances (after the filters, in id order)")
        parser.add_argument("--out", help="write one JSON line per instance to this file")
        parser.add_argument(
            "--features", help="write each instance's candidate files with the file ranker's features to this file "
            "(JSON lines, for rag_train_ranker)",
        )
        parser.add_argument(
            "--keep", action="store_true",
            help="keep the index versions for later runs and search the kept version of a snapshot instead of "
            "indexing it again (needs RAG_KEEP_SUPERSEDED at least the snapshots per repository)",
        )
        parser.add_argument(
            "--cv", help="cross-validation by repository: a number of folds, or loo (one repository per fold)"
        )
        parser.add_argument(
            "--candidates", help="JSON file of ranking configurations to choose among per fold (needs --cv): "
            'a grid {"field": [values]} or a list of {"name": ..., "field": value}',
        )

    def handle(self, *args, **options):
        if options["limit"] is not None and options["limit"] < 1:
            raise CommandError("--limit must be at least 1")
        prepare_database(self.stdout)
        try:
            instances = select_instances(
                load_dataset(options["dataset"]),
                repos=options["repos"].split(","),
                instance_ids=options["instances"].split(","),
                limit=options["limit"],
            )
        except DatasetError as exc:
            raise CommandError(str(exc)) from exc
        if not instances:
            raise CommandError("no instance matches the filters")
        if options["candidates"] and not options["cv"]:
            raise CommandError(
                "--candidates needs --cv: a configuration chosen on the instances it is scored on is not held out"
            )
        try:
            folds = fold_count(options["cv"]) if options["cv"] else None
            candidates = load_candidates(options["candidates"]) if options["candidates"] else [DEFAULT_CANDIDATE]
            if options["cv"]:
                # Refused before any indexing rather than after it.
                assign_folds(Counter(instance.repo for instance in instances), folds)
        except (CrossValidationError, CandidateError) as exc:
            raise CommandError(str(exc)) from exc

        done = 0

        def progress(result: InstanceResult) -> None:
            nonlocal done
            done += 1
            ranked = result.ranked()
            status = result.error or f"gold rank {ranked.all_gold_rank or '-'}"
            if result.reused_version:
                status += " (kept index version)"
            if result.stage_seconds:
                stages = ", ".join(f"{stage} {seconds:.1f}" for stage, seconds in result.stage_seconds)
                status += f" (index s: {stages}; reused {result.files_unchanged}/{result.files_total} files)"
            sys.stderr.write(f"[{done}/{len(instances)}] {result.instance.instance_id}: {status}\n")

        try:
            results = evaluate(
                instances, options["mirrors"], baseline=options["baseline"], candidates=candidates,
                keep=options["keep"], features=bool(options["features"]), on_result=progress,
            )
        except EvaluationError as exc:
            raise CommandError(str(exc)) from exc
        if options["out"]:
            with open(options["out"], "w", encoding="utf-8") as out:
                write_records(results, out)
        if options["features"]:
            with open(options["features"], "w", encoding="utf-8") as out:
                write_features(results, out)
        self.stdout.write(summary_table(results))
        if options["cv"]:
            report = cross_validate(results, [candidate.name for candidate in candidates], folds)
            self.stdout.write("\n" + cross_validation_table(report, len(candidates)))
        sys.stderr.write(timing_summary(results) + "\n")

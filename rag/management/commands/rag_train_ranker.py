"""``manage.py rag_train_ranker FEATURES.jsonl ...``: held-out figures of the learned file ranking, and its model file."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from rag.evaluation.crossval import CrossValidationError, fold_count
from rag.evaluation.learning import L2, LearningError, cross_validate, fit, load_queries
from rag.evaluation.report import learned_ranking_table


class Command(BaseCommand):
    help = (
        "Cross-validate the learned file ranking by repository on the candidate rows of rag_eval --features "
        "(every file given, e.g. both evaluation sets), print the held-out figures beside the fused ranking's, "
        "and with --out fit the model on all of them."
    )

    def add_arguments(self, parser):
        parser.add_argument("features", nargs="+", help="JSON lines written by rag_eval --features")
        parser.add_argument("--cv", default="loo", help="a number of folds, or loo (one repository per fold; the default)")
        parser.add_argument("--l2", type=float, default=L2, help=f"L2 penalty on the standardised weights (default {L2})")
        parser.add_argument("--out", help="write the model fitted on every instance to this file (rag/services/file_ranker.json)")

    def handle(self, *args, **options):
        try:
            queries = load_queries(options["features"])
            folds = cross_validate(queries, fold_count(options["cv"]), options["l2"])
        except (LearningError, CrossValidationError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(learned_ranking_table(folds))
        if options["out"]:
            repositories = sorted({q.repo for q in queries})
            described = f"{len(queries)} instances of {len(repositories)} repositories, L2 {options['l2']}"
            model = fit(queries, options["l2"], trained_on=described)
            with open(options["out"], "w", encoding="utf-8") as out:
                json.dump(model.as_json(), out, indent=1)
                out.write("\n")
            self.stdout.write(f"\nmodel written to {options['out']} ({described})")

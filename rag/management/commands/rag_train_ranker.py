"""``manage.py rag_train_ranker FEATURES.jsonl ...``: held-out figures of the learned file ranking, and its model file."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from rag.evaluation.crossval import SELECTION_CRITERION, CrossValidationError, fold_count
from rag.evaluation.learning import GRID, LOSSES, LearningError, Method, choose_method, cross_validate, fit, load_queries
from rag.evaluation.report import learned_ranking_table
from rag.services.file_ranker import RELATIVE_VIEWS


class Command(BaseCommand):
    help = (
        "Cross-validate the learned file ranking by repository on the candidate rows of rag_eval --features "
        "(every file given, e.g. both evaluation sets), print the held-out figures beside the fused ranking's, "
        "and with --out fit the model on all of them. The method (loss, relative view, L2, rounds of boosted trees) "
        "is the one given (default pointwise, none, 0.05, no trees); with --choose it is chosen inside each fold, from the methods of the grid "
        "that agree with those given, by cross-validation on the fold's training repositories alone."
    )

    def add_arguments(self, parser):
        parser.add_argument("features", nargs="+", help="JSON lines written by rag_eval --features")
        parser.add_argument("--cv", default="loo", help="a number of folds, or loo (one repository per fold; the default)")
        parser.add_argument("--inner-cv", default="loo", help="the folds that choose the method inside each fold (default loo)")
        parser.add_argument("--loss", choices=LOSSES, help="the loss (default pointwise)")
        parser.add_argument("--relative", choices=tuple(RELATIVE_VIEWS), help="the query-relative view of the features (default none)")
        parser.add_argument("--l2", type=float, help="the L2 penalty on the standardised weights (default 0.05)")
        parser.add_argument(
            "--trees", type=int, help="rounds of boosted trees (LambdaMART) blended with the linear model (default 0: none)"
        )
        parser.add_argument(
            "--choose", action="store_true",
            help="choose the method by nested cross-validation from the grid's methods that agree with those given",
        )
        parser.add_argument("--out", help="write the model fitted on every instance to this file (rag/services/file_ranker.json)")

    def handle(self, *args, **options):
        given = {key: options[key] for key in ("loss", "relative", "l2", "trees") if options[key] is not None}
        grid = [m for m in GRID if all(getattr(m, key) == value for key, value in given.items())]
        try:
            fixed = None if options["choose"] else Method(**given)
            if not (fixed or grid):
                raise LearningError(f"no method of the grid has {given}")
            queries = load_queries(options["features"])
            folds, inner = fold_count(options["cv"]), fold_count(options["inner_cv"])
            results = cross_validate(queries, folds, fixed, grid, inner_folds=inner)
            if options["out"]:
                method = fixed or choose_method(queries, grid, inner)[0]
        except (LearningError, CrossValidationError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(learned_ranking_table(results))
        if fixed:
            self.stdout.write(f"\nEvery fold fitted with: {fixed}.")
        else:
            self.stdout.write(
                f"\nMethod of each fold, chosen from {len(grid)} by cross-validation on its training repositories "
                f"({SELECTION_CRITERION}):"
            )
            for result in results:
                self.stdout.write(f"- fold {result.number} ({', '.join(result.held_out)}): {result.method}")
        if options["out"]:
            repositories = sorted({q.repo for q in queries})
            chosen = "given" if fixed else f"chosen from {len(grid)} by cross-validation by repository ({options['inner_cv']})"
            described = f"{len(queries)} instances of {len(repositories)} repositories; {method} ({chosen})"
            model = fit(queries, method, trained_on=described)
            with open(options["out"], "w", encoding="utf-8") as out:
                json.dump(model.as_json(), out, indent=1)
                out.write("\n")
            self.stdout.write(f"\nmodel written to {options['out']} ({described})")

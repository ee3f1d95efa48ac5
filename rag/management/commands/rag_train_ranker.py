"""``manage.py rag_train_ranker FEATURES.jsonl ...``: held-out figures of the learned file ranking, and its model file."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from rag.evaluation.crossval import SELECTION_CRITERION, CrossValidationError, fold_count
from rag.evaluation.learning import (
    DEFAULT_ROWS, GRID, LOSSES, LearningError, Method, choose, cross_validate, fit, load_queries, row_sets,
)
from rag.evaluation.report import learned_ranking_table
from rag.services.file_ranker import RELATIVE_VIEWS


class Command(BaseCommand):
    help = (
        "Cross-validate the learned file ranking by repository on the candidate rows of rag_eval --features "
        "(every file given, e.g. both evaluation sets), print the held-out figures beside the fused ranking's, "
        "and with --out fit the model on all of them. The method (loss, relative view, L2, rounds of boosted trees) "
        "is the one given (default pointwise, none, 0.05, no trees); with --choose it is chosen inside each fold, from the methods of the grid "
        "that agree with those given, by cross-validation on the fold's training repositories alone. With --alternative "
        "the candidate rows of other search configurations are chosen among the same way, with the method."
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
        parser.add_argument(
            "--alternative", action="append", default=[], metavar="NAME=FILE[,FILE...]",
            help="the same instances' rows from rag_eval --features with other ranking parameters (the name says which); "
            "each fold chooses among the default rows and these by cross-validation on its training repositories",
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
            alternatives = {}
            for given_set in options["alternative"]:
                name, _, paths = given_set.rpartition("=")  # a name may say "candidates=90"
                if not name or not paths:
                    raise LearningError(f"--alternative {given_set!r} is not NAME=FILE[,FILE...]")
                alternatives[name] = load_queries(paths.split(","))
            sets = row_sets(queries, alternatives)
            folds, inner = fold_count(options["cv"]), fold_count(options["inner_cv"])
            results = cross_validate(queries, folds, fixed, grid, inner_folds=inner, alternatives=alternatives)
            if options["out"]:
                rows, method = DEFAULT_ROWS, fixed
                if len(sets) > 1 or not fixed:
                    rows, method, _ = choose(sets, [fixed] if fixed else grid, inner)
        except (LearningError, CrossValidationError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(learned_ranking_table(results))
        if len(sets) > 1:
            self.stdout.write(
                f"\nRows of each fold, chosen from {len(sets)} ({', '.join(sets)}) by cross-validation on its training "
                f"repositories ({SELECTION_CRITERION}):"
            )
            for result in results:
                self.stdout.write(f"- fold {result.number} ({', '.join(result.held_out)}): {result.rows}")
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
            if len(sets) > 1:
                described += f"; the rows {rows}, chosen from {len(sets)} by cross-validation by repository"
            model = fit(sets[rows], method, trained_on=described)
            with open(options["out"], "w", encoding="utf-8") as out:
                json.dump(model.as_json(), out, indent=1)
                out.write("\n")
            self.stdout.write(f"\nmodel written to {options['out']} ({described})")

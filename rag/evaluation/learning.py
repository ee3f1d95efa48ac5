"""Training the learned file ranking, with held-out figures from folds of whole repositories.

The rows come from ``rag_eval --features`` (each instance's candidate files,
in the fused ranking's order, with ``rag.services.file_ranker.FEATURES``). The
model is linear over standardised columns: the features and, if its method
says so, a query-relative view of them computed over the same instance's
candidates (``RELATIVE_VIEWS``). A ``Method`` names the loss (pointwise
logistic, listwise softmax, pairwise logistic), the relative view and the L2
penalty; every loss is convex and fitted by damped Newton steps from zero, so
the same rows always give the same weights. A method may add boosted trees
(``Method.trees`` rounds of LightGBM's LambdaMART over the features, seeded and
on one thread, so they too come out the same), blended with the linear scores
(``FileRankerModel``). Instances whose gold files are none of the candidates
teach nothing and are scored as misses.

``cross_validate`` fits on the other folds' repositories and ranks each
fold's own instances, so every reported figure is of a model that never saw
the instance's repository; the fused order of the same candidates is scored
beside it. Without a fixed method it is nested: each fold chooses its method
from ``GRID`` by cross-validation on its own training repositories. Given the
same instances' rows under other search parameters, each fold chooses among
them the same way, so a search parameter is chosen with the model that
re-ranks what it finds.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import numpy as np

from rag.evaluation.crossval import assign_folds, choose_candidate
from rag.evaluation.metrics import Ranked, Scores, gold_ranks
from rag.services.file_ranker import FEATURES, RELATIVE_VIEWS, FileRankerModel, best_first, model_rows

# Files of a ranking that are scored (Acc@10 needs 10; the evaluation keeps 20).
SCORED_FILES = 20
# The L2 penalty on standardised weights, per unit of total sample weight (each instance weighs 2).
L2 = 0.05


class LearningError(ValueError):
    """The rows cannot be used as asked; the message says why."""


@dataclass(frozen=True)
class Query:
    instance_id: str
    repo: str
    language: str
    gold_files: tuple[str, ...]
    paths: tuple[str, ...]  # candidate files in the fused ranking's order
    rows: np.ndarray  # one row of features per candidate
    edits_function: bool | None = None  # the fix edits an existing function or class (None: not known)
    # The rows in each relative view asked for, computed once (cross-validation fits many models on them).
    _columns: dict[str, np.ndarray] = field(default_factory=dict, compare=False, repr=False)

    @cached_property
    def labels(self) -> np.ndarray:
        gold = set(self.gold_files)
        return np.array([1.0 if path in gold else 0.0 for path in self.paths])

    def columns(self, relative: str) -> np.ndarray:
        """The rows as a model of this relative view reads them (``model_rows``)."""
        if relative not in self._columns:
            self._columns[relative] = model_rows(self.rows, relative)
        return self._columns[relative]

    def ranked(self, order: Sequence[int] | None = None) -> Ranked:
        paths = self.paths if order is None else [self.paths[i] for i in order]
        return Ranked(self.repo, gold_ranks(list(paths)[:SCORED_FILES], self.gold_files), self.language, self.edits_function)


def load_queries(paths: Iterable[str | Path]) -> list[Query]:
    """The instances of one or more feature files (an instance id seen twice keeps its first rows)."""
    queries: dict[str, Query] = {}
    for path in paths:
        with open(path, encoding="utf-8") as lines:
            for number, line in enumerate(lines, 1):
                if not line.strip():
                    continue
                try:
                    record = json.loads(line)
                    rows = np.array([row for _, row in record["candidates"]], dtype=float).reshape(-1, len(FEATURES))
                    query = Query(
                        record["instance_id"], record["repo"], record.get("language", ""), tuple(record["gold_files"]),
                        tuple(p for p, _ in record["candidates"]), rows, record.get("edits_function"),
                    )
                except (ValueError, KeyError, TypeError) as exc:
                    raise LearningError(f"{path}:{number}: not a feature row of this ranker ({exc})") from exc
                queries.setdefault(query.instance_id, query)
    return sorted(queries.values(), key=lambda q: q.instance_id)


LOSSES = ("pointwise", "listwise", "pairwise")


@dataclass(frozen=True)
class Method:
    """How a model is fitted: its loss, the relative view its columns add, and its L2 penalty.

    ``pointwise``: the logistic loss of "this candidate is a gold file", each instance's gold
    files weighing as much in all as its other candidates. ``listwise``: the cross-entropy of a
    softmax over each instance's candidates against its gold files (shared equally), which
    rewards putting gold files first. ``pairwise``: the logistic loss of each gold file scoring
    above each other candidate of its instance, the pairs of an instance sharing its weight.
    The two last compare only candidates of one query, so they have no bias, and a relative view
    that shifts a query's values by one amount (``minus_max``) changes nothing for them.
    ``trees``: rounds of boosted trees (``TREE_PARAMS``) blended with the linear model (0: none).
    """

    loss: str = "pointwise"
    relative: str = "none"
    l2: float = L2
    trees: int = 0

    def __post_init__(self) -> None:
        if self.loss not in LOSSES:
            raise LearningError(f"the loss {self.loss!r} is not one of {', '.join(LOSSES)}")
        if self.relative not in RELATIVE_VIEWS:
            raise LearningError(f"the relative view {self.relative!r} is not one of {', '.join(RELATIVE_VIEWS)}")
        if self.l2 <= 0:
            raise LearningError("the L2 penalty must be positive")
        if self.trees < 0:
            raise LearningError("the rounds of trees cannot be negative")

    def __str__(self) -> str:
        return f"{self.loss}, relative {self.relative}, L2 {self.l2:g}" + (f", {self.trees} rounds of trees" if self.trees else "")


# Boosted trees: LambdaMART (the gradient of a pairwise loss weighted by what swapping two candidates
# does to the first ten places) over small trees, three leaves each (at most two features meet in
# one tree), each tree fitted to a sample of the rows and of the features; a leaf needs 20 rows. A
# few hundred instances teach little more, so only the number of rounds is chosen (TREE_ROUNDS).
TREE_PARAMS = {
    "objective": "lambdarank", "lambdarank_truncation_level": 10, "num_leaves": 3, "min_data_in_leaf": 20,
    "learning_rate": 0.05, "lambda_l2": 1.0, "bagging_fraction": 0.8, "bagging_freq": 1, "feature_fraction": 0.8,
    "seed": 1, "deterministic": True, "force_row_wise": True, "num_threads": 1, "verbose": -1,
}
TREE_ROUNDS = (150, 300, 600, 1200)

# The methods nested cross-validation chooses from; a tie keeps the earlier, and today's default comes first.
GRID: tuple[Method, ...] = (Method(),) + tuple(
    Method(loss, relative, l2)
    for loss in LOSSES
    for relative in RELATIVE_VIEWS
    for l2 in (0.01, 0.05, 0.2, 1.0)
    if Method(loss, relative, l2) != Method()
) + tuple(Method(trees=rounds) for rounds in TREE_ROUNDS)
# Each instance weighs this much in every loss (the L2 penalty is per unit of it).
INSTANCE_WEIGHT = 2.0
NEWTON_STEPS = 100


def fit(queries: Sequence[Query], method: Method = Method(), trained_on: str = "") -> FileRankerModel:
    """A model of the candidates' columns (linear, with trees if the method has them) fitted with ``method`` on the
    instances that have a gold candidate.

    Damped Newton steps from zero weights (halved until the penalised loss falls): every loss is
    convex, so the same rows always give the same weights.
    """
    taught = [q for q in queries if q.labels.any() and not q.labels.all()]
    if not taught:
        raise LearningError("no instance has both a gold file and another file among its candidates")
    columns = [q.columns(method.relative) for q in taught]
    x = np.vstack(columns)
    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales < 1e-9] = 1.0
    standard = [(c - means) / scales for c in columns]
    labels = [q.labels for q in taught]
    penalty = method.l2 * INSTANCE_WEIGHT * len(taught)
    if method.loss == "pointwise":
        beta = _newton(_pointwise(standard, labels), len(means) + 1, penalty, unpenalised=len(means))
        weights, bias = beta[:-1], float(beta[-1])
    elif method.loss == "listwise":
        weights, bias = _newton(_listwise(standard, labels), len(means), penalty), 0.0
    else:
        weights, bias = _newton(_pairwise(standard, labels), len(means), penalty), 0.0
    return FileRankerModel(
        FEATURES, tuple(float(w) for w in weights), tuple(float(m) for m in means), tuple(float(s) for s in scales),
        bias=bias, relative=method.relative, trained_on=trained_on, trees=_trees(taught, method.trees),
    )


def _trees(taught: Sequence[Query], rounds: int) -> str:
    """``rounds`` of LambdaMART trees over the features of ``taught`` (LightGBM's model text; empty for none)."""
    if not rounds:
        return ""
    import lightgbm  # only training with trees needs it here

    taught = sorted(taught, key=lambda q: q.instance_id)  # rows are sampled by position: the same rows, the same trees
    data = lightgbm.Dataset(
        np.vstack([q.rows for q in taught]), np.concatenate([q.labels for q in taught]),
        group=[len(q.paths) for q in taught], params={"verbose": -1},
    )
    return lightgbm.train(TREE_PARAMS, data, rounds).model_to_string()


# A loss: weights -> (value, gradient, Hessian), without the penalty.
Loss = Callable[[np.ndarray], tuple[float, np.ndarray, np.ndarray]]


def _newton(loss: Loss, width: int, penalty: float, unpenalised: int | None = None) -> np.ndarray:
    diagonal = np.full(width, penalty)
    if unpenalised is not None:
        diagonal[unpenalised] = 0.0  # the bias
    beta = np.zeros(width)

    def penalised(b: np.ndarray) -> float:
        return loss(b)[0] + 0.5 * float(b @ (diagonal * b))

    for _ in range(NEWTON_STEPS):
        value, gradient, hessian = loss(beta)
        value += 0.5 * float(beta @ (diagonal * beta))
        gradient = gradient + diagonal * beta
        step = np.linalg.solve(hessian + np.diag(diagonal), gradient)
        size = 1.0
        while size > 1e-6 and penalised(beta - size * step) > value - 1e-4 * size * float(gradient @ step):
            size /= 2
        beta = beta - size * step
        if np.abs(size * step).max() < 1e-8:
            break
    return beta


def _pointwise(standard: list[np.ndarray], labels: list[np.ndarray]) -> Loss:
    z = np.hstack([np.vstack(standard), np.ones((sum(len(s) for s in standard), 1))])
    y = np.concatenate(labels)
    weight = INSTANCE_WEIGHT / 2 * np.concatenate([np.where(v > 0, 1 / v.sum(), 1 / (1 - v).sum()) for v in labels])

    def loss(beta: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        margin = z @ beta
        p = 1 / (1 + np.exp(-margin))
        value = float(weight @ (np.logaddexp(0, margin) - y * margin))
        return value, z.T @ (weight * (p - y)), (z * (weight * p * (1 - p))[:, None]).T @ z

    return loss


def _listwise(standard: list[np.ndarray], labels: list[np.ndarray]) -> Loss:
    # Instances padded to the longest list; a mask keeps padding out of every softmax.
    longest = max(len(s) for s in standard)
    width = standard[0].shape[1]
    z = np.zeros((len(standard), longest, width))
    mask = np.zeros((len(standard), longest), dtype=bool)
    target = np.zeros((len(standard), longest))
    for i, (s, y) in enumerate(zip(standard, labels)):
        z[i, :len(s)] = s
        mask[i, :len(s)] = True
        target[i, :len(s)] = y / y.sum()
    flat = z.reshape(-1, width)

    def loss(beta: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        scores = np.where(mask, z @ beta, -np.inf)
        top = scores.max(axis=1, keepdims=True)
        exp = np.where(mask, np.exp(scores - top), 0.0)
        total = exp.sum(axis=1, keepdims=True)
        p = exp / total
        value = INSTANCE_WEIGHT * float((np.log(total[:, 0]) + top[:, 0]).sum() - (target * np.where(mask, scores, 0.0)).sum())
        mean = np.einsum("qn,qnd->qd", p, z)
        hessian = (flat * p.reshape(-1, 1)).T @ flat - mean.T @ mean
        return value, INSTANCE_WEIGHT * (flat.T @ (p - target).ravel()), INSTANCE_WEIGHT * hessian

    return loss


def _pairwise(standard: list[np.ndarray], labels: list[np.ndarray]) -> Loss:
    differences = []
    weights = []
    for s, y in zip(standard, labels):
        gold, other = s[y > 0], s[y == 0]
        pairs = (gold[:, None, :] - other[None, :, :]).reshape(-1, s.shape[1])
        differences.append(pairs)
        weights.append(np.full(len(pairs), INSTANCE_WEIGHT / len(pairs)))
    d = np.vstack(differences)
    weight = np.concatenate(weights)

    def loss(beta: np.ndarray) -> tuple[float, np.ndarray, np.ndarray]:
        margin = d @ beta
        p = 1 / (1 + np.exp(-margin))
        value = float(weight @ np.logaddexp(0, -margin))
        return value, d.T @ (weight * (p - 1)), (d * (weight * p * (1 - p))[:, None]).T @ d

    return loss


def learned_order(model: FileRankerModel, query: Query) -> list[int]:
    """Candidate positions by the model's score, ties in the fused order (as the product ranks them)."""
    return best_first(model.column_scores(query.columns(model.relative)))


# The name of the rows given first: the search as it is configured (other rows are alternatives to it).
DEFAULT_ROWS = "defaults"


@dataclass(frozen=True)
class FoldResult:
    number: int
    held_out: tuple[str, ...]
    fused: tuple[Ranked, ...]
    learned: tuple[Ranked, ...]
    # The method the fold's model was fitted with (chosen on its training repositories when nested),
    # and, when chosen, its cross-validated score there (what it was chosen by).
    method: Method = Method()
    train_scores: Scores | None = None
    # The search configuration whose candidate rows the fold used (``DEFAULT_ROWS`` unless chosen among alternatives).
    rows: str = DEFAULT_ROWS


def cross_validate(
    queries: Sequence[Query], folds: int | None, method: Method | None = None, grid: Sequence[Method] = GRID,
    inner_folds: int | None = None, alternatives: Mapping[str, Sequence[Query]] | None = None,
) -> list[FoldResult]:
    """Per fold of whole repositories (``None``: one each): the fused and the learned rankings of its instances.

    With ``method`` every fold's model is fitted with it. Without, the cross-validation is nested:
    each fold's method is the one of ``grid`` that ranks best (``SELECTION_CRITERION``) when
    cross-validated by repository (``inner_folds``) on that fold's training repositories alone, so
    the held-out repositories choose nothing. ``alternatives`` are the same instances' candidate rows
    under other search configurations (``rag_eval --features`` with other ranking parameters): each
    fold then chooses the rows too, by the same nested cross-validation, so a search parameter is
    chosen with the model that re-ranks what it finds.
    """
    sets = row_sets(queries, alternatives)
    fits = {name: _FitCache(rows) for name, rows in sets.items()}
    methods = [method] if method else list(grid)
    results = []
    for number, held_out in enumerate(assign_folds(_sizes(queries), folds), 1):
        kept = frozenset(held_out)
        if len(sets) == 1 and method:
            rows, chosen, train_scores = DEFAULT_ROWS, method, None
        else:
            training = {name: [q for q in qs if q.repo not in kept] for name, qs in sets.items()}
            rows, chosen, train_scores = choose(training, methods, inner_folds, fits)
        model = fits[rows].model(chosen, kept)
        tested = [q for q in sets[rows] if q.repo in kept]
        results.append(FoldResult(
            number, tuple(held_out), tuple(q.ranked() for q in tested),
            tuple(q.ranked(learned_order(model, q)) for q in tested), chosen, train_scores, rows,
        ))
    return results


def row_sets(queries: Sequence[Query], alternatives: Mapping[str, Sequence[Query]] | None = None) -> dict[str, Sequence[Query]]:
    """The default rows and the alternatives by name, each checked to hold the same instances."""
    sets: dict[str, Sequence[Query]] = {DEFAULT_ROWS: queries}
    wanted = sorted(q.instance_id for q in queries)
    for name, rows in (alternatives or {}).items():
        if name in sets:
            raise LearningError(f"two sets of rows are named {name!r}")
        if sorted(q.instance_id for q in rows) != wanted:
            raise LearningError(f"the rows {name!r} are not of the same instances as the default rows")
        sets[name] = rows
    return sets


def choose(
    sets: Mapping[str, Sequence[Query]], methods: Sequence[Method], folds: int | None = None,
    fits: Mapping[str, _FitCache] | None = None,
) -> tuple[str, Method, Scores]:
    """The rows and method (every set with every method, the sets in order) whose models rank the sets'
    instances best when cross-validated by repository, and that score."""
    if not methods or not sets:
        raise LearningError("no method to choose from")
    rankings = {}
    choices = {}
    for name, queries in sets.items():
        cache = (fits or {}).get(name) or _FitCache(queries)
        repositories = frozenset(q.repo for q in queries)
        # Repositories outside ``queries`` (a fold held out around them) stay out of every fit.
        outside = frozenset(cache.repositories - repositories)
        splits = assign_folds(_sizes(queries), folds)
        for method in methods:
            ranked = []
            for held_out in splits:
                model = cache.model(method, outside | frozenset(held_out))
                ranked.extend(q.ranked(learned_order(model, q)) for q in queries if q.repo in held_out)
            key = f"{name}: {method}"
            rankings[key] = ranked
            choices[key] = (name, method)
    key, scores = choose_candidate(rankings)
    return (*choices[key], scores)


def choose_method(
    queries: Sequence[Query], grid: Sequence[Method] = GRID, folds: int | None = None, fits: _FitCache | None = None
) -> tuple[Method, Scores]:
    """The method of ``grid`` whose models rank ``queries`` best when cross-validated by repository, and that score."""
    _, method, scores = choose({DEFAULT_ROWS: queries}, grid, folds, {DEFAULT_ROWS: fits} if fits else None)
    return method, scores


class _FitCache:
    """Models fitted on ``queries`` without a set of repositories, each fitted once (nested folds meet the same sets)."""

    def __init__(self, queries: Sequence[Query]):
        self.queries = queries
        self.repositories = frozenset(q.repo for q in queries)
        self._models: dict[tuple[Method, frozenset[str]], FileRankerModel] = {}

    def model(self, method: Method, without: frozenset[str]) -> FileRankerModel:
        key = (method, without)
        if key not in self._models:
            self._models[key] = fit([q for q in self.queries if q.repo not in without], method)
        return self._models[key]


def _sizes(queries: Sequence[Query]) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for query in queries:
        sizes[query.repo] = sizes.get(query.repo, 0) + 1
    return sizes

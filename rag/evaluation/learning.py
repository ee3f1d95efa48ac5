"""Training the learned file ranker, with held-out figures from folds of whole repositories.

The rows come from ``rag_eval --features`` (each instance's candidate files,
in the fused ranking's order, with ``rag.services.file_ranker.FEATURES``). The
model is a logistic regression over standardised features, each instance's
gold files weighing as much in all as its other candidates (an instance with
one gold file among thirty candidates teaches as much as one with three),
with an L2 penalty; fitted by Newton's method, so the same rows always give
the same weights. Instances whose gold files are none of the candidates teach
nothing and are scored as misses.

``cross_validate`` fits on the other folds' repositories and ranks each
fold's own instances, so every reported figure is of a model that never saw
the instance's repository; the fused order of the same candidates is scored
beside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from rag.evaluation.crossval import assign_folds
from rag.evaluation.metrics import Ranked, gold_ranks
from rag.services.file_ranker import FEATURES, FileRankerModel

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

    @property
    def labels(self) -> np.ndarray:
        gold = set(self.gold_files)
        return np.array([1.0 if path in gold else 0.0 for path in self.paths])

    def ranked(self, order: Sequence[int] | None = None) -> Ranked:
        paths = self.paths if order is None else [self.paths[i] for i in order]
        return Ranked(self.repo, gold_ranks(list(paths)[:SCORED_FILES], self.gold_files), self.language)


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
                        tuple(p for p, _ in record["candidates"]), rows,
                    )
                except (ValueError, KeyError, TypeError) as exc:
                    raise LearningError(f"{path}:{number}: not a feature row of this ranker ({exc})") from exc
                queries.setdefault(query.instance_id, query)
    return sorted(queries.values(), key=lambda q: q.instance_id)


def fit(queries: Sequence[Query], l2: float = L2, trained_on: str = "") -> FileRankerModel:
    """A logistic model of "this candidate is a gold file" over the instances that have a gold candidate."""
    taught = [q for q in queries if q.labels.any() and not q.labels.all()]
    if not taught:
        raise LearningError("no instance has both a gold file and another file among its candidates")
    x = np.vstack([q.rows for q in taught])
    y = np.concatenate([q.labels for q in taught])
    weight = np.concatenate([np.where(q.labels > 0, 1 / q.labels.sum(), 1 / (1 - q.labels).sum()) for q in taught])
    means = x.mean(axis=0)
    scales = x.std(axis=0)
    scales[scales < 1e-9] = 1.0
    z = np.hstack([(x - means) / scales, np.ones((len(x), 1))])
    penalty = l2 * weight.sum() * np.eye(z.shape[1])
    penalty[-1, -1] = 0.0  # the bias is not penalised
    beta = np.zeros(z.shape[1])
    for _ in range(50):
        p = 1 / (1 + np.exp(-z @ beta))
        gradient = z.T @ (weight * (p - y)) + penalty @ beta
        hessian = (z * (weight * p * (1 - p))[:, None]).T @ z + penalty
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if np.abs(step).max() < 1e-8:
            break
    return FileRankerModel(
        FEATURES, tuple(float(w) for w in beta[:-1]), tuple(float(m) for m in means), tuple(float(s) for s in scales),
        bias=float(beta[-1]), trained_on=trained_on,
    )


def learned_order(model: FileRankerModel, query: Query) -> list[int]:
    """Candidate positions by the model's score, ties in the fused order (as the product ranks them)."""
    scores = [model.score(row) for row in query.rows]
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


@dataclass(frozen=True)
class FoldResult:
    number: int
    held_out: tuple[str, ...]
    fused: tuple[Ranked, ...]
    learned: tuple[Ranked, ...]


def cross_validate(queries: Sequence[Query], folds: int | None, l2: float = L2) -> list[FoldResult]:
    """Per fold of whole repositories (``None``: one each): the fused and the learned rankings of its instances."""
    sizes: dict[str, int] = {}
    for query in queries:
        sizes[query.repo] = sizes.get(query.repo, 0) + 1
    results = []
    for number, held_out in enumerate(assign_folds(sizes, folds), 1):
        kept = set(held_out)
        model = fit([q for q in queries if q.repo not in kept], l2)
        tested = [q for q in queries if q.repo in kept]
        results.append(FoldResult(
            number, tuple(held_out), tuple(q.ranked() for q in tested),
            tuple(q.ranked(learned_order(model, q)) for q in tested),
        ))
    return results

"""Files ranked by a learned model over what a search already knows of each candidate file.

The fused ranking (``rank_files``) adds item scores and the whole-file BM25
rank with weights chosen by hand. A search knows more of each file than that
sum keeps: which channel found its items and how high, which layer they are
in, whether the file defines a name the query uses (and how rare that name's
definition is), whether the query names the file, what kind of file it is.
``candidate_features`` turns that into one row of numbers per candidate file;
a linear model over the rows, and over a view of them relative to the same
query's other candidates if the model has one, orders the candidates; a model
may add boosted trees (LightGBM's LambdaMART), whose scores are blended with the
linear ones. The model is ``file_ranker.json`` beside this module, trained by
``manage.py rag_train_ranker`` on the evaluation sets with folds grouped by
repository.

Only the order of the fused ranking's first ``depth`` files (and the
whole-file ranking's first ``file_only_depth``) changes: the model re-ranks,
it finds nothing new.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from django.db import connection

from rag.analysis.languages.spec import named_by_folder
from rag.models import DOC_LAYERS, IndexRun, Repository
from rag.query_analysis import word_stem
from rag.services.retrieval import (
    AUXILIARY_FOLDERS,
    DEFAULT_PARAMS,
    FileScore,
    Mode,
    RankingParams,
    SearchResponse,
    group_statistics,
    rank_files,
    search,
)
from rag.storage import version_filter
from rag.terms import STOP_WORDS, looks_like_test_path, split_identifier

if TYPE_CHECKING:
    import lightgbm

MODEL_PATH = Path(__file__).with_name("file_ranker.json")

# One row per candidate file, in this order (the model file names them, so a model
# trained on other features is refused instead of misread).
FEATURES = (
    "fused",  # the fused score over the best fused score of the query
    "fused_rank",  # 1 / rank in the fused ranking
    "whole_file_rank",  # 1 / rank in the whole-file BM25 ranking (0: not in it)
    "title_match",  # whole-file BM25 over the query title's words, over the best of the query's candidates
    "items",  # log(1 + the file's items among the search's results)
    "best_item_rank",  # 1 / rank of the file's best item among the results
    "lexical_rank",  # 1 / best rank of the file's items in each channel (0: not found by it)
    "vector_rank",
    "symbol_rank",
    "symbol_layer",  # the file's best item is a symbol (C1), an entrypoint (C3), a graph edge (C2)
    "entrypoint_layer",
    "graph_layer",
    "defines_name",  # 1 / files defining the rarest query name the file defines (0: none)
    "names_defined",  # log(1 + query names the file defines)
    "named_in_query",  # the query names the file (its path, or its name without suffix)
    "name_words",  # share of the words of the file's name (without suffix) that the query uses
    "folder_words",  # share of the words of the file's folders that the query uses
    "near_top",  # share of the fused ranking's first three other files in the file's folder (fixes touch neighbours)
    "window",  # read as plain windows of lines (no parser knew its language), or vendored or generated
    "test",
    "auxiliary",  # under examples/, docs/, benchmarks/ ...
    "length",  # log(1 + the file's indexed words)
)


@dataclass(frozen=True)
class FileCandidate:
    path: str
    features: tuple[float, ...]
    fused: FileScore


class FileRankerError(ValueError):
    """The model file cannot be used; the message says why."""


def _minus_max(rows: np.ndarray) -> np.ndarray:
    return rows - rows.max(axis=0)


def _share_of_max(rows: np.ndarray) -> np.ndarray:
    top = rows.max(axis=0)
    return np.divide(rows, top, out=np.zeros_like(rows), where=top > 0)


def _rank(rows: np.ndarray) -> np.ndarray:
    above = (rows[None, :, :] > rows[:, None, :]).sum(axis=1)
    return np.where(rows > 0, 1 / (1 + above), 0.0)


def _standard_score(rows: np.ndarray) -> np.ndarray:
    spread = rows.std(axis=0)
    return np.divide(rows - rows.mean(axis=0), spread, out=np.zeros_like(rows), where=spread > 1e-9)


# Query-relative views of the rows: each feature again, measured against the same query's other
# candidates, so a weight can say "the best of this query's files on this feature" whatever the
# repository's usual values. A model names its view; "none" uses the rows as they are.
RELATIVE_VIEWS: dict[str, Callable[[np.ndarray], np.ndarray] | None] = {
    "none": None,
    "minus_max": _minus_max,  # the feature minus the query's best value
    "share_of_max": _share_of_max,  # the feature over the query's best value (0 when that is 0)
    "rank": _rank,  # 1 / (1 + candidates with a higher value); 0 when the feature is 0
    "standard_score": _standard_score,  # (feature - the query's mean) / the query's spread
}


def model_rows(rows: Sequence[Sequence[float]], relative: str) -> np.ndarray:
    """One query's candidate rows as a model of ``relative`` view reads them: the features, then their relative view."""
    features = np.asarray(rows, dtype=float).reshape(-1, len(FEATURES))
    view = RELATIVE_VIEWS[relative]
    if view is None:
        return features
    if not len(features):
        return np.zeros((0, 2 * len(FEATURES)))
    return np.hstack([features, view(features)])


@dataclass(frozen=True)
class FileRankerModel:
    """A linear model over standardised columns: score = bias + sum(w * (x - mean) / scale).

    The columns are ``FEATURES`` and, unless ``relative`` is "none", the same features in that
    query-relative view (``RELATIVE_VIEWS``), computed over the candidates ranked together; a
    score is therefore only meaningful beside the scores of the same query's other candidates.

    With ``trees`` (a LightGBM model's text: boosted regression trees over ``FEATURES``, fitted
    with the LambdaMART ranking loss) the score is the mean of the linear scores and the trees'
    scores, each standardised over the query's candidates: the trees see interactions between
    features that a weighted sum cannot, the linear part keeps the order smooth where they see none.
    """

    features: tuple[str, ...]
    weights: tuple[float, ...]
    means: tuple[float, ...]
    scales: tuple[float, ...]
    bias: float = 0.0
    relative: str = "none"
    # How the weights were chosen, for people reading the file.
    trained_on: str = ""
    trees: str = ""

    def scores(self, rows: Sequence[Sequence[float]]) -> list[float]:
        """The score of each of one query's candidate rows (``FEATURES`` in order)."""
        return self.column_scores(model_rows(rows, self.relative))

    def column_scores(self, columns: np.ndarray) -> list[float]:
        """The scores of rows already in the model's relative view (``model_rows``)."""
        standard = (columns - np.array(self.means)) / np.array(self.scales)
        linear = self.bias + standard @ np.array(self.weights)
        if self.trees and len(columns):
            boosted = self._booster.predict(columns[:, : len(FEATURES)], num_threads=1)
            linear = (_standard_score(linear) + _standard_score(boosted)) / 2
        return [float(v) for v in linear]

    @cached_property
    def _booster(self) -> lightgbm.Booster:
        return _read_trees(self.trees)

    def as_json(self) -> dict:
        data = {
            "features": list(self.features), "relative": self.relative, "weights": [round(w, 6) for w in self.weights],
            "means": [round(m, 6) for m in self.means], "scales": [round(s, 6) for s in self.scales],
            "bias": round(self.bias, 6), "trained_on": self.trained_on,
        }
        return {**data, "trees": self.trees} if self.trees else data

    @classmethod
    def from_json(cls, data: dict) -> FileRankerModel:
        """A model file; one without ``relative`` (the first form) reads the features alone, as it was trained to."""
        features = tuple(data.get("features", ()))
        if features != FEATURES:
            raise FileRankerError(f"the model's features {features} are not this ranker's {FEATURES}")
        relative = str(data.get("relative", "none"))
        if relative not in RELATIVE_VIEWS:
            raise FileRankerError(f"the model's relative view {relative!r} is not one of {sorted(RELATIVE_VIEWS)}")
        width = len(FEATURES) * (1 if relative == "none" else 2)
        columns = [tuple(float(v) for v in data[key]) for key in ("weights", "means", "scales")]
        if any(len(column) != width for column in columns) or any(s <= 0 for s in columns[2]):
            raise FileRankerError(
                f"a model of relative view {relative!r} needs {width} weights, means and positive scales (one per column)"
            )
        model = cls(
            features, *columns, bias=float(data.get("bias", 0.0)), relative=relative,
            trained_on=str(data.get("trained_on", "")), trees=str(data.get("trees", "")),
        )
        if model.trees:
            model._booster  # read now, so a broken model fails where it is loaded, not in a search
        return model


def _read_trees(text: str) -> lightgbm.Booster:
    import lightgbm  # imported by the first search of a process with such a model, not by every import of this module

    try:
        booster = lightgbm.Booster(model_str=text)
    except lightgbm.basic.LightGBMError as exc:
        raise FileRankerError(f"the model's trees cannot be read: {exc}") from exc
    if booster.num_feature() != len(FEATURES):
        raise FileRankerError(f"the model's trees read {booster.num_feature()} features, not this ranker's {len(FEATURES)}")
    return booster


def best_first(scores: Sequence[float]) -> list[int]:
    """Candidate positions by score, best first; ties keep the given (fused) order."""
    return sorted(range(len(scores)), key=lambda i: (-scores[i], i))


@lru_cache(maxsize=4)
def load_model(path: str = str(MODEL_PATH)) -> FileRankerModel:
    try:
        return FileRankerModel.from_json(json.loads(Path(path).read_text()))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise FileRankerError(f"the file ranking model {path} cannot be read: {exc}") from exc


def candidate_features(response: SearchResponse, *, depth: int = 30, params: RankingParams = DEFAULT_PARAMS) -> list[FileCandidate]:
    """The fused ranking's first ``depth`` files, each with its row of ``FEATURES``."""
    fused = rank_files(response.items, limit=depth, params=params, file_ranking=response.file_ranking)
    if not fused:
        return []
    whole_file = {path: rank for rank, path in enumerate(response.file_ranking, start=1)}
    best_fused = max(fused[0].score, 1e-9)
    per_file: dict[str, dict[str, float]] = {}
    # Results come best first: a file's first item is its best one.
    best_layer: dict[str, str] = {}
    for rank, item in enumerate(response.items, start=1):
        best_layer.setdefault(item.path, item.layer)
        seen = per_file.setdefault(item.path, {"items": 0, "best": 0.0, "lexical": 0.0, "vector": 0.0, "symbol": 0.0})
        seen["items"] += 1
        seen["best"] = max(seen["best"], 1 / rank)
        for channel in ("lexical", "vector", "symbol"):
            if channel in item.channels:
                seen[channel] = max(seen[channel], 1 / item.channels[channel])
    definitions = _definitions(response)
    named = _named_in_query(response, [f.path for f in fused])
    statistics = _statistics(response)
    top_folders = [f.path.rsplit("/", 1)[0] if "/" in f.path else "" for f in fused[:3]]
    best_title = max((response.title_scores.get(f.path, 0.0) for f in fused), default=0.0)
    asked = frozenset(word_stem(word) for word in response.words)
    candidates = []
    for rank, scored in enumerate(fused, start=1):
        path = scored.path
        seen = per_file.get(path, {})
        rarest, count = definitions.get(path, (0.0, 0))
        layer = best_layer.get(path, "")
        length = statistics.file_lengths.get(path, 0) if statistics else 0
        row = (
            scored.score / best_fused,
            1 / rank,
            1 / whole_file[path] if path in whole_file else 0.0,
            response.title_scores.get(path, 0.0) / best_title if best_title > 0 else 0.0,
            math.log1p(seen.get("items", 0)),
            seen.get("best", 0.0),
            seen.get("lexical", 0.0),
            seen.get("vector", 0.0),
            seen.get("symbol", 0.0),
            float(layer == "C1_SYMBOL_CATALOG"),
            float(layer == "C3_ENTRYPOINTS"),
            float(layer == "C2_DEPENDENCY_GRAPH"),
            rarest,
            math.log1p(count),
            float(path in named),
            *_path_word_shares(path, asked),
            _near_top(path, rank, top_folders),
            float(bool(statistics) and path in statistics.window_files),
            float(looks_like_test_path(path)),
            float(bool(AUXILIARY_FOLDERS.search(path))),
            math.log1p(length),
        )
        candidates.append(FileCandidate(path, row, scored))
    return candidates


def ranked_files(response: SearchResponse, *, limit: int = 10, params: RankingParams = DEFAULT_PARAMS) -> list[FileScore]:
    """The files of a search's results, ranked as ``params.file_ranker`` says."""
    if params.file_ranker == "learned":
        return rank_files_learned(response, limit=limit, params=params)
    return rank_files(response.items, limit=limit, params=params, file_ranking=response.file_ranking)


def search_files(
    repository: Repository,
    query: str,
    *,
    limit: int = 10,
    mode: Mode = "code",
    path_glob: str | None = None,
    params: RankingParams = DEFAULT_PARAMS,
    run: IndexRun | None = None,
) -> list[FileScore]:
    """The top files for a query (searches more items than files asked for, then ranks their files)."""
    response = search(
        repository, query, mode=mode, path_glob=path_glob, limit=min(200, max(limit * 5, 40)), params=params, run=run
    )
    return ranked_files(response, limit=limit, params=params)


def rank_files_learned(
    response: SearchResponse, *, limit: int = 10, params: RankingParams = DEFAULT_PARAMS, model: FileRankerModel | None = None
) -> list[FileScore]:
    """The candidate files of ``response`` in the model's order (ties keep the fused order)."""
    model = model or load_model()
    candidates = candidate_features(response, depth=max(limit, params.learned_depth), params=params)
    # Relative views compare each candidate with the others: the whole list is scored at once.
    scores = model.scores([c.features for c in candidates])
    return [FileScore(candidates[i].path, scores[i], candidates[i].fused.best) for i in best_first(scores)[:limit]]


def _definitions(response: SearchResponse) -> dict[str, tuple[float, int]]:
    """Per file: 1 / how many files define the rarest query name it defines, and how many query names it defines."""
    hints = response.hints
    if response.run is None or hints is None or not hints.names:
        return {}
    names = sorted(hints.names)[:200]
    version, version_args = version_filter(response.run)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT name, path FROM rag_symbol WHERE {version} AND name = ANY(%s) GROUP BY name, path",
            [*version_args, names],
        )
        rows = cursor.fetchall()
    files_per_name: dict[str, int] = {}
    for name, _ in rows:
        files_per_name[name] = files_per_name.get(name, 0) + 1
    found: dict[str, tuple[float, int]] = {}
    for name, path in rows:
        rarest, count = found.get(path, (0.0, 0))
        found[path] = (max(rarest, 1 / files_per_name[name]), count + 1)
    return found


_STEM = re.compile(r"[^/]+?(?=\.[^./]+$)|[^/]+$")


def _named_in_query(response: SearchResponse, paths: Sequence[str]) -> set[str]:
    """Files the query names: by a path ending in theirs, or by their name without its suffix as a word of it."""
    hints = response.hints
    if hints is None:
        return set()
    words = {name.lower() for name in hints.names} | {d.rsplit(".", 1)[-1].lower() for d in hints.dotted}
    named = set()
    for path in paths:
        if any(path == p or path.endswith("/" + p.lstrip("./")) for p in hints.paths):
            named.add(path)
            continue
        stem = _STEM.search(path.rsplit("/", 1)[-1])
        if stem and len(stem.group(0)) > 3 and stem.group(0).lower() in words:
            named.add(path)
    return named


def _path_word_shares(path: str, asked: frozenset[str]) -> tuple[float, float]:
    """How much of the file's name, and of its folders, is words of the query (``dayjs/src/plugin/utc``, "utc plugin").

    Words are compared by their stems (``asked``: the query's; "hyperlinks" is the folder ``hyperlink``), and
    a file that stands for its folder (``hyperlink/mod.rs``, ``utc/index.js``, ``fields/__init__.py``) is
    called by the folder's name.
    """
    *folders, name = path.split("/")
    if named_by_folder(path):
        name = folders.pop()

    def share(parts: Sequence[str]) -> float:
        found = {
            word_stem(word) for part in parts for word in split_identifier(part) if len(word) > 1 and word not in STOP_WORDS
        }
        return len(found & asked) / len(found) if found else 0.0

    return share([name.split(".", 1)[0]]), share(folders)


def _near_top(path: str, rank: int, top_folders: Sequence[str]) -> float:
    folder = path.rsplit("/", 1)[0] if "/" in path else ""
    others = [top for position, top in enumerate(top_folders, start=1) if position != rank]
    return sum(top == folder for top in others) / 3


def _statistics(response: SearchResponse):
    if response.run is None or not response.layers:
        return None
    docs = response.mode == "docs"
    # A search of both groups (``auto`` on a question in words) ranks its code's files.
    layers = tuple(layer for layer in response.layers if (layer in DOC_LAYERS) == docs)
    with connection.cursor() as cursor:
        return group_statistics(cursor, response.run, layers, docs)

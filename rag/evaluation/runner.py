"""One evaluation run: snapshot, index, retrieve and score every selected instance.

Instances of one repository are visited in commit-time order so each index
run differs little from the one before it (the incremental index reuses the
rest). Results come back in instance-id order, so the output of a run does not
depend on the order the work was done in.

Every candidate ranking configuration is run on each snapshot while its index
version is at hand, so choosing among them (rag.evaluation.crossval) needs no
second pass over the index.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings

from rag.evaluation.baseline import Bm25FileBaseline
from rag.evaluation.candidates import DEFAULT_CANDIDATE, Candidate
from rag.evaluation.dataset import Instance
from rag.evaluation.indexing import discard_evaluation_repository, evaluation_owner, index_snapshot
from rag.evaluation.metrics import Ranked, gold_ranks
from rag.evaluation.snapshots import Snapshot, SnapshotError, commit_timestamp, read_snapshot, resolve_mirror
from rag.models import IndexRun
from rag.services import DEFAULT_PARAMS, RankingParams, SearchResponse, ranked_files, search
from rag.services.file_ranker import candidate_features

# Files kept per instance in the output (Acc@10 needs 10; the rest shows near misses).
TOP_FILES = 20
# Items retrieved before they are grouped into files: what the agent's search
# tool asks for with its default settings (12 results, three times over, so the
# file ranking sees more than it shows).
ITEM_DEPTH = 36


class EvaluationError(RuntimeError):
    """The evaluation cannot run as asked; nothing was indexed."""


@dataclass
class InstanceResult:
    instance: Instance
    # The first candidate's ranking (the defaults unless told otherwise) ...
    top_files: list[str] = field(default_factory=list)
    # ... and every candidate's, by name, in candidate order (empty when the instance failed).
    candidate_files: dict[str, list[str]] = field(default_factory=dict)
    gold_layers: dict[str, list[str]] = field(default_factory=dict)
    # With ``features``: the first candidate's candidate files, each with its row of the file ranker's features.
    file_features: list[tuple[str, tuple[float, ...]]] = field(default_factory=list)
    baseline_top_files: list[str] | None = None
    error: str = ""
    # The snapshot was searched in an index version kept from an earlier run.
    reused_version: bool = False
    # Timings and reuse counts: reported on the console, never in the deterministic output.
    index_seconds: float = 0.0
    search_seconds: float = 0.0
    files_unchanged: int = 0
    files_total: int = 0
    stage_seconds: list[tuple[str, float]] = field(default_factory=list)

    def ranked(self, candidate: str | None = None) -> Ranked:
        """The first candidate's ranking, or the named candidate's (a failed instance ranks nothing)."""
        files = self.top_files if candidate is None else self.candidate_files.get(candidate, [])
        return self._ranked(files)

    def baseline_ranked(self) -> Ranked | None:
        if self.baseline_top_files is None:
            return None
        return self._ranked(self.baseline_top_files)

    def _ranked(self, files: Sequence[str]) -> Ranked:
        instance = self.instance
        return Ranked(instance.repo, gold_ranks(files, instance.gold_files), instance.language_name, instance.edits_function)

    def as_record(self) -> dict[str, Any]:
        ranked = self.ranked()
        record: dict[str, Any] = {
            "instance_id": self.instance.instance_id,
            "repo": self.instance.repo,
            "language": self.instance.language_name,
            "base_commit": self.instance.base_commit,
            "gold_files": list(self.instance.gold_files),
            "gold_rank": ranked.all_gold_rank,
            "gold_ranks": ranked.gold_ranks,
            "gold_layers": self.gold_layers,
            "top_files": self.top_files,
        }
        if len(self.candidate_files) > 1:
            record["candidates"] = {
                name: {"gold_rank": self.ranked(name).all_gold_rank, "top_files": files}
                for name, files in self.candidate_files.items()
            }
        baseline = self.baseline_ranked()
        if baseline is not None:
            record["bm25_gold_rank"] = baseline.all_gold_rank
            record["bm25_top_files"] = self.baseline_top_files
        if self.error:
            record["error"] = self.error
        return record


def retrieve_files(
    repository, query: str, params: RankingParams = DEFAULT_PARAMS, run=None
) -> tuple[list[str], dict[str, list[str]], SearchResponse]:
    """The product's retrieval of an issue text, as the agent runs it with no model: code layers, files from items.

    Returns the ranked files, per file the layers of the items that found it, and the search itself.
    """
    response = search(repository, query, mode="code", limit=ITEM_DEPTH, params=params, run=run)
    ranked = ranked_files(response, limit=TOP_FILES, params=params)
    files = [scored.path for scored in ranked]
    layers: dict[str, set[str]] = {}
    for item in response.items:
        layers.setdefault(item.path, set()).add(item.layer)
    return files, {path: sorted(found) for path, found in layers.items()}, response


def evaluate(
    instances: Sequence[Instance],
    mirrors_dir: str | Path,
    *,
    baseline: str | None = None,
    candidates: Sequence[Candidate] = (DEFAULT_CANDIDATE,),
    keep: bool = False,
    features: bool = False,
    on_result: Callable[[InstanceResult], None] | None = None,
) -> list[InstanceResult]:
    """Evaluate ``instances`` with every candidate; a snapshot or index failure is recorded on its instance (a miss).

    Without ``keep`` each evaluation repository starts empty and is deleted when its walk ends.
    With ``keep`` its versions stay for the next run, and snapshots a kept version was built
    from are searched there instead of being indexed; raises ``EvaluationError`` when
    ``RAG_KEEP_SUPERSEDED`` is too low to keep every version of this run. With ``features`` each
    result keeps its candidate files' rows of the file ranker's features (for ``rag_train_ranker``).
    """
    if not candidates:
        raise EvaluationError("at least one candidate ranking is needed")
    groups: dict[str, list[Instance]] = {}
    for instance in instances:
        groups.setdefault(instance.repo, []).append(instance)
    if keep:
        check_versions_kept(groups.values())
    owner = evaluation_owner()
    results: list[InstanceResult] = []
    for repo in sorted(groups):
        results.extend(
            _evaluate_repository(repo, groups[repo], mirrors_dir, owner, baseline, candidates, keep, features, on_result)
        )
    results.sort(key=lambda result: result.instance.instance_id)
    return results


def check_versions_kept(groups: Iterable[Sequence[Instance]]) -> None:
    """Every snapshot of a walk but the newest becomes a superseded version; all must keep their rows."""
    needed = max((len({instance.base_commit for instance in group}) - 1 for group in groups), default=0)
    kept = int(settings.RAG["KEEP_SUPERSEDED"])
    if kept < needed:
        raise EvaluationError(
            f"keeping index versions needs RAG_KEEP_SUPERSEDED={needed} or more for this slice (it is {kept}); "
            "older versions would lose their rows and be indexed again next time"
        )


def _evaluate_repository(
    repo, instances, mirrors_dir, owner, baseline, candidates, keep, features, on_result
) -> list[InstanceResult]:
    results: list[InstanceResult] = []
    try:
        git_dir = resolve_mirror(mirrors_dir, instances[0].mirror)
    except SnapshotError as exc:
        for instance in instances:
            results.append(_report(InstanceResult(instance, error=str(exc)), on_result))
        return results
    ordered = sorted(instances, key=lambda instance: (_timestamp(git_dir, instance.base_commit), instance.instance_id))
    bm25 = Bm25FileBaseline() if baseline == "bm25" else None
    previous: Snapshot | None = None
    if not keep:
        # Start from an empty repository: an index left by an interrupted run is not trusted.
        discard_evaluation_repository(repo, owner)
    try:
        for instance in ordered:
            result = InstanceResult(instance)
            try:
                snapshot = read_snapshot(git_dir, instance.base_commit, previous)
            except SnapshotError as exc:
                result.error = str(exc)
                results.append(_report(result, on_result))
                continue
            previous = snapshot
            if bm25 is not None:
                result.baseline_top_files = bm25.rank(snapshot, instance.query, TOP_FILES)
            started = time.perf_counter()
            try:
                indexed = index_snapshot(repo, snapshot, owner, reuse=keep)
            except Exception as exc:  # recorded on the instance; the run goes on with the next one
                result.error = f"indexing failed: {exc}"
                results.append(_report(result, on_result))
                continue
            result.files_total = int(indexed.run.counts.get("files", 0))
            result.files_unchanged = int(indexed.run.counts.get("files_unchanged", 0))
            result.reused_version = indexed.reused
            if not indexed.reused:
                result.index_seconds = time.perf_counter() - started
                result.stage_seconds = indexed.run.stage_timings
            _retrieve_candidates(result, indexed.repository, indexed.run, candidates, features)
            results.append(_report(result, on_result))
    finally:
        if not keep:
            discard_evaluation_repository(repo, owner)
    return results


def _retrieve_candidates(
    result: InstanceResult, repository, run: IndexRun, candidates: Sequence[Candidate], features: bool = False
) -> None:
    """Rank the instance's files with every candidate in ``run``; the first one's timing, layers and features are kept."""
    instance = result.instance
    for position, candidate in enumerate(candidates):
        started = time.perf_counter()
        files, layers, response = retrieve_files(repository, instance.query, candidate.params, run=run)
        result.candidate_files[candidate.name] = files
        if position == 0:
            result.search_seconds = time.perf_counter() - started
            result.top_files = files
            result.gold_layers = {path: layers.get(path, []) for path in instance.gold_files}
            if features:
                depth = candidate.params.learned_depth
                result.file_features = [(c.path, c.features) for c in candidate_features(response, depth=depth, params=candidate.params)]


def _timestamp(git_dir: Path, commit: str) -> int:
    try:
        return commit_timestamp(git_dir, commit)
    except SnapshotError:
        return 0


def _report(result: InstanceResult, on_result) -> InstanceResult:
    if on_result is not None:
        on_result(result)
    return result

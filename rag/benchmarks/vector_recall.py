"""The vector channel's neighbours against an exact search's, in stores that hold several versions.

``python manage.py bench_vector_recall DATASET.jsonl [--limit N]`` searches each instance's issue text
in the evaluation's kept version of its snapshot (``rag_eval --keep`` leaves them, many versions to a
store) three ways, on the code layers: the HNSW list as configured (``RAG_HNSW_EF_SEARCH``), the
vector channel as it runs (``nearest_items``, its list lengthened by the store's rows over the
version's), and an exact search of the version's rows. It prints the share of the exact search's
nearest rows each finds (recall at the channel's depth: mean, tenth percentile and worst), the
lists' lengths, and the time of each.
"""

from __future__ import annotations

import statistics
import time
from dataclasses import dataclass, field

from pgvector import Vector

from llm.benchmarks.percentiles import percentile
from rag.evaluation.dataset import Instance
from rag.evaluation.indexing import repository_name
from rag.models import CODE_LAYERS, IndexRun
from rag.services import DEFAULT_PARAMS
from rag.services.retrieval.params import item_filter
from rag.services.retrieval.vector import hnsw_cursor, nearest_items, nearest_sql, query_vector, search_list


@dataclass
class Way:
    """One way of searching: the share of the exact search's neighbours found per search, and its seconds."""

    name: str
    recall: list[float] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)


@dataclass
class RecallReport:
    searched: int = 0
    missing: int = 0
    lists: list[int] = field(default_factory=list)
    ways: tuple[Way, ...] = field(
        default_factory=lambda: (Way("HNSW list as configured"), Way("the vector channel"), Way("exact"))
    )


def kept_version(instance: Instance) -> IndexRun | None:
    """The newest kept evaluation version built from the instance's snapshot (its archive is named by the commit)."""
    return (
        IndexRun.objects.select_related("repository")
        .filter(
            repository__name=repository_name(instance.repo),
            archive_name=f"{instance.base_commit}.zip",
            has_items=True,
            status__in=[IndexRun.Status.READY, IndexRun.Status.SUPERSEDED],
        )
        .order_by("-id")
        .first()
    )


def _timed(way: Way, search) -> set[int]:
    started = time.perf_counter()
    found = search()
    way.seconds.append(time.perf_counter() - started)
    return found


def measure(instances: list[Instance]) -> RecallReport:
    report = RecallReport()
    configured, channel, exact = report.ways
    depth = DEFAULT_PARAMS.candidates
    for instance in instances:
        run = kept_version(instance)
        vector = query_vector(run, instance.query, []) if run is not None else None
        if vector is None:
            report.missing += 1
            continue
        dim = int(run.embedding_dimension)
        where, args = item_filter(run, CODE_LAYERS, None, False)
        rows = f"SELECT id, embedding::vector({dim}) AS embedding FROM rag_item WHERE {where} AND embedding IS NOT NULL"
        nearest = f"ORDER BY embedding <=> %s::vector({dim}), id LIMIT {depth}"
        report.lists.append(search_list(run, depth))

        def search(sql: str, params: list) -> set[int]:
            with hnsw_cursor(depth) as cursor:
                cursor.execute(sql, params)
                return {row[0] for row in cursor.fetchall()}

        listed = _timed(configured, lambda: search(nearest_sql(dim, where), [Vector(vector), *args, depth]))
        found = _timed(channel, lambda: {row[0] for row in nearest_items(run, CODE_LAYERS, None, False, vector, DEFAULT_PARAMS)})
        # Materialized, so the planner cannot order the rows by the store's index.
        best = _timed(exact, lambda: search(f"WITH version AS MATERIALIZED ({rows}) SELECT id FROM version {nearest}", [*args, Vector(vector)]))
        if not best:
            continue
        report.searched += 1
        for way, ids in ((configured, listed), (channel, found), (exact, best)):
            way.recall.append(len(ids & best) / len(best))
    return report


def lines(report: RecallReport) -> list[str]:
    out = [
        f"{report.searched} searches in kept versions ({report.missing} instances without one); the channel's HNSW list "
        f"median {statistics.median(report.lists or [0]):.0f}, longest {max(report.lists or [0])}",
        f"| way | recall@{DEFAULT_PARAMS.candidates} mean | 10th percentile | worst | p50 ms | p95 ms |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for way in report.ways:
        if not way.recall:
            continue
        out.append(
            f"| {way.name} | {statistics.mean(way.recall):.3f} | {percentile(way.recall, 10):.2f} | {min(way.recall):.2f} "
            f"| {statistics.median(way.seconds) * 1000:.1f} | {percentile(way.seconds, 95) * 1000:.1f} |"
        )
    return out


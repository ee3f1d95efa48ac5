"""Indexing and retrieval benchmark over a real tree (by default the installed Django package).

``python manage.py bench_index`` prints indexing throughput, peak memory and
time per stage, then retrieval latency over a fixed set of queries next to
the floor: raw HNSW and raw full-text queries on the same partition. With
``--incremental`` it also times new versions of the same tree where a few
files changed, against the full build of the same command.
"""

from __future__ import annotations

import json
import platform
import os
import random
import re
import resource
import shutil
import statistics
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from pgvector import Vector

from database_pool import close_beside
from llm.benchmarks.percentiles import percentile
from rag.embeddings import embedder_for_index
from rag.intake import zip_directory
from rag.models import IndexRun, Repository, Symbol
from rag.evaluation.runner import retrieve_files
from rag.services import DEFAULT_PARAMS, RankingParams, delete_repository, run_index, search, search_text, start_index_run
from rag.services.retrieval.vector import hnsw_cursor
from rag.query_analysis import lexical_words
from rag.storage import version_filter

BENCH_USER = "bench-index"


def django_tree() -> Path:
    import django

    return Path(django.__file__).resolve().parent


def _peak_rss_mib() -> float:
    # ru_maxrss is KiB on Linux.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _backend_cpu_seconds() -> float | None:
    """CPU time of this connection's database backend process, when the server runs on this machine."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    # utime and stime are fields 14 and 15 of stat (11 and 12 after the command name).
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


@dataclass
class IndexFigures:
    run: IndexRun
    zip_seconds: float
    zip_bytes: int
    wall_seconds: float
    peak_rss_mib: float
    # CPU seconds of this process and of its database backend during the run
    # (steady under load from other work, unlike wall time).
    cpu_seconds: float
    backend_cpu_seconds: float | None

    @property
    def files_per_second(self) -> float:
        return self.run.counts.get("files", 0) / self.wall_seconds

    @property
    def chunks_per_second(self) -> float:
        return self.run.counts.get("C0_SOURCE_CHUNKS", 0) / self.wall_seconds

    @property
    def items_per_second(self) -> float:
        return self.run.counts.get("items", 0) / self.wall_seconds


@dataclass
class Latency:
    name: str
    seconds: list[float] = field(default_factory=list)

    @property
    def p50_ms(self) -> float:
        return statistics.median(self.seconds) * 1000

    @property
    def p95_ms(self) -> float:
        return percentile(self.seconds, 95) * 1000


def index_tree(tree: Path, name: str) -> IndexFigures:
    owner, _ = get_user_model().objects.get_or_create(username=BENCH_USER, defaults={"is_active": False})
    existing = Repository.objects.filter(owner=owner, name=name).first()
    if existing is not None:
        delete_repository(existing)
    with tempfile.TemporaryFile() as handle:
        started = time.perf_counter()
        zip_directory(tree, handle)
        zip_seconds = time.perf_counter() - started
        zip_bytes = handle.tell()
        handle.seek(0)
        run = start_index_run(owner=owner, name=name, archive=handle, archive_name=f"{name}.zip", defer=False)
    rss_before = _peak_rss_mib()
    backend_before = _backend_cpu_seconds()
    cpu_before = _own_cpu_seconds()
    started = time.perf_counter()
    run = run_index(run.pk)
    wall = time.perf_counter() - started
    cpu = _own_cpu_seconds() - cpu_before
    backend_after = _backend_cpu_seconds()
    backend = None if backend_before is None or backend_after is None else backend_after - backend_before
    return IndexFigures(run=run, zip_seconds=zip_seconds, zip_bytes=zip_bytes, wall_seconds=wall,
                        peak_rss_mib=max(_peak_rss_mib(), rss_before), cpu_seconds=cpu, backend_cpu_seconds=backend)


def reindex_unchanged(repository: Repository) -> tuple[IndexRun, float]:
    """A second run over the same archive: every file unchanged (the incremental case)."""
    from rag.services import reindex

    run = reindex(repository, defer=False)
    started = time.perf_counter()
    run = run_index(run.pk)
    return run, time.perf_counter() - started


@dataclass
class IncrementalFigures:
    runs: list[IndexRun]
    seconds: list[float]
    changed_files: list[str]
    # CPU seconds of this process and of its database backend, per run.
    cpu_seconds: list[float] = field(default_factory=list)
    backend_cpu_seconds: list[float] = field(default_factory=list)

    @property
    def median_seconds(self) -> float:
        return statistics.median(self.seconds)

    def median_stage(self, stage: str) -> float:
        return statistics.median(float(run.timings.get(stage, 0.0)) for run in self.runs)

    def median_count(self, key: str) -> float:
        return statistics.median(int(run.counts.get(key, 0)) for run in self.runs)


def changed_versions(repository: Repository, tree: Path, runs: int = 3, changed: int = 3) -> IncrementalFigures:
    """``runs`` new versions of ``tree``, one after another, each with the same ``changed`` Python files edited.

    Every version differs from the one before it in those files only (a
    function appended, another one each time), which is the incremental case:
    the rest of the tree is shared with the previous version.
    """
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / tree.name
        shutil.copytree(tree, copy, ignore=shutil.ignore_patterns("__pycache__"), symlinks=True)
        python = sorted(p for p in copy.rglob("*.py") if p.is_file() and not p.is_symlink())
        if not python:
            raise ValueError(f"{tree} has no Python files to change")
        picked = [python[i * len(python) // changed] for i in range(min(changed, len(python)))]
        originals = {path: path.read_text(encoding="utf-8", errors="surrogateescape") for path in picked}
        figures = IncrementalFigures(runs=[], seconds=[], changed_files=[p.relative_to(copy).as_posix() for p in picked])
        for version in range(runs):
            for path, text in originals.items():
                path.write_text(
                    f"{text}\n\ndef changed_in_version_{version}(value):\n    return value\n",
                    encoding="utf-8", errors="surrogateescape",
                )
            with tempfile.TemporaryFile() as handle:
                zip_directory(copy, handle)
                handle.seek(0)
                run = start_index_run(
                    owner=repository.owner, name=repository.name, archive=handle,
                    archive_name=f"{repository.name}.zip", defer=False,
                )
            backend_before = _backend_cpu_seconds()
            cpu_before = _own_cpu_seconds()
            started = time.perf_counter()
            run = run_index(run.pk)
            figures.seconds.append(time.perf_counter() - started)
            figures.cpu_seconds.append(_own_cpu_seconds() - cpu_before)
            backend_after = _backend_cpu_seconds()
            if backend_before is not None and backend_after is not None:
                figures.backend_cpu_seconds.append(backend_after - backend_before)
            if run.status != IndexRun.Status.READY:
                raise RuntimeError(f"version {version + 1} failed: {run.error}")
            figures.runs.append(run)
    return figures


def bench_queries(run: IndexRun, count: int, seed: int = 7) -> list[str]:
    """A fixed mix of query kinds built from the index's own symbols (deterministic for a seed)."""
    rng = random.Random(seed)
    symbols = list(
        Symbol.objects.in_version(run).exclude(path__contains="/tests/").order_by("id").values_list(
            "qname", "name", "path", "start_line", "docstring"
        )
    )
    if not symbols:
        return []
    queries: list[str] = []
    kinds = ["name", "dotted", "prose", "traceback", "path"]
    while len(queries) < count:
        qname, name, path, line, docstring = rng.choice(symbols)
        kind = kinds[len(queries) % len(kinds)]
        if kind == "name":
            queries.append(f"where is {name} defined")
        elif kind == "dotted":
            queries.append(qname)
        elif kind == "prose" and docstring:
            queries.append(" ".join(docstring.split()[:12]))
        elif kind == "traceback":
            queries.append(f'Traceback (most recent call last):\n  File "/srv/app/{path}", line {line + 1}, in {name}\nValueError: bad value')
        else:
            queries.append(f"what does {path} do")
    return queries


def issue_texts(dataset: Path, count: int, repo: str = "") -> list[str]:
    """The first ``count`` issue texts (``query``) of a JSON-lines dataset, of repositories whose name holds ``repo``."""
    texts: list[str] = []
    with open(dataset, encoding="utf-8") as lines:
        for line in lines:
            if len(texts) == count:
                break
            if not line.strip():
                continue
            record = json.loads(line)
            if repo.lower() in str(record.get("repo", "")).lower() and record.get("query"):
                texts.append(record["query"])
    return texts


@contextmanager
def connections_as_the_web_process() -> Iterator[None]:
    """Database connections kept as a web process keeps them (``WEB_CONN_MAX_AGE``), where the agent's
    and MCP's searches run: a command otherwise opens one for each statement a search runs beside its own."""
    saved = connection.settings_dict.get("CONN_MAX_AGE")
    connection.settings_dict["CONN_MAX_AGE"] = settings.WEB_CONN_MAX_AGE
    try:
        yield
    finally:
        connection.settings_dict["CONN_MAX_AGE"] = saved
        close_beside()


def issue_latencies(repository: Repository, texts: list[str]) -> list[Latency]:
    """An issue text as the evaluation retrieves it (``retrieve_files``): code layers at the agent's item depth, files ranked."""

    def agent_search(text: str, params: RankingParams) -> Callable[[], object]:
        return lambda: retrieve_files(repository, text, params)

    learned, fused = RankingParams(file_ranker="learned"), RankingParams(file_ranker="fusion")
    return [
        time_calls("issue text: search + learned files", [agent_search(t, learned) for t in texts]),
        time_calls("issue text: search + fused files", [agent_search(t, fused) for t in texts]),
    ]


def time_calls(name: str, calls: list[Callable[[], object]]) -> Latency:
    latency = Latency(name)
    for call in calls[:5]:
        call()  # warm caches and the connection
    for call in calls:
        started = time.perf_counter()
        call()
        latency.seconds.append(time.perf_counter() - started)
    return latency


def retrieval_latencies(repository: Repository, queries: list[str]) -> list[Latency]:
    run = repository.active_run
    hybrid = time_calls("hybrid search (service, limit 8)", [lambda q=q: search(repository, q) for q in queries])
    out = [hybrid]
    embedder = embedder_for_index(run.embedder, run.embedding_dimension)
    dim = run.embedding_dimension

    # The floors read as many rows as each channel does, with the vector channel's search list
    # (``hnsw.ef_search``): at pgvector's default of 40 a top-60 query returns at most 40 rows.
    depth = DEFAULT_PARAMS.candidates

    def raw(sql: str, params: list) -> Callable[[], object]:
        def call():
            with hnsw_cursor(depth) as cursor:
                cursor.execute(sql, params)
                return cursor.fetchall()

        return call

    version, version_args = version_filter(run)
    if embedder is not None and dim:
        vectors = embedder.embed(queries)
        hnsw_sql = (
            f"SELECT id FROM rag_item WHERE {version} AND is_doc = false AND embedding IS NOT NULL "
            f"ORDER BY embedding::vector({dim}) <=> %s::vector({dim}) LIMIT {depth}"
        )
        out.append(time_calls(f"raw HNSW top-{depth} (floor)", [raw(hnsw_sql, [*version_args, Vector(v)]) for v in vectors]))
        embed = time_calls("query embedding alone", [lambda q=q: embedder.embed([q]) for q in queries])
        out.append(embed)
    fts_sql = (
        f"SELECT id FROM rag_item, websearch_to_tsquery('english', %s) q WHERE {version} AND search @@ q "
        f"ORDER BY ts_rank_cd(search, q) DESC LIMIT {depth}"
    )
    # The query's words, as full text sees them: punctuation in a raw text (``a-b-c-d...`` in a docstring)
    # would make phrase searches too deep for PostgreSQL's tsquery stack.
    words = [" ".join(lexical_words(q, limit=64)) for q in queries]
    out.append(time_calls(f"raw full-text top-{depth} (floor)", [raw(fts_sql, [w, *version_args]) for w in words]))
    return out


def text_search_latencies(run: IndexRun, count: int, seed: int = 7) -> list[Latency]:
    """The exact text search (``search_text``) of names the index defines, as written and as a regular expression
    of their definition, beside the hybrid search of the same names."""
    rng = random.Random(seed)
    names = list(Symbol.objects.in_version(run).exclude(path__contains="/tests/").order_by("id").values_list("name", flat=True))
    if not names:
        return []
    picked = [rng.choice(names) for _ in range(count)]
    repository = run.repository
    return [
        time_calls("hybrid search of a name", [lambda n=n: search(repository, n) for n in picked]),
        time_calls("exact text of a name", [lambda n=n: search_text(repository, n) for n in picked]),
        time_calls(
            "regular expression of a definition",
            [lambda n=n: search_text(repository, rf"^\s*(def|class) {re.escape(n)}\M", regex=True) for n in picked],
        ),
    ]


class BenchmarkError(RuntimeError):
    """The benchmark's index run failed."""


def run_benchmark(
    tree: Path, name: str, out: Callable[[str], object], *, queries: int, texts: list[str], keep: bool, reindex: bool,
    incremental: bool, runs: int, changed: int,
) -> None:
    """Index ``tree`` as ``name`` and print (through ``out``, line by line as they are known) every figure of ``bench_index``."""
    out(f"{timezone.now():%Y-%m-%d %H:%M} UTC · {platform.python_implementation()} {platform.python_version()} · tree {tree.name}")
    figures = index_tree(tree, name)
    run = figures.run
    if run.status != "ready":
        raise BenchmarkError(f"the run failed: {run.error}")
    counts = run.counts
    out(f"zip: {figures.zip_bytes / 1e6:.1f} MB in {figures.zip_seconds:.2f} s (not part of indexing)")
    out(
        f"indexed {counts['files']} files, {counts['items']} items in {figures.wall_seconds:.2f} s: "
        f"{figures.files_per_second:.0f} files/s, {figures.chunks_per_second:.0f} C0 chunks/s, "
        f"{figures.items_per_second:.0f} items/s; peak RSS {figures.peak_rss_mib:.0f} MiB; embedder {run.embedder}"
    )
    backend = "n/a" if figures.backend_cpu_seconds is None else f"{figures.backend_cpu_seconds:.2f} s"
    out(f"CPU time: this process {figures.cpu_seconds:.2f} s, its database backend {backend} (parallel index workers not included)")
    out("items per layer: " + ", ".join(f"{layer} {n}" for layer, n in run.layer_counts))
    out("time per stage: " + ", ".join(f"{stage} {seconds:.2f} s" for stage, seconds in run.stage_timings))
    if reindex:
        again, seconds = reindex_unchanged(run.repository)
        c = again.counts
        out(
            f"reindex of the unchanged tree: {seconds:.2f} s ({seconds / figures.wall_seconds:.2f}x the first run); "
            f"{c.get('files_reused', 0)} of {c.get('files', 0)} file analyses and {c.get('embeddings_reused', 0)} "
            f"embeddings reused, {c.get('embeddings_computed', 0)} computed; stages: "
            + ", ".join(f"{stage} {s:.2f} s" for stage, s in again.stage_timings)
        )
        run = again
    if incremental:
        versions = changed_versions(run.repository, tree, runs=max(runs, 1), changed=max(changed, 1))
        median = versions.median_seconds
        out(
            f"incremental versions ({len(versions.changed_files)} Python files changed each time, "
            f"{len(versions.runs)} runs): median {median:.2f} s "
            f"(runs {', '.join(f'{s:.2f}' for s in versions.seconds)}), "
            f"{median / figures.wall_seconds:.2f}x the full build above ({figures.wall_seconds:.2f} s)"
        )
        backend = (
            f"{statistics.median(versions.backend_cpu_seconds):.2f} s" if versions.backend_cpu_seconds else "n/a"
        )
        out(
            f"  median CPU time: this process {statistics.median(versions.cpu_seconds):.2f} s, "
            f"its database backend {backend} (full build: {figures.cpu_seconds:.2f} s and "
            + ("n/a" if figures.backend_cpu_seconds is None else f"{figures.backend_cpu_seconds:.2f} s")
            + ")"
        )
        out(
            "  median per stage: "
            + ", ".join(f"{stage} {versions.median_stage(stage):.2f} s" for stage, _ in versions.runs[-1].stage_timings)
        )
        out(
            f"  median items written {versions.median_count('items_sent'):.0f} of "
            f"{versions.median_count('items'):.0f}; files written {versions.median_count('files_written'):.0f} "
            f"of {versions.median_count('files'):.0f}; embeddings computed {versions.median_count('embeddings_computed'):.0f}"
        )
        run = versions.runs[-1]
    query_texts = bench_queries(run, queries)
    with connections_as_the_web_process():
        latencies = retrieval_latencies(run.repository, query_texts) + text_search_latencies(run, queries)
        if texts:
            latencies += issue_latencies(run.repository, texts)
    out(f"retrieval over {len(query_texts)} queries (p50 / p95; database connections kept as a web process keeps them):")
    floor = next((l for l in latencies if l.name.startswith("raw HNSW")), None)
    if texts:
        out(f"  (the issue-text lines: {len(texts)} issue texts, median {statistics.median(len(t) for t in texts):.0f} characters)")
    for latency in latencies:
        ratio = f"  ({latency.p95_ms / floor.p95_ms:.1f}x the HNSW floor at p95)" if floor and latency is not floor else ""
        out(f"  {latency.name:<36} {latency.p50_ms:7.2f} ms / {latency.p95_ms:7.2f} ms{ratio}")
    if not keep:
        delete_repository(run.repository)

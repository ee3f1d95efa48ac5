"""python manage.py bench_index [--path DIR] [--queries 200] [--issue-texts DATASET.jsonl [--issue-repo NAME]] [--keep] [--reindex] [--incremental [--runs 3] [--changed 3]]"""

from __future__ import annotations

import platform
import statistics
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone

from database_pool.first_run import prepare_database
from rag.benchmarks import index as benchmark
from rag.services import delete_repository


class Command(BaseCommand):
    help = "Index a real tree (default: the installed Django package) and print indexing and retrieval figures."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--path", default=None, help="directory to index (default: the installed django package)")
        parser.add_argument("--name", default="bench-django")
        parser.add_argument("--queries", type=int, default=200)
        parser.add_argument(
            "--issue-texts", default=None,
            help="also time issue-length queries: the first --queries issue texts (query) of this JSON-lines dataset, "
            "searched as the agent's search tool does (files ranked from its item depth)",
        )
        parser.add_argument("--issue-repo", default="", help="only issue texts of repositories whose name holds this")
        parser.add_argument("--keep", action="store_true", help="keep the benchmark repository afterwards")
        parser.add_argument("--reindex", action="store_true", help="also time a reindex of the unchanged tree")
        parser.add_argument(
            "--incremental", action="store_true",
            help="also time new versions of the tree with a few files changed (median, and ratio to the full build)",
        )
        parser.add_argument("--runs", type=int, default=3, help="incremental versions to time (default 3)")
        parser.add_argument("--changed", type=int, default=3, help="Python files changed in each incremental version")

    def handle(
        self, *args, path: str | None, name: str, queries: int, keep: bool, reindex: bool, incremental: bool,
        runs: int, changed: int, issue_texts: str | None, issue_repo: str, **options,
    ) -> None:
        prepare_database(self.stdout)
        texts: list[str] = []
        if issue_texts:
            try:
                texts = benchmark.issue_texts(Path(issue_texts), queries, issue_repo)
            except (OSError, ValueError) as exc:
                raise CommandError(f"cannot read issue texts from {issue_texts}: {exc}") from exc
            if not texts:
                raise CommandError(f"no issue text in {issue_texts}" + (f" of a repository named like {issue_repo!r}" if issue_repo else ""))
        tree = Path(path) if path else benchmark.django_tree()
        if not tree.is_dir():
            raise CommandError(f"{tree} is not a directory")
        out = self.stdout.write
        out(f"{timezone.now():%Y-%m-%d %H:%M} UTC · {platform.python_implementation()} {platform.python_version()} · tree {tree.name}")
        figures = benchmark.index_tree(tree, name)
        run = figures.run
        if run.status != "ready":
            raise CommandError(f"the run failed: {run.error}")
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
            again, seconds = benchmark.reindex_unchanged(run.repository)
            c = again.counts
            out(
                f"reindex of the unchanged tree: {seconds:.2f} s ({seconds / figures.wall_seconds:.2f}x the first run); "
                f"{c.get('files_reused', 0)} of {c.get('files', 0)} file analyses and {c.get('embeddings_reused', 0)} "
                f"embeddings reused, {c.get('embeddings_computed', 0)} computed; stages: "
                + ", ".join(f"{stage} {s:.2f} s" for stage, s in again.stage_timings)
            )
            run = again
        if incremental:
            versions = benchmark.changed_versions(run.repository, tree, runs=max(runs, 1), changed=max(changed, 1))
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
                f"  median items carried {versions.median_count('items_carried'):.0f}, sent "
                f"{versions.median_count('items_sent'):.0f}; files carried {versions.median_count('files_carried'):.0f} "
                f"of {versions.median_count('files'):.0f}; embeddings computed {versions.median_count('embeddings_computed'):.0f}"
            )
            run = versions.runs[-1]
        query_texts = benchmark.bench_queries(run, queries)
        latencies = benchmark.retrieval_latencies(run.repository, query_texts)
        out(f"retrieval over {len(query_texts)} queries (p50 / p95):")
        floor = next((l for l in latencies if l.name.startswith("raw HNSW")), None)
        if texts:
            latencies += benchmark.issue_latencies(run.repository, texts)
            out(f"  (the issue-text lines: {len(texts)} issue texts, median {statistics.median(len(t) for t in texts):.0f} characters)")
        for latency in latencies:
            ratio = f"  ({latency.p95_ms / floor.p95_ms:.1f}x the HNSW floor at p95)" if floor and latency is not floor else ""
            out(f"  {latency.name:<36} {latency.p50_ms:7.2f} ms / {latency.p95_ms:7.2f} ms{ratio}")
        if not keep:
            delete_repository(run.repository)

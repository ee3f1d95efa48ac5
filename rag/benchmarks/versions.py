"""What a new version of a git repository costs: ``python manage.py bench_versions``.

For a tree (by default the installed Django package) and the same tree four
times over, in a git repository on this machine that the product follows as
a local remote (``rag.services.git_sync``):

- a full build (the first sync);
- one-file commits: seconds from the sync starting to a search finding the
  function the commit added (median of ``--runs``);
- a commit touching a tenth of the files: its sync against the full build;
- retrieval latency on the versioned store (``--keep`` versions kept) next to
  the same queries on a store built whole from the same commit.

Medians, and ratios measured in the same run.
"""

from __future__ import annotations

import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from django.contrib.auth import get_user_model
from django.test import override_settings
from django.conf import settings

from llm.benchmarks.percentiles import percentile
from rag.benchmarks.index import BENCH_USER, bench_queries, retrieval_latencies
from rag.models import IndexRun, Repository
from rag.services import delete_repository, run_index, search
from rag.services.git_sync import connect_git_repository, sync_repository

GIT = ("git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", "-c", "commit.gpgsign=false")


class BenchmarkError(Exception):
    pass


def _git(work: Path, *args: str) -> str:
    return subprocess.run([*GIT, *args], cwd=work, check=True, capture_output=True, text=True).stdout


def make_work_tree(tree: Path, copies: int, into: Path) -> Path:
    """A git repository holding ``copies`` copies of ``tree`` (side by side under ``copy<i>/`` when more than one)."""
    work = into / "work"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    if copies == 1:
        shutil.copytree(tree, work, ignore=ignore, symlinks=True)
    else:
        for i in range(copies):
            shutil.copytree(tree, work / f"copy{i}" / tree.name, ignore=ignore, symlinks=True)
    _git(work, "init", "-q", "-b", "main")
    _git(work, "add", "-A")
    _git(work, "commit", "-q", "-m", "the tree")
    return work


def _python_files(work: Path) -> list[Path]:
    return sorted(p for p in work.rglob("*.py") if p.is_file() and not p.is_symlink() and ".git" not in p.parts)


def commit_change(work: Path, files: list[Path], marker: str) -> None:
    """Append a function named ``marker`` (numbered per file) to each file, and commit."""
    for i, path in enumerate(files):
        text = path.read_text(encoding="utf-8", errors="surrogateescape")
        path.write_text(
            f"{text}\n\ndef {marker}_{i}(value):\n    return value\n", encoding="utf-8", errors="surrogateescape"
        )
    _git(work, "commit", "-q", "-a", "-m", marker)


@dataclass
class SyncFigure:
    seconds: float
    run: IndexRun


@dataclass
class TreeFigures:
    label: str
    files: int
    full: SyncFigure
    one_file: list[SyncFigure] = field(default_factory=list)
    tenth: SyncFigure | None = None
    tenth_files: int = 0

    @property
    def one_file_median(self) -> float:
        return statistics.median(f.seconds for f in self.one_file)


def _timed_sync(repository: Repository, found: Callable[[], bool] | None = None) -> SyncFigure:
    """Seconds from the sync starting to ``found()`` holding (or to the sync's end without it)."""
    started = time.perf_counter()
    result = sync_repository(repository)
    if result.error or result.run is None:
        raise BenchmarkError(f"the sync failed: {result.error or 'no new version'}")
    repository.refresh_from_db()
    if found is not None and not found():
        raise BenchmarkError("the new version does not find the code its commit added")
    return SyncFigure(seconds=time.perf_counter() - started, run=result.run)


def _follow(work: Path, name: str):
    owner, _ = get_user_model().objects.get_or_create(username=BENCH_USER, defaults={"is_active": False})
    for existing in Repository.objects.filter(owner=owner, name=name):
        delete_repository(existing)
    return connect_git_repository(owner=owner, name=name, url=str(work), allow_local=True, defer=False, sync_minutes=0)


def version_costs(tree: Path, copies: int, name: str, runs: int, tenth: bool, scratch: Path) -> tuple[TreeFigures, Repository]:
    """Full build, ``runs`` one-file commits and (with ``tenth``) a commit touching a tenth of the files."""
    work = make_work_tree(tree, copies, scratch / name)
    repository = _follow(work, name)
    full = _timed_sync(repository)
    python = _python_files(work)
    figures = TreeFigures(label=name, files=int(full.run.counts.get("files", 0)), full=full)
    for version in range(runs):
        marker = f"added_in_version_{version}"
        commit_change(work, [python[(version * 7919) % len(python)]], marker)
        figures.one_file.append(
            _timed_sync(repository, lambda m=marker: any(m in item.title for item in search(repository, f"{m}_0").items))
        )
    if tenth:
        count = max(1, figures.files // 10)
        step = max(1, len(python) // count)
        touched = python[::step][:count]
        commit_change(work, touched, "added_in_a_tenth")
        figures.tenth = _timed_sync(repository)
        figures.tenth_files = len(touched)
    return figures, repository


def _stages(run: IndexRun) -> str:
    return ", ".join(f"{stage} {seconds:.2f}" for stage, seconds in run.stage_timings)


def run_benchmark(tree: Path, out: Callable[[str], object], *, runs: int, keep: int, queries: int, large: bool) -> None:
    with tempfile.TemporaryDirectory() as scratch_dir, override_settings(
        RAG={**settings.RAG, "KEEP_SUPERSEDED": keep, "GIT_ALLOW_PRIVATE_ADDRESSES": True}
    ):
        scratch = Path(scratch_dir)
        trees = [(1, "bench-versions")] + ([(4, "bench-versions-4x")] if large else [])
        results: list[TreeFigures] = []
        versioned: Repository | None = None
        for copies, name in trees:
            figures, repository = version_costs(tree, copies, name, runs, tenth=copies == 1, scratch=scratch)
            results.append(figures)
            if copies == 1:
                versioned = repository
            out(
                f"{name}: {figures.files} files; full build (first sync) {figures.full.seconds:.2f} s "
                f"[{_stages(figures.full.run)}]"
            )
            out(
                f"  one-file commit, sync start to searchable: median {figures.one_file_median:.2f} s "
                f"(runs {', '.join(f'{f.seconds:.2f}' for f in figures.one_file)}), "
                f"{figures.one_file_median / figures.full.seconds:.3f}x the full build; last run [{_stages(figures.one_file[-1].run)}]; "
                f"items written {figures.one_file[-1].run.counts.get('items_sent', 0)} of {figures.one_file[-1].run.counts.get('items', 0)}"
            )
            if figures.tenth is not None:
                out(
                    f"  commit touching {figures.tenth_files} files (a tenth): {figures.tenth.seconds:.2f} s, "
                    f"{figures.tenth.seconds / figures.full.seconds:.2f}x the full build [{_stages(figures.tenth.run)}]; "
                    f"items written {figures.tenth.run.counts.get('items_sent', 0)} of {figures.tenth.run.counts.get('items', 0)}"
                )
        if len(results) == 2:
            out(
                f"one-file commit, side by side: {results[0].one_file_median:.2f} s ({results[0].files} files) and "
                f"{results[1].one_file_median:.2f} s ({results[1].files} files)"
            )
        if versioned is not None and queries:
            _latency_side_by_side(versioned, queries, keep, out)


def _latency_side_by_side(versioned: Repository, queries: int, keep: int, out: Callable[[str], object]) -> None:
    """The same queries on the versioned store and on a store built whole from the same commit."""
    versioned.refresh_from_db()
    run = versioned.active_run
    kept = versioned.runs.filter(has_items=True).count()
    with override_settings(RAG={**settings.RAG, "REWRITE_SHARE": 0.0}):
        whole = IndexRun.objects.create(
            repository=versioned, trigger=IndexRun.Trigger.SYNC, commit_sha=run.commit_sha,
            commit_message=run.commit_message, archive_name=run.archive_name, archive_path="", archive_sha256="",
            created_by=versioned.owner,
        )
        whole = run_index(whole.pk)
    if whole.status != IndexRun.Status.READY:
        raise BenchmarkError(f"the whole build failed: {whole.error}")
    texts = bench_queries(run, queries)
    labels = {run.pk: f"versioned store ({kept} versions kept)", whole.pk: "store built whole"}
    seconds: dict[int, list[float]] = {run.pk: [], whole.pk: []}
    # Two rounds, alternating, so both stores see the same machine.
    for version in (run, whole, run, whole):
        Repository.objects.filter(pk=versioned.pk).update(active_run=version)
        versioned.refresh_from_db()
        hybrid = next(l for l in retrieval_latencies(versioned, texts) if l.name.startswith("hybrid"))
        seconds[version.pk] += hybrid.seconds
    Repository.objects.filter(pk=versioned.pk).update(active_run=whole)
    out(f"retrieval over {len(texts)} queries, two alternating rounds, hybrid search (p50 / p95):")
    figures = {pk: (statistics.median(s) * 1000, percentile(s, 95) * 1000) for pk, s in seconds.items()}
    for pk, (p50, p95) in figures.items():
        out(f"  {labels[pk]:<34} {p50:7.2f} ms / {p95:7.2f} ms")
    out(
        f"  ratio versioned / whole: p50 {figures[run.pk][0] / figures[whole.pk][0]:.2f}x, "
        f"p95 {figures[run.pk][1] / figures[whole.pk][1]:.2f}x"
    )

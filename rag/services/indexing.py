"""An index run: archive -> files -> layers -> embeddings -> a new index version.

``run_index`` is what the worker executes. It writes its progress to the run
as it goes, and ends in one of two ways: the new version becomes active
(``activate_index``), or the run is marked failed with a plain-words error and
everything it wrote is dropped, so the previous version keeps serving.

One function per stage, in ``rag.models.STAGE_ORDER``: ``_extract`` (the
files), ``_analyze`` (the analysis, the write plan and the items),
``_embed``, ``_load`` (the rows), ``_build_indexes``; then ``_activate``.
Each stage is timed on the run and hands the next a frozen value; what the
run reports on its row as it goes (stage, progress, timings, counts) is kept
by ``Progress``. The items and their hashes are derived in
``rag.services.index_items``.

A version is written in one of two ways (``rag.storage``): into the store of
the version before it, when that version was built by the same embedder and
item format and few files changed, writing the rows of the files whose rows
differ (``file_digest`` tells) and ending the rows they replace; or as a new
store, every row sent and its indexes built after the load.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from cachetools import LRUCache
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from rag import storage
from rag.analysis import analyze_repository, extract_file, file_analysis_from_dict, file_analysis_to_dict
from rag.analysis.results import FileAnalysis, RepositoryAnalysis
from rag.embeddings import Embedder, EmbeddingUnavailable, configured_embedder
from rag.intake import Extraction, IntakeError
from rag.models import LAYERS, STAGE_ORDER, IndexRun, Repository
from rag.services.index_items import (
    ITEM_FORMAT,
    RESOLVED_LAYERS,
    ItemRow,
    embed_items,
    file_digest,
    item_rows,
    items_of,
    prepare_items,
)
from rag.services.repositories import BaseVersionChanged, RunCancelled, activate_index, drop_run_rows, prune_superseded
from rag.sources import read_run_files

logger = logging.getLogger(__name__)

# Share of the progress bar each stage fills.
STAGE_SHARES = dict(zip(STAGE_ORDER, (0.10, 0.20, 0.25, 0.25, 0.20)))
# A version written into a store that writes or ends at least this share of its rows
# refreshes the store's statistics: stale ones made retrieval plans about 5% slower.
ANALYZE_SHARE = 0.05

# Reports a stage's progress: the share of it done, and a detail for the page.
StepReport = Callable[..., None]


class IndexRunFailed(Exception):
    """A run that cannot complete; the message is shown on the page."""


class Progress:
    """Writes stage, progress and timings to the run row as the work goes, and keeps the run's counts.

    The counts and timings are recorded on the run when it ends, however it ends.
    """

    def __init__(self, run: IndexRun) -> None:
        self.run = run
        self.timings: dict[str, float] = {}
        self.counts: dict[str, int] = {}
        self._started = time.perf_counter()
        self._base = 0.0
        self._last_write = 0.0

    def _write(self, fraction: float, stage: str, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self._last_write < 0.3:
            return
        self._last_write = now
        IndexRun.objects.filter(pk=self.run.pk).update(
            progress=min(max(fraction, 0.0), 0.99), stage=stage[:200], timings=self.timings
        )

    @contextmanager
    def stage(self, name: str, label: str) -> Iterator[StepReport]:
        status = IndexRun.objects.values_list("status", flat=True).get(pk=self.run.pk)
        if status != IndexRun.Status.RUNNING:
            raise RunCancelled(f"run {self.run.pk} is {status}")
        share = STAGE_SHARES[name]
        base = self._base
        self._write(base, label, force=True)
        started = time.perf_counter()

        def step(done: float, detail: str = "") -> None:
            self._write(base + share * min(done, 1.0), f"{label} {detail}".strip())

        yield step
        self.timings[name] = round(time.perf_counter() - started, 3)
        self._base = base + share
        self._write(self._base, label, force=True)

    def time_total(self) -> None:
        self.timings["total"] = round(time.perf_counter() - self._started, 3)


@dataclass(frozen=True)
class Plan:
    """How a version is written: into ``base``'s store (only ``dirty`` files) or as a new store (``base`` None)."""

    base: IndexRun | None
    # Files whose rows are written: every file for a new store.
    dirty: frozenset[str] = frozenset()
    # Files of ``base`` whose every row ends (changed text, or gone).
    replaced: frozenset[str] = frozenset()
    # Files with the same text whose resolved rows changed: their chunk rows stay.
    re_resolved: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Analysed:
    """What a version writes: the repository's analysis, the plan, and the items of the files written."""

    analysis: RepositoryAnalysis
    plan: Plan
    # path -> rows digest, of every file written (and of more files when they were all computed).
    digests: dict[str, str]
    # Their embeddings are filled in by the embed stage.
    items: list[ItemRow]


@dataclass(frozen=True)
class Embedded:
    """The embed stage's result: the version to write, with its vectors unless ``error`` says why not."""

    # The analysed version; a new store's when embeddings failed on a write into a store.
    written: Analysed
    computed: int
    # Empty, or why this version answers with full-text and symbol search only.
    error: str
    dimension: int | None


@dataclass(frozen=True)
class RecentAnalysis:
    """The analyses of the newest version a process built of a repository, without their chunks."""

    run_id: int
    # Each file's per-file pass, and the same after the repository pass.
    extracted: dict[str, FileAnalysis]
    resolved: dict[str, FileAnalysis]


# A worker takes a repository's runs one at a time, so the version it builds next is
# usually built on the one it built last: its analyses are kept here and not read back
# from the database. A few repositories per process bound the memory.
RECENT_ANALYSES: LRUCache = LRUCache(maxsize=4)


def run_index(run_id: int, *, embedder: Embedder | None = None) -> IndexRun:
    """Build the run's index version and activate it, or fail it leaving the previous one serving.

    Precondition: called outside a transaction (progress must be visible while it runs).
    Idempotent for finished runs: a ready, failed or superseded run is returned unchanged.
    """
    run = IndexRun.objects.select_related("repository", "repository__active_run").get(pk=run_id)
    if run.is_finished:
        return run
    if not _start(run):
        # Cancelled between reading the run and starting it.
        run.refresh_from_db()
        return run
    embedder = embedder or configured_embedder()
    progress = Progress(run)
    try:
        extraction = _extract(run, progress)
        previous = _previous_ready_run(run.repository, run)
        analysed = _analyze(run, extraction, previous, embedder, progress)
        embedded = _embed(run, extraction, previous, analysed, embedder, progress)
        _load(run, extraction, previous, embedded, progress)
        _build_indexes(run, embedded, progress)
        run = _activate(run, embedded, progress)
        prune_superseded(run.repository)
        return run
    except RunCancelled:
        return _drop_cancelled(run, progress)
    except Exception as exc:
        return _fail(run, progress, exc)


def _start(run: IndexRun) -> bool:
    """Mark a queued or running run as running from now; False when it was cancelled meanwhile."""
    return bool(
        IndexRun.objects.filter(pk=run.pk, status__in=[IndexRun.Status.QUEUED, IndexRun.Status.RUNNING]).update(
            status=IndexRun.Status.RUNNING, started_at=timezone.now(), error="", progress=0.0, stage="starting"
        )
    )


def _extract(run: IndexRun, progress: Progress) -> Extraction:
    """The text files of the run's source (the skipped ones reported on the run)."""
    with progress.stage("extract", "reading the commit" if run.commit_sha else "reading the archive"):
        extraction = read_run_files(run)
        progress.counts["files"] = len(extraction.files)
        progress.counts["files_with_replaced_bytes"] = extraction.replaced
        progress.counts["skipped"] = len(extraction.skipped)
        IndexRun.objects.filter(pk=run.pk).update(skipped=extraction.skipped_report())
        if not extraction.files:
            raise IndexRunFailed(
                f"The archive has no text files to index ({len(extraction.skipped)} skipped; see the skipped files)."
            )
    return extraction


def _analyze(
    run: IndexRun, extraction: Extraction, previous: IndexRun | None, embedder: Embedder, progress: Progress
) -> Analysed:
    """Analyse the files (reusing the previous version's analyses of unchanged ones) and plan the write."""
    with progress.stage("analyze", "analysing files"):
        counts = progress.counts
        old_files = _file_hashes(previous)
        unchanged = {f.path for f in extraction.files if old_files.get(f.path, ("",))[0] == f.content_hash}
        counts["files_unchanged"] = len(unchanged)
        base = previous if _writes_into(previous, extraction, len(unchanged), embedder) else None
        # Into a store, the chunk rows of an unchanged file stay where they are, so its
        # chunks are not even read back (nor read at all when this process built the base).
        recent = RECENT_ANALYSES.get(run.repository_id) if base is not None else None
        if recent is not None and recent.run_id != base.pk:
            recent = None
        earlier: dict[str, FileAnalysis] = {}
        if recent is not None:
            earlier = {path: recent.extracted[path] for path in unchanged if path in recent.extracted}
        elif previous is not None:
            earlier = _stored_analyses(previous, unchanged, without_chunks=base is not None)
        analysis = analyze_repository({f.path: f.text for f in extraction.files}, previous=earlier)
        counts["files_reused"] = len(analysis.reused)
        files = analysis.files
        counts["analysis_errors"] = sum(1 for fa in files.values() if fa.error)
        counts["references_unresolved"] = analysis.unresolved
        # Files whose text is the same but whose rows changed through the other files.
        if recent is not None:
            re_resolved = frozenset(p for p in analysis.reused if not _same_resolution(files[p], recent.resolved.get(p)))
            digests = {}
        else:
            digests = {path: file_digest(fa, embedder.name) for path, fa in files.items()}
            re_resolved = frozenset(p for p in analysis.reused if digests[p] != old_files[p][1])
        plan = _plan(base, files, analysis.reused, re_resolved, frozenset(old_files))
        for path in plan.dirty - digests.keys():
            digests[path] = file_digest(files[path], embedder.name)
        return _analysed(analysis, plan, digests, embedder)


def _embed(
    run: IndexRun,
    extraction: Extraction,
    previous: IndexRun | None,
    analysed: Analysed,
    embedder: Embedder,
    progress: Progress,
) -> Embedded:
    """Fill the items' embeddings, reusing the previous version's by hash; without them when the embedder fails."""
    with progress.stage("embed", "embedding") as step:
        written = analysed
        reuse: dict[str, Any] = {}
        if previous is not None and previous.embedder == embedder.name:
            reuse = storage.existing_embeddings(previous.store_id, [i.embed_hash for i in written.items if i.embed_hash])
        embedding_error = ""
        try:
            computed, _ = embed_items(written.items, embedder, reuse, step)
        except EmbeddingUnavailable as exc:
            embedding_error = f"Embeddings failed, so this index answers with full-text and symbol search only: {exc}"
            computed = 0
            if written.plan.base is not None:
                written = _as_new_store(extraction, written, embedder)
            for item in written.items:
                item.embedding = None
        progress.counts["embeddings_computed"] = computed
        dimension = embedder.dimension if not embedding_error else None
        IndexRun.objects.filter(pk=run.pk).update(
            embedder=embedder.name if not embedding_error else "",
            embedding_dimension=dimension,
            embedding_error=embedding_error,
        )
    return Embedded(written=written, computed=computed, error=embedding_error, dimension=dimension)


def _load(
    run: IndexRun, extraction: Extraction, previous: IndexRun | None, embedded: Embedded, progress: Progress
) -> None:
    """Write the version's rows (into its base's store, or into a new one) and count them."""
    with progress.stage("load", "loading into the database") as step:
        counts = progress.counts
        written = embedded.written
        counts["files_written"] = len(written.plan.dirty)
        if written.plan.base is not None:
            _write_into_store(run, written, extraction, previous, counts)
        else:
            _write_new_store(run, written, extraction, previous, counts, not embedded.error, step)
        layers, vectors = storage.layer_counts(run)
        # Every vector of the version not computed now was reused, written again or shared.
        counts["embeddings_reused"] = vectors - embedded.computed
        counts["items"] = sum(layers.values())
        counts.update(dict.fromkeys(LAYERS, 0) | layers)
        counts["symbols"] = run.symbols.count()
        counts["edges"] = run.edges.count()
        counts["entrypoints"] = run.entrypoints.count()


def _build_indexes(run: IndexRun, embedded: Embedded, progress: Progress) -> None:
    """A new store's indexes, its common words, and its attachment; a version in its base's store keeps the base's words."""
    with progress.stage("index", "building search indexes"):
        base = embedded.written.plan.base
        if base is None:
            storage.build_partition_indexes(run.pk, embedded.dimension)
            common_words = storage.common_lexemes(run.pk)
            storage.count_common_words(run, common_words)
            storage.attach_partition(run.pk)
        else:
            common_words = base.common_words
        IndexRun.objects.filter(pk=run.pk).update(common_words=common_words)


def _activate(run: IndexRun, embedded: Embedded, progress: Progress) -> IndexRun:
    """Record the run's counts and timings and switch the repository to its version (``activate_index``)."""
    progress.time_total()
    IndexRun.objects.filter(pk=run.pk).update(
        counts=progress.counts, timings=progress.timings, has_items=True, item_format=ITEM_FORMAT
    )
    written = embedded.written
    run = activate_index(run, built_on=written.plan.base)
    if run.status == IndexRun.Status.READY and not embedded.error:
        RECENT_ANALYSES[run.repository_id] = RecentAnalysis(
            run_id=run.pk,
            extracted=_without_chunks(written.analysis.extracted),
            resolved=_without_chunks(written.analysis.files),
        )
    return run


def _drop_cancelled(run: IndexRun, progress: Progress) -> IndexRun:
    # Cancelled meanwhile: the run row already says so; drop what was built.
    drop_run_rows(run)
    IndexRun.objects.filter(pk=run.pk).update(counts=progress.counts, timings=progress.timings)
    run.refresh_from_db()
    return run


def _fail(run: IndexRun, progress: Progress, exc: Exception) -> IndexRun:
    """Mark the run failed with a plain-words error and drop what it wrote. Called while ``exc`` is handled."""
    if isinstance(exc, (IndexRunFailed, IntakeError, BaseVersionChanged)):
        message = getattr(exc, "message", None) or str(exc)
    else:
        logger.exception("index run %s failed", run.pk)
        message = f"Indexing failed unexpectedly ({exc.__class__.__name__}: {exc}). The previous index, if any, is still in use."
    progress.time_total()
    try:
        drop_run_rows(run)
    except Exception:
        logger.exception("could not drop the rows of failed run %s", run.pk)
    IndexRun.objects.filter(pk=run.pk).update(
        status=IndexRun.Status.FAILED, error=message, finished_at=timezone.now(), counts=progress.counts,
        timings=progress.timings, stage="failed",
    )
    run.refresh_from_db()
    return run


def _previous_ready_run(repository: Repository, run: IndexRun) -> IndexRun | None:
    active = repository.active_run
    if active is None or active.pk == run.pk or not active.has_items or active.status != IndexRun.Status.READY:
        return None
    return active


def _file_hashes(previous: IndexRun | None) -> dict[str, tuple[str, str]]:
    """path -> (content hash, rows digest) of the previous version's files."""
    if previous is None:
        return {}
    return {path: (h, d) for path, h, d in previous.files.values_list("path", "content_hash", "rows_digest")}


def _writes_into(previous: IndexRun | None, extraction: Extraction, unchanged: int, embedder: Embedder) -> bool:
    """Whether the version is written into the previous version's store.

    That version's vectors were made by this embedder (a version without
    vectors records none), its rows derived the same way, and few enough files changed.
    """
    return (
        previous is not None and previous.store_id is not None and previous.embedder == embedder.name
        and previous.item_format == ITEM_FORMAT
        and settings.RAG["REWRITE_SHARE"] > 0
        and len(extraction.files) - unchanged <= settings.RAG["REWRITE_SHARE"] * len(extraction.files)
    )


def _stored_analyses(previous: IndexRun, paths: set[str], *, without_chunks: bool) -> dict[str, FileAnalysis]:
    """The per-file analyses the previous version stored for ``paths`` (those that can be restored)."""
    earlier: dict[str, FileAnalysis] = {}
    for path, stored in storage.stored_analyses(previous, paths, without_chunks=without_chunks).items():
        restored = file_analysis_from_dict(stored) if stored else None
        if restored is not None:
            earlier[path] = restored
    return earlier


def _analysed(analysis: RepositoryAnalysis, plan: Plan, digests: dict[str, str], embedder: Embedder) -> Analysed:
    """The version with the items of its written files, their row hashes and derived columns computed."""
    items = items_of(plan.dirty, analysis.files)
    prepare_items(items, embedder.name)
    return Analysed(analysis=analysis, plan=plan, digests=digests, items=items)


def _as_new_store(extraction: Extraction, analysed: Analysed, embedder: Embedder) -> Analysed:
    """The same version planned as a new store, the chunks of the files left unread read now.

    A store holds one embedder's vectors: a version without any is a new store.
    """
    analysis = analysed.analysis
    texts = {f.path: f.text for f in extraction.files}
    full = {
        path: (fa if fa.chunks or path not in analysis.reused else replace(fa, chunks=extract_file(path, texts[path]).chunks))
        for path, fa in analysis.files.items()
    }
    digests = {path: file_digest(fa, embedder.name) for path, fa in full.items()}
    plan = _plan(None, full, analysis.reused, frozenset(), frozenset())
    return _analysed(replace(analysis, files=full), plan, digests, embedder)


def _plan(
    base: IndexRun | None, files: dict[str, FileAnalysis], reused: frozenset[str], re_resolved: frozenset[str],
    old_paths: frozenset[str],
) -> Plan:
    if base is None:
        return Plan(base=None, dirty=frozenset(files))
    changed = frozenset(path for path in files if path not in reused)
    gone = old_paths - frozenset(files)
    return Plan(base=base, dirty=changed | re_resolved, replaced=changed | gone, re_resolved=re_resolved)


def _without_chunks(analyses: dict[str, FileAnalysis]) -> dict[str, FileAnalysis]:
    return {path: (replace(fa, chunks=[]) if fa.chunks else fa) for path, fa in analyses.items()}


def _same_resolution(a: FileAnalysis, b: FileAnalysis | None) -> bool:
    return b is not None and a.symbols == b.symbols and a.edges == b.edges and a.entrypoints == b.entrypoints


def _set_store(run: IndexRun, store_id: int) -> None:
    run.store_id = store_id
    IndexRun.objects.filter(pk=run.pk).update(store_id=store_id)


def _write_into_store(
    run: IndexRun, written: Analysed, extraction: Extraction, previous: IndexRun, counts: dict[str, int]
) -> None:
    """Write the version into its base's store in one transaction: new rows of the dirty files, the replaced ones ended."""
    plan = written.plan
    base = plan.base
    with transaction.atomic():
        # One writer per store at a time, and only on the store's newest version: two versions
        # written on the same base would end each other's rows.
        storage.lock_store(base.store_id)
        written_since = IndexRun.objects.filter(store_id=base.store_id, pk__gt=base.pk).exclude(pk=run.pk)
        if written_since.exclude(status=IndexRun.Status.FAILED).exists():
            raise BaseVersionChanged("Another index version was written on the same version meanwhile; run the indexing again.")
        _set_store(run, base.store_id)
        ended = storage.retire_rows(base, run, sorted(plan.replaced))
        ended += storage.retire_rows(base, run, sorted(plan.re_resolved), item_layers=RESOLVED_LAYERS)
        counts["items_sent"] = storage.insert_items(item_rows(run, written.items, with_vectors=True))
        counts["items_ended"] = ended
        # Common words per file: the base's rows of the files kept, new rows of the files rewritten;
        # of every file when the base has no complete counts (built before they were kept).
        if storage.has_common_word_counts(base):
            storage.count_common_words(run, base.common_words, plan.replaced | plan.re_resolved)
        else:
            storage.end_common_word_counts(base, run)
            storage.count_common_words(run, base.common_words)
        _load_relational(run, extraction, written, previous)
    # The planner's statistics of the store, once a write changed a sizeable share of it
    # (autovacuum's own threshold is a tenth of the rows; small pushes leave it to that).
    if counts["items_sent"] + ended >= ANALYZE_SHARE * max(int(base.counts.get("items", 0)), 1):
        storage.analyze_store(base.store_id)


def _write_new_store(
    run: IndexRun, written: Analysed, extraction: Extraction, previous: IndexRun | None, counts: dict[str, int],
    with_vectors: bool, step: StepReport,
) -> None:
    """Load every row into a new, still detached store (its indexes are built next)."""
    _set_store(run, run.pk)
    storage.create_partition(run.pk)
    counts["items_sent"] = storage.copy_items(run.pk, item_rows(run, written.items, with_vectors=with_vectors))
    step(0.5)
    storage.seal_partition(run.pk)
    _load_relational(run, extraction, written, previous)


def _line_count(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def _load_relational(run: IndexRun, extraction: Extraction, written: Analysed, previous: IndexRun | None) -> None:
    """Files, symbols, edges and entrypoints rows of the files written, as version ``run``.

    The file row of a file whose per-file analysis was reused from
    ``previous`` is copied from that version inside the database (text and
    stored analysis), with its new digest; the others are sent.
    """
    store_id, since = run.store_id, run.pk
    analysis, digests, paths = written.analysis, written.digests, written.plan.dirty
    files, extracted = analysis.files, analysis.extracted
    wanted = [f for f in extraction.files if f.path in paths]
    copied = [f.path for f in wanted if f.path in analysis.reused] if previous is not None else []
    sent = [f for f in wanted if previous is None or f.path not in analysis.reused]
    storage.copy_rows(
        "rag_sourcefile",
        ("store_id", "since_run", "path", "content_hash", "language", "size", "line_count", "replaced_bytes", "text",
         "analysis", "rows_digest"),
        (
            (store_id, since, f.path, f.content_hash, files[f.path].language, f.size, _line_count(f.text),
             f.replaced_bytes, f.text, storage.dumps_json(file_analysis_to_dict(extracted[f.path])), digests[f.path])
            for f in sent
        ),
    )
    if copied and storage.copy_file_rows(previous, run, {path: digests[path] for path in copied}) != len(copied):
        raise IndexRunFailed("The previous index version changed while this one was built; run the indexing again.")
    analyses = [files[f.path] for f in wanted]
    symbols = [s for fa in analyses for s in fa.symbols]
    edges = [e for fa in analyses for e in fa.edges]
    entrypoints = [e for fa in analyses for e in fa.entrypoints]
    storage.copy_rows(
        "rag_symbol",
        ("store_id", "since_run", "qname", "name", "kind", "path", "module", "start_line", "end_line", "signature",
         "docstring", "decorators", "parent", "is_async", "is_entry_candidate"),
        ((store_id, since, s.qname, s.name, s.kind, s.path, s.module, s.start_line, s.end_line, s.signature,
          s.docstring, list(s.decorators), s.parent, s.is_async, s.is_entry_candidate) for s in symbols),
        json_columns=("decorators",),
    )
    storage.copy_rows(
        "rag_edge",
        ("store_id", "since_run", "kind", "src", "dst", "raw", "resolution", "path", "line"),
        ((store_id, since, e.kind, e.src, e.dst, e.raw, e.resolution, e.path, e.line) for e in edges),
    )
    storage.copy_rows(
        "rag_entrypoint",
        ("store_id", "since_run", "entry_type", "framework", "route_or_command", "methods", "handler", "handler_raw",
         "path", "start_line", "end_line"),
        ((store_id, since, e.entry_type, e.framework, e.route_or_command, list(e.methods), e.handler, e.handler_raw,
          e.path, e.start_line, e.end_line) for e in entrypoints),
        json_columns=("methods",),
    )

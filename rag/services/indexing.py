"""The body of an index run: archive -> files -> layers -> embeddings -> a new index version.

``run_index`` is what the worker executes. It writes its progress to the run
as it goes, and ends in one of two ways: the new version becomes active
(``activate_index``), or the run is marked failed with a plain-words error and
everything it wrote is dropped, so the previous version keeps serving.

A version is written in one of two ways (``rag.storage``): into the store of
the version before it, when that version was built by the same embedder and
item format and few files changed, writing the rows of the files whose rows
differ (``file_digest`` tells) and ending the rows they replace; or as a new
store, every row sent and its indexes built after the load.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
from cachetools import LRUCache
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from rag import storage, terms
from rag.analysis import analyze_repository, extract_file, file_analysis_from_dict, file_analysis_to_dict
from rag.analysis.records import Chunk, Edge as EdgeRecord, Entrypoint as EntrypointRecord, Symbol as SymbolRecord
from rag.analysis.results import FileAnalysis, RepositoryAnalysis
from rag.embeddings import Embedder, EmbeddingUnavailable, configured_embedder
from rag.intake import Extraction, IntakeError
from rag.models import LAYERS, STAGE_ORDER, IndexRun, Repository
from rag.services.repositories import BaseVersionChanged, RunCancelled, activate_index, drop_run_rows, prune_superseded
from rag.sources import read_run_files
from rag.terms import identifier_counts, looks_like_test_path, split_terms

logger = logging.getLogger(__name__)

# Share of the progress bar each stage fills.
STAGE_SHARES = dict(zip(STAGE_ORDER, (0.10, 0.20, 0.25, 0.25, 0.20)))
EDGE_ITEM_LIMIT = 200
# Bump when this module derives a stored item column differently from the same item.
ITEM_ROW_VERSION = 1
# Part of every row hash and file digest: a row shared with the previous version must hold
# exactly what a full build would store, and the derived columns (terms, is_test) come from
# rag.terms and the tsvector from the search expression, so a change to either shares nothing.
# (Query analysis lives in rag.query_analysis: changing how queries are read re-derives nothing.)
_ROW_HASH_SALT = hashlib.blake2b(
    f"{ITEM_ROW_VERSION}\x00{storage.SEARCH_EXPRESSION}\x00".encode() + Path(terms.__file__).read_bytes()
).digest()
# Recorded on each run: a version is written into the store of one of the same format only.
ITEM_FORMAT = _ROW_HASH_SALT.hex()[:32]
# The layers whose items come from a file's chunks alone (the per-file pass), so an
# unchanged file has the same rows in them.
CHUNK_LAYERS = ("C0_SOURCE_CHUNKS", "D0_DOCS")
# A version written into a store that writes or ends at least this share of its rows
# refreshes the store's statistics: stale ones made retrieval plans about 5% slower.
ANALYZE_SHARE = 0.05
# The layers whose items also depend on other files (through the repository pass).
RESOLVED_LAYERS = tuple(layer for layer in LAYERS if layer not in CHUNK_LAYERS)


class IndexRunFailed(Exception):
    """A run that cannot complete; the message is shown on the page."""


@dataclass
class ItemRow:
    layer: str
    path: str
    start_line: int
    end_line: int
    title: str
    content: str
    metadata: dict[str, Any]
    qname: str = ""
    file_hash: str = ""
    # What the embedder sees; empty for items that are only found lexically (C2).
    embed_text: str = ""
    embed_hash: str = ""
    embedding: np.ndarray | None = field(default=None, repr=False)
    # Identifier occurrences of the content, and of what is embedded; computed once, used for
    # the hashing embedder, the full-text terms and document frequencies, then dropped.
    identifiers: Counter | None = field(default=None, repr=False)
    embed_counts: Counter | None = field(default=None, repr=False)
    # Identifies the stored values of the row (``row_hash``), so two versions' rows can be compared.
    row_hash: str = ""


class Progress:
    """Writes stage, progress and timings to the run row as the work goes."""

    def __init__(self, run: IndexRun) -> None:
        self.run = run
        self.timings: dict[str, float] = {}
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
    def stage(self, name: str, label: str) -> Iterator[callable]:
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


def embed_hash(embedder_name: str, text: str) -> str:
    return hashlib.blake2b(f"{embedder_name}\x00{text}".encode(), digest_size=16).hexdigest()


def row_hash(item: ItemRow, embedder_name: str) -> str:
    """A hash of what determines every stored column of the item's row (vector included, through the embedder)."""
    digest = hashlib.blake2b(_ROW_HASH_SALT, digest_size=16)
    for part in (
        embedder_name, item.layer, item.path, f"{item.start_line}:{item.end_line}", item.title, item.content,
        # Sorted keys: a restored analysis comes from jsonb, which does not keep key order. (Any
        # other difference in the repr, a tuple for a list, can only make a row be sent again.)
        repr(sorted(item.metadata.items())), item.qname, item.file_hash, item.embed_text,
    ):
        data = part.encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def derive_columns(item: ItemRow, embedder_name: str) -> None:
    """Identifier counts and the embedding hash of an item whose row this version writes."""
    item.identifiers = identifier_counts(item.content)
    if item.embed_text:
        item.embed_hash = embed_hash(embedder_name, item.embed_text)
        item.embed_counts = item.identifiers
        if item.embed_text != item.content:
            item.embed_counts = item.identifiers + identifier_counts(item.title)


def prepare_items(items: Sequence[ItemRow], embedder_name: str) -> None:
    """Each item's row hash and derived columns."""
    for item in items:
        item.row_hash = row_hash(item, embedder_name)
        derive_columns(item, embedder_name)


def file_digest(analysis: FileAnalysis, embedder_name: str) -> str:
    """A digest of everything the rows derived from a file depend on, after the repository pass.

    Its text (through the content hash), its symbols, edges and entrypoints as
    resolved against the other files, the embedder and the item format. Two
    versions with the same digest for a file whose analysis was reused store
    the same rows for it.
    """
    digest = hashlib.blake2b(_ROW_HASH_SALT, digest_size=16)
    for part in (
        embedder_name, analysis.path, analysis.content_hash, analysis.language, analysis.artifact_type,
        analysis.error or "", repr(analysis.symbols), repr(analysis.edges), repr(analysis.entrypoints),
    ):
        data = str(part).encode("utf-8", "surrogatepass")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


def _short_name(qname: str) -> str:
    return qname.rsplit(".", 1)[-1].lower() if qname else ""


def _symbol_text(symbol: SymbolRecord) -> str:
    lines = [f"{symbol.kind} {symbol.qname}"]
    if symbol.signature:
        lines.append(symbol.signature)
    lines.extend(f"@{d}" for d in symbol.decorators)
    if symbol.parent:
        lines.append(f"member of {symbol.parent}")
    lines.append(f"module {symbol.module}")
    if symbol.docstring:
        lines.append(symbol.docstring)
    return "\n".join(lines)


def _entrypoint_title(entry: EntrypointRecord) -> str:
    methods = ",".join(entry.methods)
    prefix = f"{methods} " if methods else ""
    target = f" -> {entry.handler}" if entry.handler else ""
    return f"{prefix}{entry.route_or_command}{target}"


def chunk_items(analysis: FileAnalysis) -> list[ItemRow]:
    """The items of a file's chunks (``CHUNK_LAYERS``)."""
    items: list[ItemRow] = []
    chunk: Chunk
    for chunk in analysis.chunks:
        qname = str(chunk.metadata.get("symbol") or "")
        items.append(
            ItemRow(
                layer=chunk.layer, path=chunk.path, start_line=chunk.start_line, end_line=chunk.end_line,
                title=chunk.title, content=chunk.content, metadata=dict(chunk.metadata), qname=qname,
                embed_text=f"{chunk.title}\n{chunk.content}", file_hash=analysis.content_hash,
            )
        )
    return items


def items_for_file(analysis: FileAnalysis, symbols_by_qname: dict[str, SymbolRecord]) -> list[ItemRow]:
    """The retrievable items of one analysed file, every layer."""
    items = chunk_items(analysis)
    for symbol in analysis.symbols:
        text = _symbol_text(symbol)
        items.append(
            ItemRow(
                layer="C1_SYMBOL_CATALOG", path=symbol.path, start_line=symbol.start_line, end_line=symbol.end_line,
                title=symbol.qname, content=text, qname=symbol.qname,
                metadata={
                    "qname": symbol.qname, "name": symbol.name, "kind": symbol.kind, "signature": symbol.signature,
                    "decorators": list(symbol.decorators), "docstring": symbol.docstring, "parent": symbol.parent,
                    "module": symbol.module, "is_entry_candidate": symbol.is_entry_candidate, "is_async": symbol.is_async,
                },
            )
        )
    by_source: dict[str, list[EdgeRecord]] = defaultdict(list)
    for edge in analysis.edges:
        by_source[edge.src].append(edge)
    for src, edges in by_source.items():
        owner = symbols_by_qname.get(src)
        if owner is not None and owner.path == analysis.path:
            start, end = owner.start_line, owner.end_line
        else:
            start, end = min(e.line for e in edges), max(e.line for e in edges)
        lines = [f"{src}"]
        lines.extend(
            f"  {e.kind} {e.dst or e.raw}" + ("" if e.resolution == "resolved" else " (unresolved)")
            for e in edges[:EDGE_ITEM_LIMIT]
        )
        items.append(
            ItemRow(
                layer="C2_DEPENDENCY_GRAPH", path=analysis.path, start_line=start, end_line=end,
                title=f"{src} dependencies", content="\n".join(lines), qname=src,
                metadata={
                    "source": src,
                    "edges": [
                        {"kind": e.kind, "dst": e.dst, "raw": e.raw, "resolution": e.resolution, "line": e.line}
                        for e in edges[:EDGE_ITEM_LIMIT]
                    ],
                    "edge_count": len(edges),
                },
            )
        )
    for entry in analysis.entrypoints:
        title = _entrypoint_title(entry)
        content = (
            f"{entry.entry_type} ({entry.framework}): {entry.route_or_command}\n"
            + (f"methods: {', '.join(entry.methods)}\n" if entry.methods else "")
            + (f"handler: {entry.handler}" if entry.handler else "handler: unresolved")
        )
        items.append(
            ItemRow(
                layer="C3_ENTRYPOINTS", path=entry.path, start_line=entry.start_line, end_line=entry.end_line,
                title=title, content=content, qname=entry.handler or "", embed_text=content,
                metadata={
                    "entry_type": entry.entry_type, "framework": entry.framework,
                    "route_or_command": entry.route_or_command, "methods": list(entry.methods), "handler": entry.handler,
                },
            )
        )
    for item in items:
        item.file_hash = analysis.content_hash
    return items


def embed_items(
    items: Sequence[ItemRow],
    embedder: Embedder,
    reuse: dict[str, Any],
    step,
    batch_size: int = 256,
) -> tuple[int, int]:
    """Fill ``item.embedding``: reused by hash where possible, else computed in batches.

    Returns (computed, reused). Raises ``EmbeddingUnavailable`` when the
    embedder fails; the caller then keeps the run lexical-only.
    """
    counted = hasattr(embedder, "embed_counts")
    pending: dict[str, list[ItemRow]] = defaultdict(list)
    reused = 0
    for item in items:
        if not item.embed_text:
            continue
        vector = reuse.get(item.embed_hash)
        if vector is not None:
            item.embedding = np.asarray(vector, dtype=np.float32)
            reused += 1
        else:
            pending[item.embed_hash].append(item)
    hashes = list(pending)
    for start in range(0, len(hashes), batch_size):
        batch = hashes[start : start + batch_size]
        if counted:
            vectors = embedder.embed_counts([pending[h][0].embed_counts for h in batch])
        else:
            vectors = embedder.embed([pending[h][0].embed_text for h in batch])
        for h, vector in zip(batch, vectors):
            for item in pending[h]:
                item.embedding = vector
        step((start + len(batch)) / max(len(hashes), 1), f"{start + len(batch):,}/{len(hashes):,}")
    return len(hashes), reused


def _item_rows(run: IndexRun, items: Sequence[ItemRow], with_vectors: bool) -> Iterator[tuple]:
    store_id, since = run.store_id, run.pk
    for item in items:
        qname = item.qname
        yield (
            store_id, since, item.layer, item.path, item.start_line, item.end_line, item.title, item.content,
            item.metadata, qname, _short_name(qname), looks_like_test_path(item.path), item.layer == "D0_DOCS",
            item.file_hash, item.embed_hash, item.embedding if with_vectors else None,
            split_terms(f"{item.title} {qname}"), split_terms(item.identifiers.keys()), item.row_hash,
        )


def _previous_ready_run(repository: Repository, run: IndexRun) -> IndexRun | None:
    active = repository.active_run
    if active is None or active.pk == run.pk or not active.has_items or active.status != IndexRun.Status.READY:
        return None
    return active


def _line_count(text: str) -> int:
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def _load_relational(
    run: IndexRun,
    extraction: Extraction,
    analysis: RepositoryAnalysis,
    digests: dict[str, str],
    paths: frozenset[str],
    previous: IndexRun | None,
) -> None:
    """Files, symbols, edges and entrypoints rows of ``paths``, as version ``run``.

    The file row of a file whose per-file analysis was reused from
    ``previous`` is copied from that version inside the database (text and
    stored analysis), with its new digest; the others are sent.
    """
    store_id, since = run.store_id, run.pk
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
        ("store_id", "since_run", "entry_type", "framework", "route_or_command", "methods", "handler", "path",
         "start_line", "end_line"),
        ((store_id, since, e.entry_type, e.framework, e.route_or_command, list(e.methods), e.handler, e.path,
          e.start_line, e.end_line) for e in entrypoints),
        json_columns=("methods",),
    )


@dataclass
class Plan:
    """How a version is written: into ``base``'s store (only ``dirty`` files) or as a new store (``base`` None)."""

    base: IndexRun | None
    # Files whose rows are written: every file for a new store.
    dirty: frozenset[str] = frozenset()
    # Files of ``base`` whose every row ends (changed text, or gone).
    replaced: frozenset[str] = frozenset()
    # Files with the same text whose resolved rows changed: their chunk rows stay.
    re_resolved: frozenset[str] = frozenset()


def _plan(
    base: IndexRun | None, files: dict[str, FileAnalysis], reused: frozenset[str], re_resolved: frozenset[str],
    old_paths: frozenset[str],
) -> Plan:
    if base is None:
        return Plan(base=None, dirty=frozenset(files))
    changed = frozenset(path for path in files if path not in reused)
    gone = old_paths - frozenset(files)
    return Plan(base=base, dirty=changed | re_resolved, replaced=changed | gone, re_resolved=re_resolved)


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


def _without_chunks(analyses: dict[str, FileAnalysis]) -> dict[str, FileAnalysis]:
    return {path: (replace(fa, chunks=[]) if fa.chunks else fa) for path, fa in analyses.items()}


def _same_resolution(a: FileAnalysis, b: FileAnalysis | None) -> bool:
    return b is not None and a.symbols == b.symbols and a.edges == b.edges and a.entrypoints == b.entrypoints


def run_index(run_id: int, *, embedder: Embedder | None = None) -> IndexRun:
    """Build the run's index version and activate it, or fail it leaving the previous one serving.

    Precondition: called outside a transaction (progress must be visible while it runs).
    Idempotent for finished runs: a ready, failed or superseded run is returned unchanged.
    """
    run = IndexRun.objects.select_related("repository", "repository__active_run").get(pk=run_id)
    if run.is_finished:
        return run
    started_now = IndexRun.objects.filter(
        pk=run.pk, status__in=[IndexRun.Status.QUEUED, IndexRun.Status.RUNNING]
    ).update(status=IndexRun.Status.RUNNING, started_at=timezone.now(), error="", progress=0.0, stage="starting")
    if not started_now:
        # Cancelled between reading the run and starting it.
        run.refresh_from_db()
        return run
    embedder = embedder or configured_embedder()
    progress = Progress(run)
    counts: dict[str, int] = {}
    started = time.perf_counter()
    try:
        with progress.stage("extract", "reading the commit" if run.commit_sha else "reading the archive") as step:
            extraction = read_run_files(run)
            counts["files"] = len(extraction.files)
            counts["files_with_replaced_bytes"] = extraction.replaced
            counts["skipped"] = len(extraction.skipped)
            IndexRun.objects.filter(pk=run.pk).update(skipped=extraction.skipped_report())
            if not extraction.files:
                raise IndexRunFailed(
                    f"The archive has no text files to index ({len(extraction.skipped)} skipped; see the skipped files)."
                )
        previous = _previous_ready_run(run.repository, run)
        with progress.stage("analyze", "analysing files") as step:
            old_files: dict[str, tuple[str, str]] = {}
            if previous is not None:
                old_files = {path: (h, d) for path, h, d in previous.files.values_list("path", "content_hash", "rows_digest")}
            unchanged = {f.path for f in extraction.files if old_files.get(f.path, ("",))[0] == f.content_hash}
            counts["files_unchanged"] = len(unchanged)
            # Written into the previous version's store: that version's vectors were made by
            # this embedder (a version without vectors records none), its rows derived the
            # same way, and few enough files changed.
            base = previous if (
                previous is not None and previous.store_id is not None and previous.embedder == embedder.name
                and previous.item_format == ITEM_FORMAT
                and settings.RAG["REWRITE_SHARE"] > 0
                and len(extraction.files) - len(unchanged) <= settings.RAG["REWRITE_SHARE"] * len(extraction.files)
            ) else None
            # Into a store, the chunk rows of an unchanged file stay where they are, so its
            # chunks are not even read back (nor read at all when this process built the base).
            recent = RECENT_ANALYSES.get(run.repository_id) if base is not None else None
            if recent is not None and recent.run_id != base.pk:
                recent = None
            earlier: dict[str, FileAnalysis] = {}
            if recent is not None:
                earlier = {path: recent.extracted[path] for path in unchanged if path in recent.extracted}
            elif previous is not None:
                for path, stored in storage.stored_analyses(previous, unchanged, without_chunks=base is not None).items():
                    restored = file_analysis_from_dict(stored) if stored else None
                    if restored is not None:
                        earlier[path] = restored
            analysis = analyze_repository({f.path: f.text for f in extraction.files}, previous=earlier)
            counts["files_reused"] = len(analysis.reused)
            files = analysis.files
            counts["analysis_errors"] = sum(1 for fa in files.values() if fa.error)
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
            items = _items_of(plan.dirty, files)
            prepare_items(items, embedder.name)
        with progress.stage("embed", "embedding") as step:
            reuse: dict[str, Any] = {}
            if previous is not None and previous.embedder == embedder.name:
                reuse = storage.existing_embeddings(previous.store_id, [i.embed_hash for i in items if i.embed_hash])
            embedding_error = ""
            try:
                computed, _ = embed_items(items, embedder, reuse, step)
            except EmbeddingUnavailable as exc:
                embedding_error = f"Embeddings failed, so this index answers with full-text and symbol search only: {exc}"
                computed = 0
                if plan.base is not None:
                    # A store holds one embedder's vectors: a version without any is a new store,
                    # and the chunks of the files left unread are read now.
                    texts = {f.path: f.text for f in extraction.files}
                    full = {
                        path: (fa if fa.chunks or path not in analysis.reused else replace(fa, chunks=extract_file(path, texts[path]).chunks))
                        for path, fa in files.items()
                    }
                    analysis = replace(analysis, files=full)
                    digests = {path: file_digest(fa, embedder.name) for path, fa in full.items()}
                    plan = _plan(None, full, analysis.reused, frozenset(), frozenset())
                    items = _items_of(plan.dirty, full)
                    prepare_items(items, embedder.name)
                for item in items:
                    item.embedding = None
            counts["embeddings_computed"] = computed
            dimension = embedder.dimension if not embedding_error else None
            IndexRun.objects.filter(pk=run.pk).update(
                embedder=embedder.name if not embedding_error else "",
                embedding_dimension=dimension,
                embedding_error=embedding_error,
            )
        with progress.stage("load", "loading into the database") as step:
            counts["files_written"] = len(plan.dirty)
            if plan.base is not None:
                _write_into_store(run, plan, items, extraction, analysis, digests, previous, counts)
            else:
                _write_new_store(run, plan, items, extraction, analysis, digests, previous, counts, embedding_error, step)
            layers, vectors = storage.layer_counts(run)
            # Every vector of the version not computed now was reused, written again or shared.
            counts["embeddings_reused"] = vectors - computed
            counts["items"] = sum(layers.values())
            counts.update(dict.fromkeys(LAYERS, 0) | layers)
            counts["symbols"] = run.symbols.count()
            counts["edges"] = run.edges.count()
            counts["entrypoints"] = run.entrypoints.count()
        with progress.stage("index", "building search indexes") as step:
            if plan.base is None:
                storage.build_partition_indexes(run.pk, dimension)
                common_words = storage.common_lexemes(run.pk)
                storage.attach_partition(run.pk)
            else:
                common_words = plan.base.common_words
            IndexRun.objects.filter(pk=run.pk).update(common_words=common_words)
        progress.timings["total"] = round(time.perf_counter() - started, 3)
        IndexRun.objects.filter(pk=run.pk).update(
            counts=counts, timings=progress.timings, has_items=True, item_format=ITEM_FORMAT
        )
        run = activate_index(run, built_on=plan.base)
        if run.status == IndexRun.Status.READY and not embedding_error:
            RECENT_ANALYSES[run.repository_id] = RecentAnalysis(
                run_id=run.pk, extracted=_without_chunks(analysis.extracted), resolved=_without_chunks(files)
            )
        prune_superseded(run.repository)
        return run
    except RunCancelled:
        # Cancelled meanwhile: the run row already says so; drop what was built.
        drop_run_rows(run)
        IndexRun.objects.filter(pk=run.pk).update(counts=counts, timings=progress.timings)
        run.refresh_from_db()
        return run
    except Exception as exc:
        if isinstance(exc, (IndexRunFailed, IntakeError, BaseVersionChanged)):
            message = getattr(exc, "message", None) or str(exc)
        else:
            logger.exception("index run %s failed", run.pk)
            message = f"Indexing failed unexpectedly ({exc.__class__.__name__}: {exc}). The previous index, if any, is still in use."
        progress.timings["total"] = round(time.perf_counter() - started, 3)
        try:
            drop_run_rows(run)
        except Exception:
            logger.exception("could not drop the rows of failed run %s", run.pk)
        IndexRun.objects.filter(pk=run.pk).update(
            status=IndexRun.Status.FAILED, error=message, finished_at=timezone.now(), counts=counts,
            timings=progress.timings, stage="failed",
        )
        run.refresh_from_db()
        return run


def _items_of(paths: frozenset[str], files: dict[str, FileAnalysis]) -> list[ItemRow]:
    """The items of these files (a file restored without its chunks gives its other layers only)."""
    symbols_by_qname = {s.qname: s for path in paths for s in files[path].symbols}
    items: list[ItemRow] = []
    for path in sorted(paths):
        items.extend(items_for_file(files[path], symbols_by_qname))
    return items


def _set_store(run: IndexRun, store_id: int) -> None:
    run.store_id = store_id
    IndexRun.objects.filter(pk=run.pk).update(store_id=store_id)


def _write_into_store(
    run: IndexRun, plan: Plan, items: list[ItemRow], extraction: Extraction, analysis: RepositoryAnalysis,
    digests: dict[str, str], previous: IndexRun, counts: dict[str, int],
) -> None:
    """Write the version into its base's store in one transaction: new rows of the dirty files, the replaced ones ended."""
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
        counts["items_sent"] = storage.insert_items(_item_rows(run, items, with_vectors=True))
        counts["items_ended"] = ended
        _load_relational(run, extraction, analysis, digests, plan.dirty, previous)
    # The planner's statistics of the store, once a write changed a sizeable share of it
    # (autovacuum's own threshold is a tenth of the rows; small pushes leave it to that).
    if counts["items_sent"] + ended >= ANALYZE_SHARE * max(int(base.counts.get("items", 0)), 1):
        storage.analyze_store(base.store_id)


def _write_new_store(
    run: IndexRun, plan: Plan, items: list[ItemRow], extraction: Extraction, analysis: RepositoryAnalysis,
    digests: dict[str, str], previous: IndexRun | None, counts: dict[str, int], embedding_error: str, step,
) -> None:
    """Load every row into a new, still detached store (its indexes are built next)."""
    _set_store(run, run.pk)
    storage.create_partition(run.pk)
    counts["items_sent"] = storage.copy_items(run.pk, _item_rows(run, items, with_vectors=not embedding_error))
    step(0.5)
    storage.seal_partition(run.pk)
    _load_relational(run, extraction, analysis, digests, plan.dirty, previous)

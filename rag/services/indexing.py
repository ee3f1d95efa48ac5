"""The body of an index run: archive -> files -> layers -> embeddings -> a new, attached index version.

``run_index`` is what the worker executes. It writes its progress to the run
as it goes, and ends in one of two ways: the new version becomes active
(``activate_index``), or the run is marked failed with a plain-words error and
everything it built is dropped, so the previous version keeps serving.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from django.utils import timezone

from rag import storage, terms
from rag.analysis import analyze_repository, extract_file, file_analysis_from_dict, file_analysis_to_dict
from rag.analysis.records import Chunk, Edge as EdgeRecord, Entrypoint as EntrypointRecord, Symbol as SymbolRecord
from rag.analysis.results import FileAnalysis
from rag.embeddings import Embedder, EmbeddingUnavailable, configured_embedder
from rag.intake import Extraction, IntakeError
from rag.models import LAYERS, STAGE_ORDER, IndexRun, Repository
from rag.services.repositories import RunCancelled, activate_index, drop_run_rows, prune_superseded
from rag.sources import read_run_files
from rag.terms import identifier_counts, looks_like_test_path, split_terms

logger = logging.getLogger(__name__)

# Share of the progress bar each stage fills.
STAGE_SHARES = dict(zip(STAGE_ORDER, (0.10, 0.20, 0.25, 0.25, 0.20)))
EDGE_ITEM_LIMIT = 200
# Bump when this module derives a stored item column differently from the same item.
ITEM_ROW_VERSION = 1
# Part of every row hash: a row carried from the previous version must hold exactly what a
# full build would store, and the derived columns (terms, is_test) come from rag.terms and
# the tsvector from the search expression, so a change to either makes no row carry over.
# (Query analysis lives in rag.query_analysis: changing how queries are read re-derives nothing.)
_ROW_HASH_SALT = hashlib.blake2b(
    f"{ITEM_ROW_VERSION}\x00{storage.SEARCH_EXPRESSION}\x00".encode() + Path(terms.__file__).read_bytes()
).digest()
# Recorded on each run: a file's chunk rows are copied whole from a run of the same format.
ITEM_FORMAT = _ROW_HASH_SALT.hex()[:32]
# The layers whose items come from a file's chunks alone (the per-file pass), so an
# unchanged file has the same rows in them.
CHUNK_LAYERS = ("C0_SOURCE_CHUNKS", "D0_DOCS")


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
    # Identifies the stored values of the row (``row_hash``); a carried item's row is copied
    # from the previous version inside the database and nothing else is computed for it.
    row_hash: str = ""
    carried: bool = False


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
    """Identifier counts and the embedding hash of an item whose row is built here (not carried)."""
    item.identifiers = identifier_counts(item.content)
    if item.embed_text:
        item.embed_hash = embed_hash(embedder_name, item.embed_text)
        item.embed_counts = item.identifiers
        if item.embed_text != item.content:
            item.embed_counts = item.identifiers + identifier_counts(item.title)


def mark_carried(items: Sequence[ItemRow], previous_hashes: set[str], embedder_name: str) -> None:
    """Hash every item's row; those the previous version holds once (and this one once) are carried.

    A hash that occurs twice is never carried, so copying by hash cannot
    duplicate or drop a row. The others get their derived columns here.
    """
    for item in items:
        item.row_hash = row_hash(item, embedder_name)
    occurrences = Counter(item.row_hash for item in items)
    for item in items:
        item.carried = occurrences[item.row_hash] == 1 and item.row_hash in previous_hashes
        if not item.carried:
            derive_columns(item, embedder_name)


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

    Returns (computed, reused); carried items count as reused (their vectors are
    copied with their rows). Raises ``EmbeddingUnavailable`` when the
    embedder fails; the caller then keeps the run lexical-only.
    """
    counted = hasattr(embedder, "embed_counts")
    pending: dict[str, list[ItemRow]] = defaultdict(list)
    reused = 0
    for item in items:
        if not item.embed_text:
            continue
        if item.carried:
            # Its row, vector included, is copied from the previous version.
            reused += 1
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


def _item_rows(run_id: int, items: Sequence[ItemRow], with_vectors: bool) -> Iterator[tuple]:
    for item in items:
        qname = item.qname
        yield (
            run_id, item.layer, item.path, item.start_line, item.end_line, item.title, item.content, item.metadata,
            qname, _short_name(qname), looks_like_test_path(item.path), item.layer == "D0_DOCS", item.file_hash,
            item.embed_hash, item.embedding if with_vectors else None,
            split_terms(f"{item.title} {qname}"), split_terms(item.identifiers.keys()), item.row_hash,
        )


def _previous_ready_run(repository: Repository, run: IndexRun) -> IndexRun | None:
    active = repository.active_run
    if active is None or active.pk == run.pk or not active.has_items or active.status != IndexRun.Status.READY:
        return None
    return active


def _serialized_analyses(files: dict[str, FileAnalysis]) -> dict[str, str]:
    return {path: storage.dumps_json(file_analysis_to_dict(analysis)) for path, analysis in files.items()}


def _load_relational(
    run: IndexRun,
    extraction: Extraction,
    files: dict[str, FileAnalysis],
    analyses: dict[str, str],
    previous: IndexRun | None,
    carried_files: frozenset[str],
) -> dict[str, int]:
    """Files, symbols, edges and entrypoints rows; files in ``carried_files`` are copied from ``previous``."""
    run_id = run.pk
    storage.copy_rows(
        "rag_sourcefile",
        ("run_id", "path", "content_hash", "language", "size", "line_count", "replaced_bytes", "text", "analysis"),
        (
            (run_id, f.path, f.content_hash, (files[f.path].language if f.path in files else f.language), f.size,
             f.text.count("\n") + (0 if f.text.endswith("\n") or not f.text else 1), f.replaced_bytes, f.text,
             analyses.get(f.path))
            for f in extraction.files
            if f.path not in carried_files
        ),
    )
    files_carried = storage.carry_files(previous.pk, run_id, sorted(carried_files)) if previous is not None else 0
    symbols = [s for fa in files.values() for s in fa.symbols]
    edges = [e for fa in files.values() for e in fa.edges]
    entrypoints = [e for fa in files.values() for e in fa.entrypoints]
    storage.copy_rows(
        "rag_symbol",
        ("run_id", "qname", "name", "kind", "path", "module", "start_line", "end_line", "signature", "docstring",
         "decorators", "parent", "is_async", "is_entry_candidate"),
        ((run_id, s.qname, s.name, s.kind, s.path, s.module, s.start_line, s.end_line, s.signature, s.docstring,
          list(s.decorators), s.parent, s.is_async, s.is_entry_candidate) for s in symbols),
        json_columns=("decorators",),
    )
    storage.copy_rows(
        "rag_edge",
        ("run_id", "kind", "src", "dst", "raw", "resolution", "path", "line"),
        ((run_id, e.kind, e.src, e.dst, e.raw, e.resolution, e.path, e.line) for e in edges),
    )
    storage.copy_rows(
        "rag_entrypoint",
        ("run_id", "entry_type", "framework", "route_or_command", "methods", "handler", "path", "start_line", "end_line"),
        ((run_id, e.entry_type, e.framework, e.route_or_command, list(e.methods), e.handler, e.path, e.start_line,
          e.end_line) for e in entrypoints),
        json_columns=("methods",),
    )
    return {"symbols": len(symbols), "edges": len(edges), "entrypoints": len(entrypoints), "files_carried": files_carried}


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
            # Rows are carried only from a version whose vectors this embedder made (a
            # version without vectors records no embedder).
            carry_from = previous if previous is not None and previous.embedder == embedder.name else None
            # Then the chunk rows of an unchanged file are copied whole, so its chunks
            # are not even read back.
            whole_files = carry_from is not None and carry_from.item_format == ITEM_FORMAT
            unchanged: set[str] = set()
            earlier: dict[str, FileAnalysis] = {}
            if previous is not None:
                old_hashes = dict(previous.files.values_list("path", "content_hash"))
                unchanged = {f.path for f in extraction.files if old_hashes.get(f.path) == f.content_hash}
                for path, stored in storage.stored_analyses(previous.pk, unchanged, without_chunks=whole_files).items():
                    restored = file_analysis_from_dict(stored) if stored else None
                    if restored is not None:
                        earlier[path] = restored
            counts["files_unchanged"] = len(unchanged)
            analysis = analyze_repository({f.path: f.text for f in extraction.files}, previous=earlier)
            counts["files_reused"] = len(analysis.reused)
            files = analysis.files
            chunks_carried_for = analysis.reused if whole_files else frozenset()
            counts["analysis_errors"] = sum(1 for fa in files.values() if fa.error)
            symbols_by_qname = {s.qname: s for fa in files.values() for s in fa.symbols}
            items: list[ItemRow] = []
            for fa in files.values():
                items.extend(items_for_file(fa, symbols_by_qname))
            previous_hashes = storage.unique_row_hashes(carry_from.pk) if carry_from is not None else set()
            mark_carried(items, previous_hashes, embedder.name)
        with progress.stage("embed", "embedding") as step:
            reuse: dict[str, Any] = {}
            if previous is not None and previous.embedder == embedder.name:
                reuse = storage.existing_embeddings(
                    previous.pk, [i.embed_hash for i in items if i.embed_hash and not i.carried]
                )
            embedding_error = ""
            try:
                computed, reused = embed_items(items, embedder, reuse, step)
            except EmbeddingUnavailable as exc:
                embedding_error = f"Embeddings failed, so this index answers with full-text and symbol search only: {exc}"
                computed, reused = 0, 0
                # Carried rows hold vectors; a version without any sends every row, the
                # chunks of unchanged files (left unread) included.
                texts = {f.path: f.text for f in extraction.files}
                for path in sorted(chunks_carried_for):
                    for item in chunk_items(extract_file(path, texts[path])):
                        item.row_hash = row_hash(item, embedder.name)
                        derive_columns(item, embedder.name)
                        items.append(item)
                chunks_carried_for = frozenset()
                for item in items:
                    item.embedding = None
                    if item.carried:
                        item.carried = False
                        derive_columns(item, embedder.name)
            counts["embeddings_computed"] = computed
            counts["embeddings_reused"] = reused
            dimension = embedder.dimension if not embedding_error else None
            IndexRun.objects.filter(pk=run.pk).update(
                embedder=embedder.name if not embedding_error else "",
                embedding_dimension=dimension,
                embedding_error=embedding_error,
            )
        with progress.stage("load", "loading into the database") as step:
            storage.create_partition(run.pk)
            # A file whose stored per-file analysis was reused has the same row as before
            # (the stored analysis depends on its text only): copied inside the database.
            carried_files = analysis.reused if previous is not None else frozenset()
            with ThreadPoolExecutor(max_workers=1) as pool:
                # Serialising the analyses is pure Python; it runs while the
                # database server computes the items' tsvectors (the COPY
                # below mostly waits on the socket, which releases the GIL).
                analyses = pool.submit(
                    _serialized_analyses, {p: fa for p, fa in analysis.extracted.items() if p not in carried_files}
                )
                sent = [item for item in items if not item.carried]
                counts["items_sent"] = storage.copy_items(run.pk, _item_rows(run.pk, sent, with_vectors=not embedding_error))
                step(0.4)
                serialized = analyses.result()
            storage.seal_partition(run.pk)
            carried = [item.row_hash for item in items if item.carried]
            carried_by_hash = storage.carry_items(previous.pk, run.pk, carried) if carried else 0
            if carried_by_hash != len(carried):
                raise IndexRunFailed("The previous index version changed while this one was built; run the indexing again.")
            carried_chunks = (
                storage.carry_file_items(previous.pk, run.pk, sorted(chunks_carried_for), CHUNK_LAYERS)
                if chunks_carried_for else 0
            )
            # Every chunk item has a vector here (the previous version was embedded by this embedder).
            counts["embeddings_reused"] += carried_chunks
            counts["items_carried"] = carried_by_hash + carried_chunks
            counts["items"] = counts["items_sent"] + counts["items_carried"]
            counts.update(dict.fromkeys(LAYERS, 0) | storage.layer_counts(run.pk))
            step(0.6)
            counts.update(_load_relational(run, extraction, files, serialized, previous, carried_files))
        with progress.stage("index", "building search indexes") as step:
            storage.build_partition_indexes(run.pk, dimension)
            IndexRun.objects.filter(pk=run.pk).update(common_words=storage.common_lexemes(run.pk))
            storage.attach_partition(run.pk)
        progress.timings["total"] = round(time.perf_counter() - started, 3)
        IndexRun.objects.filter(pk=run.pk).update(
            counts=counts, timings=progress.timings, has_items=True, item_format=ITEM_FORMAT
        )
        run = activate_index(run)
        prune_superseded(run.repository)
        return run
    except RunCancelled:
        # Cancelled meanwhile: the run row already says so; drop what was built.
        drop_run_rows(run)
        IndexRun.objects.filter(pk=run.pk).update(counts=counts, timings=progress.timings)
        run.refresh_from_db()
        return run
    except Exception as exc:
        if isinstance(exc, (IndexRunFailed, IntakeError)):
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

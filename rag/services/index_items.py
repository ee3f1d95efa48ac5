"""The items an index version stores, derived from a repository's analysis.

One ``ItemRow`` per retrievable item of a file, in every layer (source chunks,
symbol catalog, dependency graph, entrypoints, docs); its row hash, which
tells two versions' rows apart; a file's rows digest, which tells whether a
file's rows changed; the embeddings, reused by hash or computed in batches;
and the tuples sent to ``rag.storage`` in its ``ITEM_COLUMNS`` order.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rag import storage, terms
from rag.analysis.languages.spec import test_path_patterns
from rag.analysis.records import Chunk
from rag.analysis.records import Edge as EdgeRecord
from rag.analysis.records import Entrypoint as EntrypointRecord
from rag.analysis.records import Symbol as SymbolRecord
from rag.analysis.results import FileAnalysis
from rag.analysis.serialization import ANALYSIS_VERSION
from rag.embeddings import Embedder
from rag.models import LAYERS, IndexRun
from rag.terms import identifier_counts, is_vendored, looks_like_test_path, split_terms

# The dependency edges of one source kept in its C2 item.
EDGE_ITEM_LIMIT = 200
# Bump when this module derives a stored item column differently from the same item.
ITEM_ROW_VERSION = 1
# Part of every row hash and file digest: a row shared with the previous version must hold
# exactly what a full build would store, and the derived columns (terms, is_test) come from
# rag.terms (with each ecosystem's test-file patterns) and the tsvector from the search expression,
# so a change to any of them shares nothing.
# The rows are made from the files' analyses, so a version of the analysis that records other
# chunks or symbols for the same text derives other rows too (``ANALYSIS_VERSION``).
# (Query analysis lives in rag.query_analysis: changing how queries are read re-derives nothing.)
_ROW_HASH_SALT = hashlib.blake2b(
    f"{ITEM_ROW_VERSION}\x00{ANALYSIS_VERSION}\x00{storage.SEARCH_EXPRESSION}\x00".encode()
    + Path(terms.__file__).read_bytes()
    + "\x00".join(test_path_patterns()).encode()
).digest()
# Recorded on each run: a version is written into the store of one of the same format only.
ITEM_FORMAT = _ROW_HASH_SALT.hex()[:32]
# The layers whose items come from a file's chunks alone (the per-file pass), so an
# unchanged file has the same rows in them.
CHUNK_LAYERS = ("C0_SOURCE_CHUNKS", "D0_DOCS")
# The layers whose items also depend on other files (through the repository pass).
RESOLVED_LAYERS = tuple(layer for layer in LAYERS if layer not in CHUNK_LAYERS)


@dataclass
class ItemRow:
    """One retrievable item of a file, as this version stores it (embedding and derived columns filled in stages)."""

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
    """The items of a file's chunks (``CHUNK_LAYERS``).

    The source chunks of a vendored file (``rag.terms.VENDORED``: minified
    bundles, copies of libraries) or of one a tool wrote (``FileAnalysis.generated``:
    parsers, protobuf stubs, single-header amalgamations) are marked ``vendored``
    and get no full-text entry (``rag.storage.SEARCH_EXPRESSION``): words of code
    no one here edits only crowd the project's own out of lexical matches (an
    amalgamation repeats every word of the sources it was made from), and such
    files held most of the full-text index of a tree that carries a few (a search
    reads each matching item's entry to rank it). They are still found by their
    symbols (C1) and by meaning (vectors).
    """
    items: list[ItemRow] = []
    chunk: Chunk
    vendored = analysis.generated or is_vendored(analysis.path)
    for chunk in analysis.chunks:
        qname = str(chunk.metadata.get("symbol") or "")
        metadata = dict(chunk.metadata)
        if vendored and chunk.layer == "C0_SOURCE_CHUNKS":
            metadata["vendored"] = True
        items.append(
            ItemRow(
                layer=chunk.layer, path=chunk.path, start_line=chunk.start_line, end_line=chunk.end_line,
                title=chunk.title, content=chunk.content, metadata=metadata, qname=qname,
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


def items_of(paths: frozenset[str], files: dict[str, FileAnalysis]) -> list[ItemRow]:
    """The items of these files (a file restored without its chunks gives its other layers only)."""
    symbols_by_qname = {s.qname: s for path in paths for s in files[path].symbols}
    items: list[ItemRow] = []
    for path in sorted(paths):
        items.extend(items_for_file(files[path], symbols_by_qname))
    return items


def embed_items(
    items: Sequence[ItemRow],
    embedder: Embedder,
    reuse: dict[str, Any],
    step: Callable[[float, str], None],
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


def item_rows(run: IndexRun, items: Sequence[ItemRow], with_vectors: bool) -> Iterator[tuple]:
    """The items' rows as version ``run`` of its store, in ``rag.storage.ITEM_COLUMNS`` order."""
    store_id, since = run.store_id, run.pk
    for item in items:
        qname = item.qname
        yield (
            store_id, since, item.layer, item.path, item.start_line, item.end_line, item.title, item.content,
            item.metadata, qname, _short_name(qname), looks_like_test_path(item.path), item.layer == "D0_DOCS",
            item.file_hash, item.embed_hash, item.embedding if with_vectors else None,
            split_terms(f"{item.title} {qname}"),
            # Full text leaves a vendored item's words out (``chunk_items``): none are stored for it.
            "" if "vendored" in item.metadata else split_terms(item.identifiers.keys()), item.row_hash,
        )

"""Physical storage of index versions: one items partition per run, bulk loads with COPY.

A run's items go into a standalone table ``rag_item_r<run id>`` that no query
reads while it is loaded; its HNSW, GIN and btree indexes are built after the
load; then it is attached to the partitioned ``rag_item`` (attaching takes a
lock that does not block readers, and the CHECK constraint added first spares
PostgreSQL a validation scan). So loading one repository never slows
another's queries, and a failed run leaves nothing behind but a table to drop.

HNSW needs a fixed dimension while ``embedding`` is an untyped ``vector``
column (each run may use another embedder), so the vector index is an
expression index on ``embedding::vector(N)``; queries use the same cast.

A new version of a repository where few files changed copies the rows that
did not change from the previous version's table, inside the server
(``carry_items``, ``carry_file_items``, ``carry_files``), instead of sending them again. ``search``
is a plain column of ``rag_item`` for that reason: a detached table computes it
for the rows sent with COPY (it is created as a generated column there), then
the expression is dropped (values stay) and carried rows keep the tsvector
they already have, computed by the same expression.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg
from django.db import connection, transaction
from psycopg.types.json import Jsonb

ITEM_COLUMNS = (
    "run_id", "layer", "path", "start_line", "end_line", "title", "content", "metadata", "qname", "name",
    "is_test", "is_doc", "file_hash", "embed_hash", "embedding", "title_terms", "body_terms", "row_hash",
)
_ITEM_TYPES = (
    "int8", "text", "text", "int4", "int4", "text", "text", "jsonb", "text", "text",
    "bool", "bool", "text", "text", "vector", "text", "text", "text",
)
# What a carried row keeps from the previous version: everything but id and run_id.
_CARRIED_COLUMNS = ", ".join([c for c in ITEM_COLUMNS if c != "run_id"] + ["search"])
# Columns ANALYZE leaves out: read, never filtered on (``metadata->>...`` filters get no
# statistics from the column anyway).
UNSAMPLED_COLUMNS = ("content", "metadata", "title_terms", "body_terms")
# The tsvector of an item: titles (A) weigh more than bodies (B); *_terms hold
# the parts of CamelCase and dotted identifiers, which PostgreSQL's parser keeps whole.
SEARCH_EXPRESSION = (
    "setweight(to_tsvector('english'::regconfig, title || ' ' || title_terms), 'A') || "
    "setweight(to_tsvector('english'::regconfig, left(content, 200000) || ' ' || body_terms), 'B')"
)


# PostgreSQL text and jsonb cannot hold NUL. Source files never reach here
# with one (intake decodes them), but values the analysis evaluates can: a
# docstring or a decorator argument written as "\0" in the code.
NUL_REPLACEMENT = "\ufffd"


def without_nul(value: Any) -> Any:
    """``value`` with NUL characters replaced, in strings nested in dicts, lists and tuples too."""
    if isinstance(value, str):
        return value.replace("\x00", NUL_REPLACEMENT) if "\x00" in value else value
    if isinstance(value, dict):
        return {without_nul(k): without_nul(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [without_nul(v) for v in value]
    return value


def dumps_json(value: Any) -> str:
    """JSON for a jsonb column; re-encoded without NUL only in the rare case it has one."""
    text = json.dumps(value)
    if "\\u0000" in text:
        text = json.dumps(without_nul(value))
    return text


def _text_without_nul(row: Sequence[Any]) -> list[Any]:
    return [v.replace("\x00", NUL_REPLACEMENT) if isinstance(v, str) and "\x00" in v else v for v in row]


def partition_name(run_id: int) -> str:
    return f"rag_item_r{int(run_id)}"


def vector_connection():
    """This thread's psycopg connection with pgvector's adapter registered: vectors and numpy arrays are sent as ``vector``."""
    connection.ensure_connection()
    raw = connection.connection
    if not getattr(raw, "_rag_vector_registered", False):
        from pgvector.psycopg import register_vector

        register_vector(raw)
        raw._rag_vector_registered = True
    return raw


def create_partition(run_id: int) -> None:
    """A fresh, detached items table for ``run_id`` (dropped first if a previous attempt left one).

    Its ``search`` is generated, so COPY computes it; ``seal_partition`` turns it into the
    plain column ``rag_item`` has once the sent rows are in.
    """
    table = partition_name(run_id)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {table}")
        cursor.execute(f"CREATE TABLE {table} (LIKE rag_item INCLUDING DEFAULTS)")
        # PostgreSQL cannot add an expression to an existing column; on an empty table
        # replacing the column costs nothing.
        cursor.execute(
            f"ALTER TABLE {table} DROP COLUMN search, "
            f"ADD COLUMN search tsvector GENERATED ALWAYS AS ({SEARCH_EXPRESSION}) STORED"
        )
        cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {table}_run CHECK (run_id = {int(run_id)})")
        # No query filters on these large columns, and sampling them was about a third of ANALYZE.
        cursor.execute(
            f"ALTER TABLE {table} "
            + ", ".join(f"ALTER COLUMN {column} SET STATISTICS 0" for column in UNSAMPLED_COLUMNS)
        )


def seal_partition(run_id: int) -> None:
    """Keep the computed tsvectors and stop generating them, so carried rows can bring their own.

    Dropping the expression changes only the catalog (no rewrite), and a
    partition must not generate a column its parent does not.
    """
    table = partition_name(run_id)
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} ALTER COLUMN search DROP EXPRESSION")


def unique_row_hashes(run_id: int) -> set[str]:
    """Row hashes that occur exactly once in a run's items (the rows another version may carry)."""
    table = partition_name(run_id)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT row_hash FROM {table} WHERE row_hash <> '' GROUP BY row_hash HAVING count(*) = 1")
        return {row[0] for row in cursor.fetchall()}


def carry_items(from_run: int, to_run: int, row_hashes: Sequence[str]) -> int:
    """Copy the items with these (unique) row hashes from one run's table into another's, server-side.

    Precondition: ``seal_partition(to_run)`` ran. Every stored value is
    kept, the tsvector and the vector included; only ``id`` and ``run_id`` are new.
    """
    if not row_hashes:
        return 0
    return _carry(from_run, to_run, "row_hash IN (SELECT unnest(%s::text[]))", [list(row_hashes)])


def carry_file_items(from_run: int, to_run: int, paths: Sequence[str], layers: Sequence[str]) -> int:
    """Copy every item of these paths in these layers from one run's table into another's, server-side.

    For rows that depend on their file alone (a file's chunks): the caller
    knows the file and the way its rows are derived are unchanged.
    """
    if not paths:
        return 0
    return _carry(from_run, to_run, "layer = ANY(%s) AND path = ANY(%s)", [list(layers), list(paths)])


def _carry(from_run: int, to_run: int, where: str, params: list) -> int:
    """Copy the rows of one run's table matching ``where`` into another's; returns how many."""
    source, target = partition_name(from_run), partition_name(to_run)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {target} (run_id, {_CARRIED_COLUMNS}) SELECT %s, {_CARRIED_COLUMNS} FROM {source} WHERE {where}",
            [int(to_run), *params],
        )
        return cursor.rowcount


def layer_counts(run_id: int) -> dict[str, int]:
    table = partition_name(run_id)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT layer, count(*) FROM {table} GROUP BY layer")
        return dict(cursor.fetchall())


def stored_analyses(run_id: int, paths: Iterable[str], *, without_chunks: bool = False) -> dict[str, Any]:
    """path -> the stored per-file analysis (a dict), of a run's files among ``paths``.

    ``without_chunks`` leaves the chunks (the bulk of it) out in the database
    and gives an empty list in their place.
    """
    value = "analysis - 'chunks'" if without_chunks else "analysis"
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT path, ({value})::text FROM rag_sourcefile WHERE run_id = %s AND path = ANY(%s) AND analysis IS NOT NULL",
            [int(run_id), list(paths)],
        )
        stored = {path: json.loads(text) for path, text in cursor.fetchall()}
    if without_chunks:
        for analysis in stored.values():
            if isinstance(analysis, dict):
                analysis["chunks"] = []
    return stored


def carry_files(from_run: int, to_run: int, paths: Sequence[str]) -> int:
    """Copy these paths' ``rag_sourcefile`` rows (text and stored analysis) from one run to another, server-side."""
    if not paths:
        return 0
    columns = "path, content_hash, language, size, line_count, replaced_bytes, text, analysis"
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO rag_sourcefile (run_id, {columns}) SELECT %s, {columns} FROM rag_sourcefile "
            "WHERE run_id = %s AND path = ANY(%s)",
            [int(to_run), int(from_run), list(paths)],
        )
        return cursor.rowcount


def copy_items(run_id: int, rows: Iterable[Sequence[Any]]) -> int:
    """COPY rows (in ``ITEM_COLUMNS`` order, run_id first) into the run's detached table."""
    table = partition_name(run_id)
    raw = vector_connection()
    count = 0
    with raw.cursor() as cursor:
        with cursor.copy(f"COPY {table} ({', '.join(ITEM_COLUMNS)}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(list(_ITEM_TYPES))
            for row in rows:
                row = _text_without_nul(row)
                row[7] = Jsonb(row[7], dumps=dumps_json)
                copy.write_row(row)
                count += 1
    return count


def copy_rows(table: str, columns: Sequence[str], rows: Iterable[Sequence[Any]], json_columns: Sequence[str] = ()) -> int:
    """COPY plain rows into an ordinary table (files, symbols, edges, entrypoints)."""
    raw = vector_connection()
    json_positions = [columns.index(c) for c in json_columns]
    count = 0
    with raw.cursor() as cursor:
        with cursor.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
            for row in rows:
                row = _text_without_nul(row)
                for i in json_positions:
                    row[i] = None if row[i] is None else dumps_json(row[i])
                copy.write_row(row)
                count += 1
    return count


def build_partition_indexes(run_id: int, dimension: int | None) -> None:
    """Indexes of a loaded, still detached partition; the vector ones only when it has vectors."""
    table = partition_name(run_id)
    with connection.cursor() as cursor:
        # Index builds are the heavy part of a load; more memory keeps HNSW
        # construction in RAM, and pgvector builds in parallel when allowed.
        cursor.execute("SET maintenance_work_mem = '512MB'")
        cursor.execute("SET max_parallel_maintenance_workers = 2")
        cursor.execute(f"CREATE UNIQUE INDEX {table}_id ON {table} (id)")
        cursor.execute(f"CREATE INDEX {table}_search ON {table} USING gin (search)")
        cursor.execute(f"CREATE INDEX {table}_name ON {table} (name)")
        cursor.execute(f"CREATE INDEX {table}_path ON {table} (path)")
        # Suffix matches (a traceback's absolute path, "models/query.py") become prefix matches on the reversed path.
        cursor.execute(f"CREATE INDEX {table}_rpath ON {table} (reverse(path) text_pattern_ops)")
        if dimension:
            dim = int(dimension)
            for suffix, predicate in (("code", "NOT is_doc"), ("docs", "is_doc")):
                cursor.execute(
                    f"CREATE INDEX {table}_vec_{suffix} ON {table} USING hnsw ((embedding::vector({dim})) vector_cosine_ops) "
                    f"WHERE {predicate} AND embedding IS NOT NULL"
                )
        cursor.execute(f"ANALYZE {table}")
        cursor.execute("RESET maintenance_work_mem")
        cursor.execute("RESET max_parallel_maintenance_workers")


def common_lexemes(run_id: int, share: float = 0.02, minimum: int = 20, limit: int = 500) -> list[str]:
    """Lexemes in at least ``share`` of a loaded partition's items, most frequent first.

    They match so many items that an OR query containing them has to rank a
    large part of the index; retrieval leaves them out.
    """
    table = partition_name(run_id)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")
        threshold = max(minimum, int(share * cursor.fetchone()[0]))
        cursor.execute(
            f"SELECT word FROM ts_stat('SELECT search FROM {table}') WHERE ndoc >= %s ORDER BY ndoc DESC, word LIMIT %s",
            [threshold, limit],
        )
        return [row[0] for row in cursor.fetchall()]


def attach_partition(run_id: int) -> None:
    table = partition_name(run_id)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE rag_item ATTACH PARTITION {table} FOR VALUES IN ({int(run_id)})")


def drop_partition(run_id: int) -> None:
    """Remove a run's items, attached or not.

    Detaching concurrently waits for queries still reading the old version
    instead of blocking every repository's queries behind an exclusive lock.
    """
    table = partition_name(run_id)
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE c.relname = %s)",
            [table],
        )
        attached = cursor.fetchone()[0]
        if attached:
            if connection.in_atomic_block:
                cursor.execute(f"ALTER TABLE rag_item DETACH PARTITION {table}")
            else:
                cursor.execute(f"ALTER TABLE rag_item DETACH PARTITION {table} CONCURRENTLY")
        cursor.execute(f"DROP TABLE IF EXISTS {table}")


def existing_embeddings(run_id: int, embed_hashes: Sequence[str]) -> dict[str, Any]:
    """embed_hash -> vector (numpy array) for items of a run, to reuse instead of recomputing."""
    if not embed_hashes:
        return {}
    raw = vector_connection()
    # Django's connections use client-side cursors; binary results need a server-side-binding one.
    with psycopg.Cursor(raw) as cursor:
        cursor.execute(
            "SELECT DISTINCT ON (embed_hash) embed_hash, embedding FROM rag_item "
            "WHERE run_id = %s AND embedding IS NOT NULL AND embed_hash = ANY(%s)",
            [int(run_id), list(embed_hashes)],
            binary=True,
        )
        return {h: (v.to_numpy() if hasattr(v, "to_numpy") else v) for h, v in cursor.fetchall()}

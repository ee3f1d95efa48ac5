"""Physical storage of index versions: stores of shared rows, one items partition per store.

Versions of a repository share rows. Every row (items here; files, symbols,
edges and entrypoints in ordinary tables) lives in a *store* and belongs to
the versions ``since_run <= version < until_run``; ``version_filter`` is the
condition every read of a version uses.

- **A full build** (the first version, a new embedder or item format, or a
  change too large to write in place) makes a new store: a standalone table
  ``rag_item_r<run id>`` that no query reads while it is loaded, its HNSW,
  GIN and btree indexes built after the load, then attached to the
  partitioned ``rag_item`` (attaching takes a lock that does not block
  readers, and the CHECK constraint added first spares PostgreSQL a
  validation scan). So loading one repository never slows another's queries.
- **A new version of the same store** writes only what changed, in one
  transaction: rows of changed files are inserted (``insert_items``,
  ``copy_rows``) and the rows they replace get ``until_run`` set to the new
  version (``retire_rows``); the indexes are updated in place. The version
  before reads exactly what it read, so it serves until the switch; a version
  that fails after its transaction committed is undone by ``discard_version``.
- **Superseded versions** are dropped by deleting the rows no kept version
  reads (``prune_store``), or the whole store once none reads it.

HNSW needs a fixed dimension while ``embedding`` is an untyped ``vector``
column (each store may use another embedder), so the vector index is an
expression index on ``embedding::vector(N)``; queries use the same cast.
``search`` is a plain column of ``rag_item``: a detached table computes it
for the rows sent with COPY (it is created as a generated column there, then
the expression is dropped), and rows inserted into an attached store compute
it in the INSERT, with the same expression.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

import psycopg
from django.db import connection, transaction
from psycopg.types.json import Jsonb

from rag.models import CODE_LAYERS, DOC_LAYERS, OPEN_END

ITEM_COLUMNS = (
    "store_id", "since_run", "layer", "path", "start_line", "end_line", "title", "content", "metadata", "qname", "name",
    "is_test", "is_doc", "file_hash", "embed_hash", "embedding", "title_terms", "body_terms", "row_hash",
)
_METADATA = ITEM_COLUMNS.index("metadata")
_ITEM_TYPES = (
    "int8", "int8", "text", "text", "int4", "int4", "text", "text", "jsonb", "text", "text",
    "bool", "bool", "text", "text", "vector", "text", "text", "text",
)
# The ordinary tables of a version's rows, beside the items (``rag_file_common_words``: see ``count_common_words``).
RELATIONAL_TABLES = ("rag_sourcefile", "rag_symbol", "rag_edge", "rag_entrypoint", "rag_file_common_words")
# Columns ANALYZE leaves out: read, never filtered on (``metadata->>...`` filters get no
# statistics from the column anyway).
UNSAMPLED_COLUMNS = ("content", "metadata", "title_terms", "body_terms")
# The tsvector of an item: titles (A) weigh more than bodies (B); *_terms hold
# the parts of CamelCase and dotted identifiers, which PostgreSQL's parser keeps whole.
# Items marked ``vendored`` (source chunks of code the project carries but did not write,
# ``rag.services.index_items.chunk_items``) have none.
SEARCH_EXPRESSION = (
    "CASE WHEN metadata ? 'vendored' THEN ''::tsvector ELSE "
    "setweight(to_tsvector('english'::regconfig, title || ' ' || title_terms), 'A') || "
    "setweight(to_tsvector('english'::regconfig, left(content, 200000) || ' ' || body_terms), 'B') END"
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


def partition_name(store_id: int) -> str:
    return f"rag_item_r{int(store_id)}"


def version_filter(run, alias: str = "") -> tuple[str, list[Any]]:
    """The SQL condition (and its parameters) that selects one version's rows of a versioned table.

    ``run`` is an ``IndexRun`` (its ``store_id`` names the store, and with it
    the items partition). ``alias`` qualifies the columns (``"e."``).
    """
    return (
        f"{alias}store_id = %s AND {alias}since_run <= %s AND {alias}until_run > %s",
        [int(run.store_id or 0), int(run.pk), int(run.pk)],
    )


def vector_connection():
    """This thread's psycopg connection with pgvector's adapter registered: vectors and numpy arrays are sent as ``vector``."""
    connection.ensure_connection()
    raw = connection.connection
    if not getattr(raw, "_rag_vector_registered", False):
        from pgvector.psycopg import register_vector

        register_vector(raw)
        raw._rag_vector_registered = True
    return raw


def create_partition(store_id: int) -> None:
    """A fresh, detached items table for a new store (dropped first if a previous attempt left one).

    Its ``search`` is generated, so COPY computes it; ``seal_partition`` turns it into the
    plain column ``rag_item`` has once the rows are in. Pages keep a tenth free, so a
    later version ending a row's range (``retire_rows``) can update it in place
    without new index entries (a heap-only update).
    """
    table = partition_name(store_id)
    with connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {table}")
        cursor.execute("DELETE FROM rag_file_common_words WHERE store_id = %s", [int(store_id)])
        cursor.execute(f"CREATE TABLE {table} (LIKE rag_item INCLUDING DEFAULTS)")
        # PostgreSQL cannot add an expression to an existing column; on an empty table
        # replacing the column costs nothing.
        cursor.execute(
            f"ALTER TABLE {table} DROP COLUMN search, "
            f"ADD COLUMN search tsvector GENERATED ALWAYS AS ({SEARCH_EXPRESSION}) STORED"
        )
        cursor.execute(f"ALTER TABLE {table} ADD CONSTRAINT {table}_run CHECK (store_id = {int(store_id)})")
        cursor.execute(f"ALTER TABLE {table} SET (fillfactor = 90)")
        # No query filters on these large columns, and sampling them was about a third of ANALYZE.
        cursor.execute(
            f"ALTER TABLE {table} "
            + ", ".join(f"ALTER COLUMN {column} SET STATISTICS 0" for column in UNSAMPLED_COLUMNS)
        )


def seal_partition(store_id: int) -> None:
    """Keep the computed tsvectors and stop generating them, as the parent table does.

    Dropping the expression changes only the catalog (no rewrite), and a
    partition must not generate a column its parent does not.
    """
    table = partition_name(store_id)
    with connection.cursor() as cursor:
        cursor.execute(f"ALTER TABLE {table} ALTER COLUMN search DROP EXPRESSION")


def layer_counts(run) -> tuple[dict[str, int], int]:
    """(layer -> items, items with a vector) of one version, read from its store's table (attached or not)."""
    where, args = version_filter(run)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT layer, count(*), count(embedding) FROM {partition_name(run.store_id)} WHERE {where} GROUP BY layer",
            args,
        )
        rows = cursor.fetchall()
    return {layer: count for layer, count, _ in rows}, sum(vectors for _, _, vectors in rows)


def stored_analyses(run, paths: Iterable[str], *, without_chunks: bool = False) -> dict[str, Any]:
    """path -> the stored per-file analysis (a dict), of a version's files among ``paths``.

    ``without_chunks`` leaves the chunks (the bulk of it) out in the database
    and gives an empty list in their place.
    """
    value = "analysis - 'chunks'" if without_chunks else "analysis"
    where, args = version_filter(run)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT path, ({value})::text FROM rag_sourcefile WHERE {where} AND path = ANY(%s) AND analysis IS NOT NULL",
            [*args, list(paths)],
        )
        stored = {path: json.loads(text) for path, text in cursor.fetchall()}
    if without_chunks:
        for analysis in stored.values():
            if isinstance(analysis, dict):
                analysis["chunks"] = []
    return stored


def copy_items(store_id: int, rows: Iterable[Sequence[Any]]) -> int:
    """COPY rows (in ``ITEM_COLUMNS`` order) into a new store's detached table."""
    return _copy_items(partition_name(store_id), rows)


def insert_items(rows: Iterable[Sequence[Any]]) -> int:
    """Add rows (in ``ITEM_COLUMNS`` order) to attached stores, their tsvectors computed on the way.

    Precondition: inside a transaction (the rows are staged in a temporary table dropped at commit).
    """
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE IF EXISTS rag_item_staged")
        cursor.execute(
            "CREATE TEMPORARY TABLE rag_item_staged ON COMMIT DROP AS "
            f"SELECT {', '.join(ITEM_COLUMNS)} FROM rag_item WITH NO DATA"
        )
    count = _copy_items("rag_item_staged", rows)
    columns = ", ".join(ITEM_COLUMNS)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO rag_item ({columns}, search) SELECT {columns}, {SEARCH_EXPRESSION} FROM rag_item_staged"
        )
        cursor.execute("DROP TABLE rag_item_staged")
    return count


def copy_file_rows(source, run, digests: dict[str, str]) -> int:
    """Copy file rows (text and stored analysis) of version ``source`` into version ``run``, server-side.

    ``digests`` maps each path to copy to its row digest in the new version.
    Returns how many rows were copied.
    """
    if not digests:
        return 0
    where, args = version_filter(source, "f.")
    columns = "path, content_hash, language, size, line_count, replaced_bytes, text, analysis"
    paths = list(digests)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO rag_sourcefile (store_id, since_run, {columns}, rows_digest) "
            f"SELECT %s, %s, {', '.join('f.' + c for c in columns.split(', '))}, d.digest FROM rag_sourcefile f "
            "JOIN unnest(%s::text[], %s::text[]) AS d(path, digest) ON d.path = f.path "
            f"WHERE {where}",
            [int(run.store_id), int(run.pk), paths, [digests[p] for p in paths], *args],
        )
        return cursor.rowcount


def _copy_items(table: str, rows: Iterable[Sequence[Any]]) -> int:
    raw = vector_connection()
    count = 0
    with raw.cursor() as cursor:
        with cursor.copy(f"COPY {table} ({', '.join(ITEM_COLUMNS)}) FROM STDIN (FORMAT BINARY)") as copy:
            copy.set_types(list(_ITEM_TYPES))
            for row in rows:
                row = _text_without_nul(row)
                row[_METADATA] = Jsonb(row[_METADATA], dumps=dumps_json)
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


def build_partition_indexes(store_id: int, dimension: int | None) -> None:
    """Indexes of a loaded, still detached partition; the vector ones only when it has vectors."""
    table = partition_name(store_id)
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
        cursor.execute("RESET maintenance_work_mem")
        cursor.execute("RESET max_parallel_maintenance_workers")
    analyze_store(store_id)


def analyze_store(store_id: int) -> None:
    """Refresh the planner's statistics of a store's items (the large columns are not sampled)."""
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {partition_name(store_id)}")


def common_lexemes(store_id: int, share: float = 0.02, minimum: int = 20, limit: int = 500) -> list[str]:
    """Lexemes in at least ``share`` of a loaded partition's items, most frequent first.

    They match so many items that an OR query containing them has to rank a
    large part of the index; retrieval leaves them out. Computed when a store
    is built; the versions written into it later keep its list.
    """
    table = partition_name(store_id)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")
        threshold = max(minimum, int(share * cursor.fetchone()[0]))
        cursor.execute(
            f"SELECT word FROM ts_stat('SELECT search FROM {table}') WHERE ndoc >= %s ORDER BY ndoc DESC, word LIMIT %s",
            [threshold, limit],
        )
        return [row[0] for row in cursor.fetchall()]


def count_common_words(run, common_words: Sequence[str], paths: Iterable[str] | None = None) -> int:
    """Write version ``run``'s per-file counts of common words: per file, how many of its items have each word.

    Every file of the version, or only those of ``paths`` (the files a version written into its
    base's store rewrote: the other files' rows are the base's, shared). A file's row holds
    the words its items have, as places in ``common_words`` (the store's list, which versions
    written into it keep), and per word the number of items, counted over the items a search
    of the file's layer group reads (code: C0-C3, docs: D0). Reads the store's table directly,
    so it works before the table is attached. A row of no file (path ``''``, read by ``run``
    alone) marks the version's counts complete (``has_common_word_counts``). Returns how many
    file rows were written.
    """
    if not common_words:
        return 0
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO rag_file_common_words (store_id, since_run, until_run, is_doc, path, words, items) "
            "VALUES (%s, %s, %s, false, '', '{}', '{}')",
            [int(run.store_id), int(run.pk), int(run.pk) + 1],
        )
    where, args = version_filter(run, "i.")
    path_clause = ""
    if paths is not None:
        paths = sorted(paths)
        if not paths:
            return 0
        path_clause = " AND i.path = ANY(%s)"
        args.append(paths)
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO rag_file_common_words (store_id, since_run, is_doc, path, words, items) "
            "SELECT %s, %s, is_doc, path, array_agg(word ORDER BY word), array_agg(items ORDER BY word) FROM ("
            "  SELECT i.is_doc, i.path, CAST(w.place - 1 AS smallint) AS word, CAST(count(*) AS integer) AS items "
            f"  FROM {partition_name(run.store_id)} i CROSS JOIN LATERAL unnest(tsvector_to_array(i.search)) u(lexeme) "
            "  JOIN unnest(CAST(%s AS text[])) WITH ORDINALITY w(lexeme, place) ON w.lexeme = u.lexeme "
            f"  WHERE {where} AND (NOT i.is_doc AND i.layer = ANY(%s) OR i.is_doc AND i.layer = ANY(%s)){path_clause} "
            "  GROUP BY i.is_doc, i.path, w.place"
            ") counted GROUP BY is_doc, path",
            [int(run.store_id), int(run.pk), list(common_words), *args[:3], list(CODE_LAYERS), list(DOC_LAYERS), *args[3:]],
        )
        return cursor.rowcount


def has_common_word_counts(run) -> bool:
    """Whether version ``run`` has complete per-file counts of common words (written by ``count_common_words``).

    Versions built before counts were kept, or written by code that did not keep them, have none.
    """
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM rag_file_common_words WHERE store_id = %s AND since_run = %s AND path = '')",
            [int(run.store_id or 0), int(run.pk)],
        )
        return bool(cursor.fetchone()[0])


def end_common_word_counts(base, run) -> None:
    """End, at version ``run``, every row of per-file counts that version ``base`` reads (they are not its complete counts)."""
    where, args = version_filter(base)
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE rag_file_common_words SET until_run = %s WHERE {where}", [int(run.pk), *args])


def attach_partition(store_id: int) -> None:
    table = partition_name(store_id)
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE rag_item ATTACH PARTITION {table} FOR VALUES IN ({int(store_id)})")


def drop_partition(store_id: int) -> None:
    """Remove a store's items, attached or not, with their per-file counts of common words.

    Detaching concurrently waits for queries still reading the old version
    instead of blocking every repository's queries behind an exclusive lock.
    """
    table = partition_name(store_id)
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
        cursor.execute("DELETE FROM rag_file_common_words WHERE store_id = %s", [int(store_id)])


def existing_embeddings(store_id: int, embed_hashes: Sequence[str]) -> dict[str, Any]:
    """embed_hash -> vector (numpy array) for items of a store (any of its versions), to reuse instead of recomputing."""
    if not embed_hashes:
        return {}
    raw = vector_connection()
    # Django's connections use client-side cursors; binary results need a server-side-binding one.
    with psycopg.Cursor(raw) as cursor:
        cursor.execute(
            "SELECT DISTINCT ON (embed_hash) embed_hash, embedding FROM rag_item "
            "WHERE store_id = %s AND embedding IS NOT NULL AND embed_hash = ANY(%s)",
            [int(store_id), list(embed_hashes)],
            binary=True,
        )
        return {h: (v.to_numpy() if hasattr(v, "to_numpy") else v) for h, v in cursor.fetchall()}


def retire_rows(base, run, paths: Sequence[str], *, item_layers: Sequence[str] | None = None) -> int:
    """End, at version ``run``, the rows of ``paths`` that version ``base`` (the store's newest) reads.

    Every table's rows of those paths, or in the items only those of
    ``item_layers`` when given (the relational rows of a path are always ended
    together). ``base`` keeps reading them. Returns how many items were ended.
    """
    if not paths:
        return 0
    where, args = version_filter(base)
    args = [int(run.pk), *args, list(paths)]
    with connection.cursor() as cursor:
        layer_clause = ""
        item_args = list(args)
        if item_layers is not None:
            layer_clause = " AND layer = ANY(%s)"
            item_args.append(list(item_layers))
        cursor.execute(f"UPDATE rag_item SET until_run = %s WHERE {where} AND path = ANY(%s){layer_clause}", item_args)
        retired = cursor.rowcount
        for table in RELATIONAL_TABLES:
            cursor.execute(f"UPDATE {table} SET until_run = %s WHERE {where} AND path = ANY(%s)", args)
    return retired


# The first key of the transaction-level advisory locks that serialise writers of a store.
STORE_LOCK_NAMESPACE = 0x7261_6773  # "rags"


def lock_store(store_id: int) -> None:
    """Wait for (and hold until the transaction ends) the right to write into a store."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [STORE_LOCK_NAMESPACE, int(store_id) % 2**31])


def discard_version(run) -> None:
    """Undo a version written into an existing store: drop its rows, give back the rows it ended."""
    store = int(run.store_id)
    with transaction.atomic(), connection.cursor() as cursor:
        for table in ("rag_item", *RELATIONAL_TABLES):
            cursor.execute(f"DELETE FROM {table} WHERE store_id = %s AND since_run = %s", [store, int(run.pk)])
            cursor.execute(
                f"UPDATE {table} SET until_run = %s WHERE store_id = %s AND until_run = %s", [OPEN_END, store, int(run.pk)]
            )


def prune_store(store_id: int, oldest_kept: int) -> int:
    """Delete a store's rows that no version from ``oldest_kept`` on reads; returns how many items went."""
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM rag_item WHERE store_id = %s AND until_run <= %s", [int(store_id), int(oldest_kept)])
        deleted = cursor.rowcount
        for table in RELATIONAL_TABLES:
            cursor.execute(f"DELETE FROM {table} WHERE store_id = %s AND until_run <= %s", [int(store_id), int(oldest_kept)])
    return deleted


def drop_store(store_id: int) -> None:
    """Remove a store: its items partition and its rows in the ordinary tables."""
    drop_partition(store_id)
    with connection.cursor() as cursor:
        for table in RELATIONAL_TABLES:
            cursor.execute(f"DELETE FROM {table} WHERE store_id = %s", [int(store_id)])

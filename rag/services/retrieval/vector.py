"""The vector channel: the items nearest the query's embedding (HNSW), with the embedder that built the index.

A store's HNSW index holds the rows of every version the store keeps, and
pgvector (0.6) filters the index's list of neighbours after the index
search: of its ``hnsw.ef_search`` nearest rows, only the searched version's
come back. In a store that holds several versions (kept ones, or rows a
newer version ended that are not pruned yet) a search got fewer neighbours
than it asked for, and not the nearest ones (on the evaluation's stores of
kept versions, 0.76 to 0.83 of an exact search's 60 nearest on average, and
none at worst: docs/BENCHMARKS.md). So the list is lengthened by the
store's rows over the version's (``search_list``), both known without
reading either: the version's rows counted when it was indexed, the
store's from PostgreSQL's statistics of its partition. (A filter on a
folder or on some layers is left to the planner, which reads the rows and
orders them exactly when its statistics say the filter keeps few.)

The query's vector is sent through pgvector's adapter, registered on the
connection (``rag.storage.vector_connection``).
"""

from __future__ import annotations

import math
import threading

from cachetools import TTLCache
from django.conf import settings
from django.db import connection
from pgvector import Vector

from rag.embeddings import embedder_for_index
from rag.models import IndexRun
from rag.services.retrieval.params import RankingParams, item_filter
from rag.storage import partition_name, vector_connection

# pgvector's longest hnsw.ef_search.
MAX_EF_SEARCH = 1000
# How long a store's count of rows is reused: a store changes when a version is written into it or
# pruned, and a count that lags only makes the list a little longer or shorter than needed.
STORE_SHARE_SECONDS = 300
_store_rows: TTLCache = TTLCache(maxsize=256, ttl=STORE_SHARE_SECONDS)
_store_rows_lock = threading.Lock()


def query_vector(run: IndexRun, query: str, notes: list[str]):
    """The query embedded as the index's items were; None (with a note saying why) when it cannot be."""
    if not run.embedder or not run.embedding_dimension:
        if run.embedding_error:
            notes.append("this index has no vectors (embedding failed when it was built)")
        return None
    embedder = embedder_for_index(run.embedder, run.embedding_dimension)
    if embedder is None:
        notes.append(f"the embedder that built this index ({run.embedder}) is not available; lexical search only")
        return None
    try:
        return embedder.embed([query])[0]
    except Exception as exc:
        notes.append(f"query embedding failed ({exc}); lexical search only")
        return None


def hnsw_cursor(candidates: int, ef_search: int | None = None):
    """A cursor of this thread's connection, with pgvector's adapter (``vector_connection``) and an HNSW
    search list long enough for ``candidates`` neighbours: ``ef_search`` when given, else
    ``RAG_HNSW_EF_SEARCH``, or ``candidates`` when that is more (pgvector returns at most
    ``hnsw.ef_search`` rows)."""
    ef_search = max(ef_search or settings.RAG["HNSW_EF_SEARCH"], candidates)
    raw = vector_connection()
    # A cursor opened after the adapter is registered, so it sends the vector with it.
    cursor = connection.cursor()
    # A session setting: set once per database connection, not per query. Set inside a transaction it
    # lasts only as long as that transaction does, if it rolls back: then it is set every time.
    atomic = connection.in_atomic_block
    if atomic or getattr(raw, "_rag_ef_search", None) != ef_search:
        cursor.execute("SET hnsw.ef_search = %s", [ef_search])
        raw._rag_ef_search = None if atomic else ef_search
    return cursor


def store_rows(run: IndexRun) -> int:
    """The rows of ``run``'s store as PostgreSQL's statistics of its partition count them (0: never counted)."""
    store_id = int(run.store_id or 0)
    with _store_rows_lock:
        rows = _store_rows.get(store_id)
    if rows is None:
        with connection.cursor() as cursor:
            cursor.execute("SELECT reltuples FROM pg_class WHERE relname = %s", [partition_name(store_id)])
            found = cursor.fetchone()
        rows = max(int(found[0]), 0) if found else 0
        with _store_rows_lock:
            _store_rows[store_id] = rows
    return rows


def search_list(run: IndexRun, candidates: int) -> int:
    """The HNSW search list for ``candidates`` neighbours of ``run``: as configured (``hnsw_cursor``), times
    the store's rows over the version's, so that about as many of the list's rows are the version's;
    at most pgvector's limit. A version indexed without its count of rows gets the list as configured."""
    wanted = max(settings.RAG["HNSW_EF_SEARCH"], candidates)
    rows = int((run.counts or {}).get("items") or 0)
    if not rows:
        return wanted
    return min(MAX_EF_SEARCH, math.ceil(wanted * max(store_rows(run), rows) / rows))


def nearest_items(run: IndexRun, layers, path_regex, docs: bool, vector, params: RankingParams) -> list[tuple[int, str, bool]]:
    """The ``params.candidates`` items of the search's filter nearest ``vector``: id, layer, is_test."""
    dim = int(run.embedding_dimension)
    where, args = item_filter(run, layers, path_regex, docs)
    with hnsw_cursor(params.candidates, search_list(run, params.candidates)) as cursor:
        cursor.execute(nearest_sql(dim, where), [Vector(vector), *args, params.candidates])
        return cursor.fetchall()


def nearest_sql(dim: int, where: str) -> str:
    """The index search of the rows ``where`` keeps: parameters the vector, ``where``'s, and how many."""
    # Equal distances are ordered by id: the order rows happen to lie in changes as
    # later versions end rows of the same store (rag/storage.py).
    return (
        "SELECT id, layer, is_test FROM ("
        f"  SELECT id, layer, is_test, embedding::vector({dim}) <=> %s::vector({dim}) AS distance FROM rag_item "
        f"  WHERE {where} AND embedding IS NOT NULL ORDER BY distance LIMIT %s"
        ") nearest ORDER BY distance, id"
    )

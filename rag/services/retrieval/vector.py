"""The vector channel: the items nearest the query's embedding (HNSW), with the embedder that built the index.

The query's vector is sent through pgvector's adapter, registered on the
connection (``rag.storage.vector_connection``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from pgvector import Vector

from rag.embeddings import embedder_for_index
from rag.models import IndexRun
from rag.services.retrieval.params import RankingParams, item_filter
from rag.storage import vector_connection


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


def hnsw_cursor(candidates: int):
    """A cursor of this thread's connection, with pgvector's adapter (``vector_connection``) and an HNSW
    search list long enough for ``candidates`` neighbours: ``RAG_HNSW_EF_SEARCH``, or ``candidates`` when
    that is more (pgvector returns at most ``hnsw.ef_search`` rows)."""
    ef_search = max(settings.RAG["HNSW_EF_SEARCH"], candidates)
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


def nearest_items(run: IndexRun, layers, path_regex, docs: bool, vector, params: RankingParams) -> list[tuple[int, str, bool]]:
    dim = int(run.embedding_dimension)
    where, args = item_filter(run, layers, path_regex, docs)
    with hnsw_cursor(params.candidates) as cursor:
        # Equal distances are ordered by id: the order rows happen to lie in changes as
        # later versions end rows of the same store (rag/storage.py).
        cursor.execute(
            "SELECT id, layer, is_test FROM ("
            f"  SELECT id, layer, is_test, embedding::vector({dim}) <=> %s::vector({dim}) AS distance FROM rag_item "
            f"  WHERE {where} AND embedding IS NOT NULL ORDER BY distance LIMIT %s"
            ") nearest ORDER BY distance, id",
            [Vector(vector), *args, params.candidates],
        )
        return cursor.fetchall()

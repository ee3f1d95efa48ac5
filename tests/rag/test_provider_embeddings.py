"""Provider embeddings over real HTTP (the local fake OpenAI-compatible server): batches, the
recorded embedder, queries embedded by the same embedder, and a provider failure."""

from __future__ import annotations

import math

import pytest

from rag.models import IndexRun, Item
from rag.services import search
from tests.llm.fakes import Reply, fake_llm_server, fake_openai  # noqa: F401 (fixtures)
from tests.rag.conftest import SMALL_PROJECT, index_zip, make_zip


@pytest.fixture
def no_audit(settings):
    # Provider calls would also write audit rows from another thread; not needed here.
    settings.LLM = {**settings.LLM, "AUDIT": False}


@pytest.fixture
def provider_embedder(no_audit, fake_openai, settings):  # noqa: F811
    settings.RAG = {**settings.RAG, "EMBEDDER": "provider:openai", "EMBED_BATCH_SIZE": 4}
    return fake_openai


def test_an_index_built_with_provider_embeddings_is_queried_with_them(provider_embedder, owner, upload_dir):
    run = index_zip(owner, make_zip(SMALL_PROJECT))

    assert run.status == IndexRun.Status.READY, run.error
    assert (run.embedder, run.embedding_dimension) == ("provider:openai", provider_embedder.embedding_dims)
    embedded = run.counts["embeddings_computed"]
    assert embedded == Item.objects.in_version(run).filter(embedding__isnull=False).count() > 0
    calls = provider_embedder.requests_to("/embeddings")
    assert len(calls) == math.ceil(embedded / 4)
    assert all(len(call.json["input"]) <= 4 for call in calls)

    response = search(run.repository, "login_view")
    assert response.vector_used is True
    assert len(provider_embedder.requests_to("/embeddings")) == len(calls) + 1  # the query, same embedder
    assert response[0].path == "shop/views.py"


def test_when_the_provider_fails_the_run_completes_with_lexical_retrieval(provider_embedder, owner, upload_dir):
    provider_embedder.script(*[Reply.error(503, "overloaded") for _ in range(20)], kind="embeddings")
    run = index_zip(owner, make_zip(SMALL_PROJECT))

    assert run.status == IndexRun.Status.READY
    assert "full-text and symbol search only" in run.embedding_error
    assert "503" in run.embedding_error or "overloaded" in run.embedding_error
    assert len(provider_embedder.requests_to("/embeddings")) > 1  # retried before giving up
    response = search(run.repository, "login_view")
    assert response.vector_used is False and response[0].path == "shop/views.py"

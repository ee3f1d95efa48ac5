"""bench_index on the small fixture tree: it runs end to end and prints every figure."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rag.models import Repository
from rag.services.retrieval import DEFAULT_PARAMS
from tests.fixtures.projects import SHOPAPP


def test_bench_index_prints_indexing_and_latency_figures(db, upload_dir, capsys):
    call_command("bench_index", "--path", str(SHOPAPP), "--queries", "20", "--reindex")
    out = capsys.readouterr().out

    assert re.search(r"indexed 28 files, \d+ items in [\d.]+ s: \d+ files/s, \d+ C0 chunks/s", out)
    assert "time per stage: extract" in out
    assert re.search(r"reindex of the unchanged tree: .* 28 of 28 file analyses .* 0 computed", out)
    depth = DEFAULT_PARAMS.candidates
    for name in ("hybrid search (service, limit 8)", f"raw HNSW top-{depth} (floor)", f"raw full-text top-{depth} (floor)"):
        assert re.search(re.escape(name) + r"\s+[\d.]+ ms /\s+[\d.]+ ms", out), name
    assert "retrieval over 20 queries" in out
    assert not Repository.objects.filter(name="bench-django").exists()  # removed without --keep


def test_bench_index_times_issue_texts_as_the_agent_searches_them(db, upload_dir, tmp_path, capsys):
    dataset = tmp_path / "issues.jsonl"
    dataset.write_text(
        '{"repo": "shop/app", "query": "Checkout fails when the cart is empty\\nTraceback ..."}\n'
        '{"repo": "other/lib", "query": "not this one"}\n'
        '{"repo": "shop/app", "query": "Discounts are applied twice to orders"}\n'
    )
    call_command("bench_index", "--path", str(SHOPAPP), "--queries", "5", "--issue-texts", str(dataset), "--issue-repo", "shop")
    out = capsys.readouterr().out

    assert "the issue-text lines: 2 issue texts" in out
    for name in ("issue text: search + learned files", "issue text: search + fused files"):
        assert re.search(re.escape(name) + r"\s+[\d.]+ ms /\s+[\d.]+ ms", out), name


def test_bench_index_refuses_a_dataset_without_matching_issue_texts(db, tmp_path):
    dataset = tmp_path / "issues.jsonl"
    dataset.write_text('{"repo": "other/lib", "query": "x"}\n')
    with pytest.raises(CommandError, match="no issue text"):
        call_command("bench_index", "--path", str(SHOPAPP), "--issue-texts", str(dataset), "--issue-repo", "shop")


def test_the_hnsw_floor_and_the_vector_channel_search_the_same_list(transactional_db, settings):
    # pgvector returns at most hnsw.ef_search rows: a floor at its default (40) would read fewer than the channel's 60.
    from django.db import transaction

    from rag.services.retrieval.vector import hnsw_cursor

    def shown(candidates: int) -> str:
        with hnsw_cursor(candidates) as cursor:
            cursor.execute("SHOW hnsw.ef_search")
            return cursor.fetchone()[0]

    settings.RAG = {**settings.RAG, "HNSW_EF_SEARCH": 100}
    with transaction.atomic():
        # Set in a transaction that rolls back, the setting goes with it.
        assert shown(150) == "150"
        transaction.set_rollback(True)

    assert [shown(150), shown(60), shown(60)] == ["150", "100", "100"]

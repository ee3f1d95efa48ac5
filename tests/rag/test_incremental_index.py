"""A new version of a repository writes only the rows of what changed, and reads exactly as a full build would."""

from __future__ import annotations

import io
import re

import pytest

from django.core.management import call_command
from django.db import connection

from rag.embeddings import ProviderEmbedder
from rag.models import Edge, Entrypoint, IndexRun, SourceFile, Symbol
from rag.services import run_index, search, start_index_run
from rag.services.indexing import RECENT_ANALYSES
from rag.storage import version_filter
from tests.fixtures.projects import SHOPAPP
from tests.llm.fakes import Reply, fake_llm_server, fake_openai  # noqa: F401 (fixtures)
from tests.rag.conftest import SMALL_PROJECT, index_zip, make_zip

# The shop of the other retrieval tests, plus a URL route (an entrypoint row).
PROJECT = {
    **SMALL_PROJECT,
    "shop/urls.py": (
        "from django.urls import path\n"
        "\n"
        "from shop import views\n"
        "\n"
        'urlpatterns = [path("login/", views.login_view)]\n'
    ),
}

# models.py renames Cart.for_user, so the unchanged views.py no longer resolves its call:
# its dependency item changes although its file did not. One file goes, one comes.
CHANGED: dict[str, str] = {
    **{path: text for path, text in PROJECT.items() if path != "docs/deploy.md"},
    "shop/models.py": PROJECT["shop/models.py"].replace("for_user", "for_member")
    + "\n    def clear(self):\n        self.items = []\n",
    "shop/payments.py": "def charge(card, amount):\n    \"\"\"Charge the card.\"\"\"\n    return amount\n",
}

ITEM_COLUMNS = (
    "layer, path, start_line, end_line, title, content, metadata::text, qname, name, is_test, is_doc, "
    "file_hash, embed_hash, embedding::text, title_terms, body_terms, search::text, row_hash"
)


def _item_rows(run: IndexRun) -> list[tuple]:
    where, args = version_filter(run)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {ITEM_COLUMNS} FROM rag_item WHERE {where}", args)
        return sorted(cursor.fetchall(), key=repr)


def _rows(model, run: IndexRun) -> list[tuple]:
    where = ("id", "store_id", "since_run", "until_run")
    fields = [f.attname for f in model._meta.concrete_fields if f.attname not in where]
    return sorted(model.objects.in_version(run).values_list(*fields), key=repr)


def _assert_same_version(built: IndexRun, full: IndexRun) -> None:
    assert _item_rows(built) == _item_rows(full)
    for model in (SourceFile, Symbol, Edge, Entrypoint):
        assert _rows(model, built) == _rows(model, full), model.__name__


def _views_dependencies(run: IndexRun) -> str:
    where, args = version_filter(run)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT content FROM rag_item WHERE {where} AND layer = 'C2_DEPENDENCY_GRAPH' AND qname = %s",
            [*args, "shop.views.login_view"],
        )
        return cursor.fetchone()[0]


def _store_rows(run: IndexRun) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM rag_item WHERE store_id = %s", [run.store_id])
        return cursor.fetchone()[0]


@pytest.fixture
def in_place(settings):
    """Every new version is written into the store of the one before it, however much changed."""
    settings.RAG = {**settings.RAG, "REWRITE_SHARE": 1.0, "KEEP_SUPERSEDED": 5}


@pytest.mark.parametrize("analyses_in_memory", [True, False], ids=["analyses-in-memory", "analyses-read-back"])
def test_a_new_version_with_few_changes_has_exactly_the_rows_of_a_full_build(owner, upload_dir, in_place, analyses_in_memory):
    first = index_zip(owner, make_zip(PROJECT))
    if not analyses_in_memory:
        # As in another worker process: the first version's analyses are read back from the database.
        RECENT_ANALYSES.clear()
    second = index_zip(owner, make_zip(CHANGED))
    full = index_zip(owner, make_zip(CHANGED), name="shop-full")
    assert first.status == second.status == full.status == IndexRun.Status.READY

    assert second.repository_id == first.repository_id
    # Written into the first version's store: only the rows of what changed.
    assert second.store_id == first.store_id == first.pk and full.store_id == full.pk
    assert 0 < second.counts["items_sent"] < full.counts["items_sent"] == full.counts["items"]
    assert second.counts["items"] == full.counts["items"]
    assert second.counts["items_ended"] > 0
    # models.py changed, payments.py is new, and views.py (same text) resolves differently.
    assert second.counts["files_written"] == 3
    assert _store_rows(first) == first.counts["items"] + second.counts["items_sent"]
    # The unchanged views.py has a changed dependency item, and it is the new one.
    assert "(unresolved)" not in _views_dependencies(first)
    assert "(unresolved)" in _views_dependencies(second)
    _assert_same_version(second, full)
    assert "shop/payments.py" in {item.path for item in search(second.repository, "charge", mode="code").items}
    # The version before reads what it read before, rows and search alike.
    again = index_zip(owner, make_zip(PROJECT), name="shop-again")
    _assert_same_version(first, again)
    assert "shop/payments.py" not in {item.path for item in search(first.repository, "charge", mode="code", run=first).items}


def test_an_unchanged_tree_writes_no_row(owner, upload_dir, in_place):
    first = index_zip(owner, make_zip(PROJECT))
    second = index_zip(owner, make_zip(PROJECT))
    assert second.counts["items_sent"] == 0 and second.counts["files_written"] == 0
    assert second.counts["items"] == first.counts["items"]
    assert second.counts["embeddings_computed"] == 0
    _assert_same_version(second, first)


def test_superseded_versions_leave_the_store_once_no_kept_version_reads_their_rows(owner, upload_dir, in_place, settings):
    first = index_zip(owner, make_zip(PROJECT))
    second = index_zip(owner, make_zip(CHANGED))
    assert _store_rows(first) == first.counts["items"] + second.counts["items_sent"]
    settings.RAG = {**settings.RAG, "KEEP_SUPERSEDED": 0}
    third = index_zip(owner, make_zip(CHANGED))
    # Only the newest version is kept: the rows the first version alone read are gone.
    assert third.store_id == first.pk
    assert _store_rows(third) == third.counts["items"]
    _assert_same_version(third, index_zip(owner, make_zip(CHANGED), name="shop-full"))


def test_a_large_change_builds_a_new_store(owner, upload_dir, settings):
    settings.RAG = {**settings.RAG, "REWRITE_SHARE": 0.1, "KEEP_SUPERSEDED": 0}
    first = index_zip(owner, make_zip(PROJECT))
    second = index_zip(owner, make_zip(CHANGED))
    assert second.store_id == second.pk != first.pk
    assert second.counts["items_sent"] == second.counts["items"]
    assert second.counts["files_unchanged"] == len(CHANGED) - 2
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_class WHERE relname = %s", [f"rag_item_r{first.pk}"])
        assert cursor.fetchone()[0] == 0
    _assert_same_version(second, index_zip(owner, make_zip(CHANGED), name="shop-full"))


def test_a_version_without_vectors_is_built_whole_and_the_next_one_computes_them_again(owner, upload_dir):
    index_zip(owner, make_zip(PROJECT))
    run = start_index_run(owner=owner, name="shop", archive=io.BytesIO(make_zip(CHANGED)), defer=False)
    lexical = run_index(run.pk, embedder=ProviderEmbedder("no-such-provider"))
    assert lexical.status == IndexRun.Status.READY and lexical.embedding_error
    assert lexical.store_id == lexical.pk and lexical.counts["items_sent"] == lexical.counts["items"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM rag_item WHERE store_id = %s AND embedding IS NOT NULL", [lexical.pk])
        assert cursor.fetchone()[0] == 0

    again = index_zip(owner, make_zip(CHANGED))
    full = index_zip(owner, make_zip(CHANGED), name="shop-full")
    assert again.store_id == again.pk
    _assert_same_version(again, full)


def test_when_the_provider_fails_on_a_new_version_every_row_is_built_without_vectors(
    fake_openai, settings, owner, upload_dir, in_place  # noqa: F811
):
    settings.LLM = {**settings.LLM, "AUDIT": False}
    settings.RAG = {**settings.RAG, "EMBEDDER": "provider:openai"}
    first = index_zip(owner, make_zip(PROJECT))
    assert first.embedder == "provider:openai" and not first.embedding_error

    fake_openai.script(*[Reply.error(503, "overloaded") for _ in range(40)], kind="embeddings")
    lexical = index_zip(owner, make_zip(CHANGED))
    full = index_zip(owner, make_zip(CHANGED), name="shop-full")
    assert lexical.embedding_error and full.embedding_error
    assert lexical.store_id == lexical.pk and lexical.counts["items_sent"] == lexical.counts["items"]
    _assert_same_version(lexical, full)


def test_bench_index_times_incremental_versions_against_the_full_build(db, upload_dir, capsys):
    call_command("bench_index", "--path", str(SHOPAPP), "--queries", "5", "--incremental", "--runs", "2", "--changed", "2")
    out = capsys.readouterr().out

    assert re.search(
        r"incremental versions \(2 Python files changed each time, 2 runs\): median [\d.]+ s "
        r"\(runs [\d.]+, [\d.]+\), [\d.]+x the full build above",
        out,
    )
    assert "median per stage: extract" in out
    assert re.search(r"median CPU time: this process [\d.]+ s, its database backend [\d.]+ s \(full build: ", out)
    written = re.search(r"median items written (\d+) of (\d+); files written (\d+) of (\d+)", out)
    assert written, out
    items_sent, items, files_written, files = map(int, written.groups())
    assert 0 < items_sent < items
    assert 2 <= files_written < files


def test_bench_versions_times_commits_followed_by_git_against_the_full_build(db, upload_dir, capsys):
    call_command("bench_versions", "--path", str(SHOPAPP), "--runs", "2", "--queries", "3", "--no-large")
    out = capsys.readouterr().out

    full = re.search(r"bench-versions: (\d+) files; full build \(first sync\) ([\d.]+) s", out)
    assert full and int(full.group(1)) > 0, out
    one = re.search(r"one-file commit, sync start to searchable: median ([\d.]+) s \(runs [\d.]+, [\d.]+\)", out)
    assert one, out
    written = re.search(r"items written (\d+) of (\d+)", out)
    assert written and 0 < int(written.group(1)) < int(written.group(2))
    assert re.search(r"commit touching \d+ files \(a tenth\): [\d.]+ s, [\d.]+x the full build", out)
    assert re.search(r"ratio versioned / whole: p50 [\d.]+x, p95 [\d.]+x", out)

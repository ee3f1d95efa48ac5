"""Index runs through the real pipeline: versions, incremental reuse, failures, the atomic switch."""

from __future__ import annotations

import io
import os

from django.db import connection

from rag.embeddings import ProviderEmbedder
from rag.models import IndexRun, Item, SourceFile
from rag.services import read_source, run_index, search, start_index_run
from rag.services.repositories import reindex
from tests.rag.conftest import SMALL_PROJECT, add_symlink, index_zip, make_zip


def _partition_exists(run_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s)", [f"rag_item_r{run_id}"])
        return cursor.fetchone()[0] is not None


def test_a_complete_run_becomes_the_active_index_with_counts_and_timings(shop):
    run = shop.active_run
    assert run.status == IndexRun.Status.READY
    assert run.progress == 1.0
    assert run.counts["files"] == 6
    assert run.counts["C1_SYMBOL_CATALOG"] == 7  # login_view, render_cart, Cart + 3 methods, the test
    assert run.counts["D0_DOCS"] >= 3
    assert run.counts["items"] == Item.objects.in_version(run).count()
    assert [stage for stage, _ in run.stage_timings] == ["extract", "analyze", "embed", "load", "index", "total"]
    assert run.embedder == "hashing-code-v1-384" and run.embedding_dimension == 384
    assert Item.objects.in_version(run).filter(embedding__isnull=False).count() > 0


def test_reindex_of_a_changed_zip_reuses_unchanged_files(shop, owner):
    first = shop.active_run
    changed = dict(SMALL_PROJECT)
    changed["shop/views.py"] = SMALL_PROJECT["shop/views.py"] + "\n\ndef logout_view(request):\n    return None\n"
    second = index_zip(owner, make_zip(changed))

    assert second.repository_id == shop.pk
    assert second.status == IndexRun.Status.READY
    shop.refresh_from_db()
    assert shop.active_run_id == second.pk
    first.refresh_from_db()
    assert first.status == IndexRun.Status.SUPERSEDED
    assert second.counts["files_unchanged"] == 5
    # Their analysis (chunks, symbols, edges) came from the stored one instead of a new pass.
    assert second.counts["files_reused"] == 5
    # Only the items of the changed file (its new chunks and symbols) were embedded again.
    # Only the changed file's new chunks were embedded again (symbols and edges are found lexically).
    assert 0 < second.counts["embeddings_computed"] <= 3
    embedded = second.counts["C0_SOURCE_CHUNKS"] + second.counts["C3_ENTRYPOINTS"] + second.counts["D0_DOCS"]
    assert second.counts["embeddings_reused"] == embedded - second.counts["embeddings_computed"]
    top = search(shop, "logout_view", mode="code", limit=1)[0]
    assert (top.path, top.start_line) == ("shop/views.py", 14)


def test_a_failing_run_leaves_the_old_index_active(shop, owner):
    good = shop.active_run
    only_images = make_zip({"logo.png": b"\x89PNG\r\n\x1a\n" + bytes(200), "icon.gif": b"GIF89a" + bytes(50)})
    failed = index_zip(owner, only_images)

    assert failed.status == IndexRun.Status.FAILED
    assert "no text files to index" in failed.error
    assert failed.skipped["reasons"] == {"binary": 2}
    shop.refresh_from_db()
    assert shop.active_run_id == good.pk
    assert not _partition_exists(failed.pk)
    assert SourceFile.objects.in_version(failed).count() == 0
    assert search(shop, "login_view").items


def test_a_run_whose_archive_vanished_fails_in_plain_words(shop, owner):
    run = start_index_run(owner=owner, name="shop", archive=io.BytesIO(make_zip(SMALL_PROJECT)), defer=False)
    # Another run still uses the same stored archive; point this one at a missing file.
    IndexRun.objects.filter(pk=run.pk).update(archive_path=str(run.archive_path) + ".missing")
    failed = run_index(run.pk)
    assert failed.status == IndexRun.Status.FAILED
    assert "cannot be read" in failed.error
    shop.refresh_from_db()
    assert shop.active_run.status == IndexRun.Status.READY


def test_when_embeddings_fail_the_run_completes_with_lexical_retrieval(owner, upload_dir):
    run = start_index_run(owner=owner, name="shop", archive=io.BytesIO(make_zip(SMALL_PROJECT)), defer=False)
    run = run_index(run.pk, embedder=ProviderEmbedder("no-such-provider"))

    assert run.status == IndexRun.Status.READY
    assert "full-text and symbol search only" in run.embedding_error
    assert run.embedder == "" and run.embedding_dimension is None
    assert Item.objects.in_version(run).filter(embedding__isnull=False).count() == 0
    response = search(run.repository, "login_view")
    assert response.vector_used is False
    assert response.items[0].path == "shop/views.py"


def test_a_file_that_is_not_utf8_is_indexed_with_replacement_characters(owner, upload_dir):
    files = {"legacy.py": "# caf\xe9\ndef brew():\n    return 'caf\xe9'\n".encode("cp1252"), "ok.py": "x = 1\n"}
    run = index_zip(owner, make_zip(files), name="legacy")
    assert run.status == IndexRun.Status.READY
    assert run.counts["files_with_replaced_bytes"] == 1
    source = read_source(run.repository, "legacy.py")
    assert "caf\ufffd" in source.text
    assert SourceFile.objects.in_version(run).get(path="legacy.py").replaced_bytes is True


def test_nul_characters_in_docstrings_and_decorators_do_not_stop_a_run(owner, upload_dir):
    source = (
        'import click\n\n\n'
        '@click.command(help="stop at \\0")\n'
        'def strip():\n'
        '    """Split words at \\0 and spaces."""\n'
        '    return "\\0"\n'
    )
    run = index_zip(owner, make_zip({"porter.py": source}), name="nul")
    assert run.status == IndexRun.Status.READY, run.error
    assert read_source(run.repository, "porter.py").text.splitlines() == source.splitlines()
    assert search(run.repository, "strip").items[0].path == "porter.py"


def test_an_upload_with_a_symlink_indexes_the_rest_and_reports_the_link_unread(owner, upload_dir):
    data = add_symlink(make_zip(SMALL_PROJECT), "shop-main/shop/secrets.py", "../../../etc/passwd")
    run = index_zip(owner, data)
    assert run.status == IndexRun.Status.READY, run.error
    assert run.skipped["reasons"] == {"symbolic link (not followed)": 1}
    assert run.skipped["files"] == [{"path": "shop/secrets.py", "reason": "symbolic link (not followed)"}]
    paths = set(SourceFile.objects.in_version(run).values_list("path", flat=True))
    assert paths == set(SMALL_PROJECT) and "shop/secrets.py" not in paths
    # Only the vector channel's nearest neighbours, which always answer: nothing holds the link's target.
    found = search(run.repository, "passwd").items
    assert found and all(set(r.channels) == {"vector"} and "passwd" not in r.content for r in found)


def test_reindex_builds_a_new_version_from_the_stored_archive(shop):
    previous = shop.active_run
    run = run_index(reindex(shop, defer=False).pk)
    assert run.status == IndexRun.Status.READY
    assert run.trigger == IndexRun.Trigger.ADMIN
    assert run.counts["embeddings_computed"] == 0
    shop.refresh_from_db()
    assert shop.active_run_id == run.pk
    previous.refresh_from_db()
    assert previous.status == IndexRun.Status.SUPERSEDED


def test_superseded_versions_beyond_the_kept_one_are_dropped(shop, settings):
    settings.RAG = {**settings.RAG, "REWRITE_SHARE": 0.0}
    first = shop.active_run
    run_index(reindex(shop, defer=False).pk)
    run_index(reindex(shop, defer=False).pk)
    first.refresh_from_db()
    assert first.status == IndexRun.Status.SUPERSEDED and first.has_items is False
    # Each version was built as a store of its own: the pruned one's is gone, rows and all.
    assert not _partition_exists(first.pk)
    assert SourceFile.objects.filter(store_id=first.pk).count() == 0


def test_a_store_shared_by_kept_versions_keeps_only_the_rows_they_read(shop, owner, settings):
    settings.RAG = {**settings.RAG, "REWRITE_SHARE": 1.0, "KEEP_SUPERSEDED": 1}
    first = shop.active_run
    changed = {**SMALL_PROJECT, "shop/extra.py": "def extra():\n    return 1\n"}
    second = index_zip(owner, make_zip(changed))
    third = index_zip(owner, make_zip(SMALL_PROJECT))
    first.refresh_from_db()
    assert first.has_items is False and second.store_id == third.store_id == first.pk
    # The second version (kept) still reads its extra file; the first one's rows are gone.
    assert SourceFile.objects.in_version(second).filter(path="shop/extra.py").exists()
    assert not SourceFile.objects.in_version(third).filter(path="shop/extra.py").exists()
    assert Item.objects.filter(store_id=first.pk).count() == third.counts["items"] + second.counts["items_sent"]


def test_deleting_a_repository_drops_its_index_and_archive(shop):
    from rag.services import delete_repository

    run = shop.active_run
    archive = run.archive_path
    delete_repository(shop)
    assert not _partition_exists(run.pk)
    assert not IndexRun.objects.filter(pk=run.pk).exists()
    assert not os.path.exists(archive)


def test_a_cancelled_run_never_builds_and_the_old_index_keeps_serving(shop, owner):
    from rag.services.repositories import cancel_index_run

    good = shop.active_run
    run = start_index_run(owner=owner, name="shop", archive=io.BytesIO(make_zip(SMALL_PROJECT)), defer=False)
    assert cancel_index_run(run, by=owner) is True
    finished = run_index(run.pk)
    assert finished.status == IndexRun.Status.FAILED
    assert finished.error.startswith("Cancelled by owner")
    assert not _partition_exists(run.pk)
    shop.refresh_from_db()
    assert shop.active_run_id == good.pk
    assert cancel_index_run(finished) is False

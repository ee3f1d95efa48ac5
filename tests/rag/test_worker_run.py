"""One upload through the page, indexed by a real worker process, to a ready, searchable index."""

from __future__ import annotations

import time

from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rag.models import IndexRun, Repository
from tests.factories import PASSWORD
from tests.rag.conftest import SMALL_PROJECT, make_zip


def _wait_until_finished(run_id: int, timeout: float = 60.0) -> tuple[IndexRun, list[float]]:
    """The finished run, and the progress values seen while it ran."""
    seen: list[float] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        run = IndexRun.objects.get(pk=run_id)
        seen.append(run.progress)
        if run.is_finished:
            return run, seen
        time.sleep(0.05)
    raise AssertionError(f"run {run_id} did not finish in {timeout} s (stage: {run.stage})")


def test_an_uploaded_zip_is_indexed_by_the_worker_and_becomes_searchable(worker_process, client, owner, upload_dir):
    client.login(username=owner.username, password=PASSWORD)
    archive = SimpleUploadedFile("shop.zip", make_zip(SMALL_PROJECT), content_type="application/zip")
    response = client.post(reverse("rag-upload"), {"archive": archive})
    assert response.status_code == 302

    repository = Repository.objects.get(owner=owner, name="shop")
    run, seen = _wait_until_finished(repository.runs.get().pk)

    assert run.status == IndexRun.Status.READY, run.error
    assert seen[-1] == 1.0
    repository.refresh_from_db()
    assert repository.active_run_id == run.pk
    results = client.get(reverse("rag-search", args=[repository.pk]), {"q": "sum of the item prices"}).json()["results"]
    assert results[0]["path"] == "shop/models.py"
    page = client.get(reverse("rag-repository", args=[repository.pk])).content.decode()
    assert 'badge active">serving' in page and 'hx-trigger="every 1s"' not in page

"""A worker killed in the middle of an index run, against real worker processes.

The run must end failed with its half-built rows dropped, the repository's
queue must be free for the next upload, and the previous index serves all along.
"""

from __future__ import annotations

import io
import signal
import subprocess
import sys
import time
from pathlib import Path

import django
import pytest
from django.db import connection

from rag import storage
from rag.models import IndexRun, Repository
from rag.services import search
from rag.services.repositories import ABANDONED, start_index_run, start_index_run_from_path
from tests.conftest import ROOT, product_process_env
from tests.rag.conftest import SMALL_PROJECT, make_zip

# Large enough (Django's ORM: about 120 files, 53,000 lines) that the worker is still loading its
# rows and building their indexes for a second or more after the version's partition appears,
# which is when the tests kill it; small enough to analyse in a few seconds.
LARGE_TREE = Path(django.__file__).parent / "db"

# Small enough that a test sees a dead worker found within seconds.
FAST_RECOVERY = {"WORKER_HEARTBEAT_SECONDS": "0.5", "WORKER_STALLED_SECONDS": "2", "WORKER_RECOVERY_SECONDS": "1"}


def _start_worker() -> subprocess.Popen:
    env = product_process_env() | FAST_RECOVERY
    return subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "procrastinate", "worker"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )


def _stop(worker: subprocess.Popen) -> None:
    if worker.poll() is None:
        worker.send_signal(signal.SIGTERM)
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
            worker.wait()


def _wait(condition, what: str, timeout: float = 90.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"not within {timeout} s: {what}")


def _partition_exists(run_id: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_class WHERE relname = %s)", [storage.partition_name(run_id)])
        return cursor.fetchone()[0]


def _job_status(job_id: int) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT status::text FROM procrastinate_jobs WHERE id = %s", [job_id])
        return cursor.fetchone()[0]


def _finished(run_id: int) -> IndexRun | None:
    run = IndexRun.objects.get(pk=run_id)
    return run if run.is_finished else None


@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_run_fails_the_run_frees_the_repository_and_keeps_the_old_index(owner, upload_dir):
    worker = _start_worker()
    try:
        first = start_index_run(owner=owner, name="shop", archive=_zip_file(SMALL_PROJECT), archive_name="shop.zip")
        assert _wait(lambda: _finished(first.pk), "the first version is built").status == IndexRun.Status.READY

        big = start_index_run_from_path(LARGE_TREE, owner=owner, name="shop", defer=True)
        assert big.repository_id == first.repository_id
        _wait(lambda: _partition_exists(big.pk), "the large version starts loading its rows")
        worker.send_signal(signal.SIGKILL)
        worker.wait()
        repository = Repository.objects.select_related("active_run").get(pk=first.repository_id)
        assert repository.active_run_id == first.pk
        assert search(repository, "sum of the item prices")[0].path == "shop/models.py"

        queued = start_index_run(owner=owner, name="shop", archive=_zip_file(SMALL_PROJECT), archive_name="shop.zip")
        worker = _start_worker()
        # The job is finished last, once the run is failed and its rows are gone.
        _wait(lambda: _job_status(big.job_id) == "failed", "the killed run's job is failed by the recovery")
        failed = IndexRun.objects.get(pk=big.pk)
        assert failed.status == IndexRun.Status.FAILED
        assert failed.error == ABANDONED
        assert not _partition_exists(big.pk)

        # The lock is free: the upload queued behind the killed run is indexed and serves.
        third = _wait(lambda: _finished(queued.pk), "the next upload is indexed")
        assert third.status == IndexRun.Status.READY, third.error
        repository = Repository.objects.select_related("active_run").get(pk=first.repository_id)
        assert repository.active_run_id == third.pk
        assert search(repository, "sum of the item prices")[0].path == "shop/models.py"
    finally:
        _stop(worker)


def _zip_file(files) -> io.BytesIO:
    return io.BytesIO(make_zip(files))

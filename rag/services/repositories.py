"""Repositories and index runs: access, uploads, reindexing, the atomic switch, cleanup."""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import IO

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.http import Http404
from django.utils import timezone
from procrastinate.contrib.django import app
from procrastinate.jobs import Status as JobStatus

from rag import storage
from rag.intake import ArchiveReport, IntakeError, IntakeLimits, inspect_archive, zip_directory
from rag.models import IndexRun, Repository
from rag.services import jobs
from rag.sources.git import GitError
from rag.sources.git import mirror_path as git_mirror_path

logger = logging.getLogger(__name__)


class RepositoryNameError(IntakeError):
    code = "name"


def repositories_for_user(user) -> QuerySet[Repository]:
    """The repositories ``user`` may see: their own, or all for staff."""
    queryset = Repository.objects.select_related("owner", "active_run")
    return queryset if user.is_staff else queryset.filter(owner=user)


def get_repository_for_user(user, pk: int) -> Repository:
    """The repository ``pk`` if ``user`` may see it; ``Http404`` otherwise (also for other users' ones)."""
    if not getattr(user, "is_authenticated", False):
        raise Http404("No such repository")
    try:
        return repositories_for_user(user).get(pk=pk)
    except (Repository.DoesNotExist, ValueError, TypeError):
        raise Http404("No such repository") from None


def upload_dir() -> Path:
    path = Path(settings.RAG["UPLOAD_DIR"])
    path.mkdir(parents=True, exist_ok=True)
    return path


def store_archive(source: IO[bytes]) -> tuple[str, str, int]:
    """Copy a checked archive into upload storage, named by its SHA-256; returns (path, sha256, size)."""
    digest = hashlib.sha256()
    directory = upload_dir()
    source.seek(0)
    fd, tmp_name = tempfile.mkstemp(dir=directory, suffix=".part")
    size = 0
    try:
        with os.fdopen(fd, "wb") as out:
            for block in iter(lambda: source.read(1 << 20), b""):
                digest.update(block)
                out.write(block)
                size += len(block)
        final = directory / f"{digest.hexdigest()}.zip"
        os.replace(tmp_name, final)
    except BaseException:
        if os.path.exists(tmp_name):
            os.unlink(tmp_name)
        raise
    return str(final), digest.hexdigest(), size


def clean_repository_name(name: str, archive_name: str = "") -> str:
    name = (name or "").strip()
    if not name and archive_name:
        name = Path(archive_name).name
        for suffix in (".zip", ".ZIP"):
            name = name.removesuffix(suffix)
    name = name.strip()
    if not name:
        raise RepositoryNameError("Give the repository a name.")
    if len(name) > 200:
        raise RepositoryNameError("The name is longer than 200 characters.")
    return name


def start_index_run(
    *,
    owner,
    name: str,
    archive: IO[bytes],
    archive_name: str = "",
    trigger: str = IndexRun.Trigger.UPLOAD,
    created_by=None,
    defer: bool = True,
    limits: IntakeLimits | None = None,
) -> IndexRun:
    """Check and store an archive, create (or reuse) the repository by name and queue a run.

    Raises ``IntakeError`` before anything is stored when the archive is
    refused. An existing repository of the same owner and name gets a reindex.
    With ``defer`` the run is queued for the worker after the transaction commits.
    """
    name = clean_repository_name(name, archive_name)
    report: ArchiveReport = inspect_archive(archive, limits)
    path, sha256, size = store_archive(archive)
    with transaction.atomic():
        repository, _ = Repository.objects.get_or_create(owner=owner, name=name)
        run = IndexRun.objects.create(
            repository=repository,
            trigger=trigger,
            archive_path=path,
            archive_sha256=sha256,
            archive_size=size,
            archive_name=Path(archive_name).name[:255] if archive_name else "",
            created_by=created_by or owner,
            stage=f"queued ({report.files:,} files in the archive)",
        )
        Repository.objects.filter(pk=repository.pk).update(updated_at=timezone.now())
        if defer:
            transaction.on_commit(lambda: enqueue_run(run))
    return run


def reindex(repository: Repository, *, created_by=None, trigger: str = IndexRun.Trigger.ADMIN, defer: bool = True) -> IndexRun:
    """A new run over the repository's latest stored archive (its latest commit when it follows git)."""
    if hasattr(repository, "git_remote"):
        return _reindex_commit(repository, created_by=created_by, trigger=trigger, defer=defer)
    latest = (
        repository.runs.exclude(archive_path="").order_by("-created_at", "-id").first()
    )
    if latest is None or not os.path.exists(latest.archive_path):
        raise IntakeError("There is no stored archive for this repository; upload a zip instead.")
    with transaction.atomic():
        run = IndexRun.objects.create(
            repository=repository,
            trigger=trigger,
            archive_path=latest.archive_path,
            archive_sha256=latest.archive_sha256,
            archive_size=latest.archive_size,
            archive_name=latest.archive_name,
            created_by=created_by,
            stage="queued (reindex)",
        )
        if defer:
            transaction.on_commit(lambda: enqueue_run(run))
    return run


def _reindex_commit(repository: Repository, *, created_by, trigger: str, defer: bool) -> IndexRun:
    """A new run over the commit of the repository's newest version (the reindex of a git repository)."""
    latest = repository.runs.exclude(commit_sha="").order_by("-id").first()
    if latest is None:
        raise GitError("This repository has no fetched commit yet; sync it first.")
    with transaction.atomic():
        run = IndexRun.objects.create(
            repository=repository, trigger=trigger, commit_sha=latest.commit_sha, commit_message=latest.commit_message,
            archive_name=latest.archive_name, archive_path="", archive_sha256="", created_by=created_by,
            stage="queued (reindex)",
        )
        if defer:
            transaction.on_commit(lambda: enqueue_run(run))
    return run


def enqueue_run(run: IndexRun) -> int:
    """Queue the run for the worker. Runs of one repository execute one at a time (the lock)."""
    job_id = jobs.defer_index_run(run.pk, run.repository_id)
    IndexRun.objects.filter(pk=run.pk).update(job_id=job_id)
    run.job_id = job_id
    return job_id


class RunCancelled(Exception):
    """The run was cancelled while it worked."""


class BaseVersionChanged(Exception):
    """The version a run was written on no longer serves, so the run's rows cannot become the next version."""


def activate_index(run: IndexRun, *, built_on: IndexRun | None = None) -> IndexRun:
    """Make a complete run the repository's active index in one transaction.

    The previous active run becomes superseded. A run older than the one
    already active is superseded at once instead (the newer upload wins).
    Raises ``RunCancelled`` when the run was cancelled meanwhile, and
    ``BaseVersionChanged`` when ``built_on`` (the version whose store the run
    was written into) is no longer the active one.
    """
    with transaction.atomic():
        repository = Repository.objects.select_for_update().get(pk=run.repository_id)
        # Locked after the repository, like cancel_index_run, so a cancel and
        # an activation cannot interleave.
        status = IndexRun.objects.select_for_update().values_list("status", flat=True).get(pk=run.pk)
        if status != IndexRun.Status.RUNNING:
            raise RunCancelled(f"run {run.pk} is {status}, not running")
        previous_id = repository.active_run_id
        if built_on is not None and previous_id != built_on.pk:
            raise BaseVersionChanged(
                "The index version this one was built on was replaced meanwhile; run the indexing again."
            )
        now = timezone.now()
        if previous_id is not None and previous_id > run.pk:
            IndexRun.objects.filter(pk=run.pk).update(
                status=IndexRun.Status.SUPERSEDED, progress=1.0, stage="superseded by a newer run", finished_at=now
            )
        else:
            IndexRun.objects.filter(pk=run.pk).update(
                status=IndexRun.Status.READY, progress=1.0, stage="ready", finished_at=now
            )
            if previous_id is not None and previous_id != run.pk:
                IndexRun.objects.filter(pk=previous_id).update(status=IndexRun.Status.SUPERSEDED)
            Repository.objects.filter(pk=repository.pk).update(active_run=run, updated_at=now)
    run.refresh_from_db()
    return run


CANCELLED = "Cancelled before it finished; the previous index, if any, is still in use."


def cancel_index_run(run: IndexRun, *, by=None) -> bool:
    """Stop a queued or running run; the previous index keeps serving. False if it had finished.

    A queued job is cancelled in the queue; a running one stops at its next
    stage (``run_index`` checks) and drops what it built.
    """
    with transaction.atomic():
        Repository.objects.select_for_update().get(pk=run.repository_id)
        locked = IndexRun.objects.select_for_update().get(pk=run.pk)
        if locked.is_finished:
            return False
        who = f" by {by.get_username()}" if by is not None else ""
        IndexRun.objects.filter(pk=run.pk).update(
            status=IndexRun.Status.FAILED, error=CANCELLED.replace("Cancelled", f"Cancelled{who}", 1),
            stage="cancelled", finished_at=timezone.now(),
        )
    if locked.job_id is not None:
        app.job_manager.cancel_job_by_id(locked.job_id, abort=True)
    return True


ABANDONED = (
    "The worker running this index stopped (killed or crashed) before it finished; "
    "the previous index, if any, is still in use. Upload or reindex to try again."
)


def fail_abandoned_run(run_id: int) -> bool:
    """Fail a run whose worker is gone and drop the rows it built; False when it had become ready.

    A run that was cancelled while its worker was dead is already failed but
    still holds its half-built rows: those are dropped too.
    """
    with transaction.atomic():
        run = IndexRun.objects.filter(pk=run_id).first()
        if run is None:
            return False
        # The same lock order as cancel_index_run and activate_index: repository, then run.
        Repository.objects.select_for_update().get(pk=run.repository_id)
        run = IndexRun.objects.select_for_update().get(pk=run_id)
        if run.status in (IndexRun.Status.READY, IndexRun.Status.SUPERSEDED):
            return False
        if not run.is_finished:
            IndexRun.objects.filter(pk=run.pk).update(
                status=IndexRun.Status.FAILED, error=ABANDONED, stage="failed: worker stopped", finished_at=timezone.now()
            )
    drop_run_rows(run)
    logger.warning("index run %s was abandoned by its worker; marked failed and its rows dropped", run_id)
    return True


ACTIVE_JOB_STATES = ("todo", "doing")


def abandoned_run_ids() -> list[int]:
    """Runs still queued or running whose job is no longer waiting or being worked on (or is gone)."""
    with connection.cursor() as cursor:
        cursor.execute(
            """
            SELECT run.id FROM rag_indexrun run
            LEFT JOIN procrastinate_jobs job ON job.id = run.job_id
            WHERE run.status IN (%s, %s) AND run.job_id IS NOT NULL
              AND (job.id IS NULL OR job.status::text <> ALL(%s))
            """,
            [IndexRun.Status.QUEUED, IndexRun.Status.RUNNING, list(ACTIVE_JOB_STATES)],
        )
        return [row[0] for row in cursor.fetchall()]


async def recover_abandoned_runs(stalled_after: float) -> list[int]:
    """Fail the index runs of workers that stopped sending heartbeats, and free their repositories.

    A worker killed mid-run leaves its job ``doing``, which keeps the
    repository's queueing lock, so every later upload would wait forever.
    Such jobs are found by the worker heartbeats procrastinate records (no
    heartbeat for ``stalled_after`` seconds); each run is failed with its
    rows dropped, then its job is finished as failed, which frees the lock.
    Runs whose job ended some other way without the run noticing are failed too.
    Returns the ids of the runs failed.
    """
    failed: list[int] = []
    stalled = []
    # A git sync builds its version inside its own job (the run records that job's id).
    for task_name in jobs.BUILDING_TASKS:
        stalled += await app.job_manager.get_stalled_jobs(task_name=task_name, seconds_since_heartbeat=stalled_after)
    for job in stalled:
        run_id = job.task_kwargs.get("run_id")
        run_ids = [run_id] if run_id is not None else await sync_to_async(_run_ids_of_job)(job.id)
        for run_id in run_ids:
            if await sync_to_async(fail_abandoned_run)(run_id):
                failed.append(run_id)
        await app.job_manager.finish_job_by_id_async(job.id, status=JobStatus.FAILED, delete_job=False)
    for run_id in await sync_to_async(abandoned_run_ids)():
        if await sync_to_async(fail_abandoned_run)(run_id):
            failed.append(run_id)
    return failed


def _run_ids_of_job(job_id: int) -> list[int]:
    return list(IndexRun.objects.filter(job_id=job_id).values_list("pk", flat=True))


def drop_run_rows(run: IndexRun) -> None:
    """Delete what a run that never served (failed or cancelled) wrote.

    A run that built its own store drops it; one written into the store of
    the version before it removes its rows and gives back the rows it ended.
    """
    run.refresh_from_db(fields=["store"])
    if run.store_id is None or run.store_id == run.pk:
        storage.drop_store(run.pk)
    else:
        storage.discard_version(run)
    IndexRun.objects.filter(pk=run.pk).update(has_items=False)


def prune_superseded(repository: Repository, keep: int | None = None) -> int:
    """Drop the rows of superseded runs beyond the ``keep`` newest; returns how many runs were pruned.

    A store no kept version reads is dropped whole; in one that still serves,
    the rows only pruned versions read are deleted.
    """
    keep = settings.RAG["KEEP_SUPERSEDED"] if keep is None else keep
    stale = list(
        IndexRun.objects.filter(repository=repository, status=IndexRun.Status.SUPERSEDED)
        .filter(has_items=True)
        .order_by("-id")[keep:]
    )
    if not stale:
        return 0
    IndexRun.objects.filter(pk__in=[run.pk for run in stale]).update(has_items=False)
    for store_id in sorted({run.store_id for run in stale if run.store_id is not None}):
        users = IndexRun.objects.filter(store_id=store_id).filter(
            Q(has_items=True) | Q(status__in=[IndexRun.Status.QUEUED, IndexRun.Status.RUNNING])
        )
        oldest = users.filter(has_items=True).order_by("pk").values_list("pk", flat=True).first()
        if not users.exists():
            storage.drop_store(store_id)
        elif oldest is not None:
            storage.prune_store(store_id, oldest)
    return len(stale)


def delete_repository(repository: Repository) -> None:
    """Delete a repository with all its index versions and its stored archives no other run uses."""
    archives = set(repository.runs.exclude(archive_path="").values_list("archive_path", flat=True))
    mirror = git_mirror_path(repository.pk)
    # Deleting the runs drops their items partitions (rag/signals.py).
    repository.delete()
    shutil.rmtree(mirror, ignore_errors=True)
    for path in archives:
        if not IndexRun.objects.filter(archive_path=path).exists() and os.path.exists(path):
            os.unlink(path)



def start_index_run_from_path(
    path: str | os.PathLike[str], *, owner, name: str = "", defer: bool = False, trigger: str = IndexRun.Trigger.COMMAND
) -> IndexRun:
    """``start_index_run`` for a zip file or a directory (zipped first, without skipped folders and links)."""
    source = Path(path).expanduser()
    if source.is_dir():
        with tempfile.TemporaryFile() as handle:
            zip_directory(source, handle)
            handle.seek(0)
            return start_index_run(
                owner=owner, name=name or source.resolve().name, archive=handle, archive_name=f"{source.resolve().name}.zip",
                trigger=trigger, created_by=owner, defer=defer,
            )
    if not source.is_file():
        raise IntakeError(f"{source} is neither a zip file nor a directory.")
    with open(source, "rb") as handle:
        return start_index_run(
            owner=owner, name=name, archive=handle, archive_name=source.name, trigger=trigger, created_by=owner, defer=defer,
        )

"""Indexing snapshots through the product's own intake and index runs.

Every snapshot of one dataset repository is a new index run of the same
product repository, exactly like a user uploading a newer zip: the run
reuses what the active index already holds for files whose content is
unchanged, so walking a repository's history does not rebuild everything.
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from rag.evaluation.snapshots import Snapshot
from rag.models import IndexRun, Repository
from rag.services import delete_repository, run_index, start_index_run

EVALUATION_USERNAME = "rag-evaluation"


class SnapshotIndexFailed(RuntimeError):
    """The product's index run for a snapshot failed; the message is the run's own error."""


@dataclass(frozen=True)
class IndexedSnapshot:
    repository: Repository
    run: IndexRun


def evaluation_owner():
    """The account that owns evaluation repositories: it cannot log in, so they stay out of everyone's pages."""
    user_model = get_user_model()
    user, created = user_model.objects.get_or_create(username=EVALUATION_USERNAME, defaults={"is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def repository_name(dataset_repo: str) -> str:
    return f"evaluation {dataset_repo}"


def snapshot_zip(snapshot: Snapshot, destination) -> None:
    """The snapshot as an upload would bring it: one zip, files stored uncompressed (it never leaves the machine)."""
    with zipfile.ZipFile(destination, "w", compression=zipfile.ZIP_STORED) as archive:
        for path in sorted(snapshot.contents):
            info = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o100644 << 16
            archive.writestr(info, snapshot.contents[path])


def index_snapshot(dataset_repo: str, snapshot: Snapshot, owner) -> IndexedSnapshot:
    """Index ``snapshot`` as the next version of the evaluation repository for ``dataset_repo``.

    The archive of the version it replaces is removed once the new one serves:
    evaluation walks many commits and only ever needs the newest.
    """
    with tempfile.TemporaryFile() as archive:
        snapshot_zip(snapshot, archive)
        run = start_index_run(
            owner=owner,
            name=repository_name(dataset_repo),
            archive=archive,
            archive_name=f"{snapshot.commit}.zip",
            trigger=IndexRun.Trigger.COMMAND,
            defer=False,
        )
    previous = Repository.objects.get(pk=run.repository_id).active_run
    run = run_index(run.pk)
    if run.status != IndexRun.Status.READY:
        raise SnapshotIndexFailed(run.error or f"index run ended {run.status}")
    if previous is not None and previous.archive_path != run.archive_path:
        _remove_archive(previous.archive_path)
    return IndexedSnapshot(repository=Repository.objects.select_related("active_run").get(pk=run.repository_id), run=run)


def discard_evaluation_repository(dataset_repo: str, owner) -> None:
    """Drop every index version and stored archive of the evaluation repository, if there is one."""
    repository = Repository.objects.filter(owner=owner, name=repository_name(dataset_repo)).first()
    if repository is not None:
        delete_repository(repository)


def _remove_archive(path: str) -> None:
    if path and not IndexRun.objects.filter(
        archive_path=path, status__in=[IndexRun.Status.QUEUED, IndexRun.Status.RUNNING, IndexRun.Status.READY]
    ).exists():
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass

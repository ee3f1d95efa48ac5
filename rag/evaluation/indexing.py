"""Indexing snapshots through the product's own intake and index runs.

Every snapshot of one dataset repository is a new index run of the same
product repository, exactly like a user uploading a newer zip: the run
reuses what the active index already holds for files whose content is
unchanged, so walking a repository's history does not rebuild everything.

Versions can also be kept between evaluations (``RAG_KEEP_SUPERSEDED`` decides
how many superseded versions keep their rows): a snapshot whose archive is
byte for byte one a kept version was built from, by the current item format,
is searched in that version instead of being indexed again.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from dataclasses import dataclass

from django.contrib.auth import get_user_model

from rag.evaluation.snapshots import Snapshot
from rag.models import IndexRun, Repository
from rag.services import delete_repository, run_index, start_index_run
from rag.services.index_items import ITEM_FORMAT

EVALUATION_USERNAME = "rag-evaluation"


class SnapshotIndexFailed(RuntimeError):
    """The product's index run for a snapshot failed; the message is the run's own error."""


@dataclass(frozen=True)
class IndexedSnapshot:
    repository: Repository
    run: IndexRun
    # True when ``run`` is a stored version searched again rather than a run made for this snapshot.
    reused: bool = False


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


# Every entry sits in this folder, as in GitHub's ``repo-main/`` archives. Intake strips a zip's single
# top folder, so without it a snapshot whose files all live under one folder (``src/``) would lose
# that folder from every path and no longer match the dataset's gold files.
SNAPSHOT_FOLDER = "snapshot"


def snapshot_zip(snapshot: Snapshot, destination) -> None:
    """The snapshot as an upload would bring it: one zip, files stored uncompressed (it never leaves the machine)."""
    with zipfile.ZipFile(destination, "w", compression=zipfile.ZIP_STORED) as archive:
        for path in sorted(snapshot.contents):
            info = zipfile.ZipInfo(f"{SNAPSHOT_FOLDER}/{path}", date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o100644 << 16
            archive.writestr(info, snapshot.contents[path])


def stored_version(dataset_repo: str, owner, archive_sha256: str) -> IndexRun | None:
    """The newest kept version of the evaluation repository built from this archive by the current item format."""
    return (
        IndexRun.objects.select_related("repository")
        .filter(
            repository__owner=owner,
            repository__name=repository_name(dataset_repo),
            archive_sha256=archive_sha256,
            status__in=[IndexRun.Status.READY, IndexRun.Status.SUPERSEDED],
            # A pruned version has lost its rows; a version from another item format derives them differently.
            has_items=True,
            item_format=ITEM_FORMAT,
        )
        .order_by("-id")
        .first()
    )


def index_snapshot(dataset_repo: str, snapshot: Snapshot, owner, *, reuse: bool = False) -> IndexedSnapshot:
    """Index ``snapshot`` as the next version of the evaluation repository for ``dataset_repo``.

    With ``reuse``, a kept version built from the same archive is returned instead (nothing is indexed).
    The archive of the version it replaces is removed once the new one serves:
    search reads the index rows, never the archive.
    """
    with tempfile.TemporaryFile() as archive:
        snapshot_zip(snapshot, archive)
        if reuse:
            stored = stored_version(dataset_repo, owner, _sha256(archive))
            if stored is not None:
                return IndexedSnapshot(repository=stored.repository, run=stored, reused=True)
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


def _sha256(archive) -> str:
    # The zip is deterministic (sorted entries, fixed dates), so equal snapshots give equal digests,
    # and the digest is the one intake stores for the archive it was given.
    digest = hashlib.sha256()
    archive.seek(0)
    for block in iter(lambda: archive.read(1 << 20), b""):
        digest.update(block)
    return digest.hexdigest()


def _remove_archive(path: str) -> None:
    if path and not IndexRun.objects.filter(
        archive_path=path, status__in=[IndexRun.Status.QUEUED, IndexRun.Status.RUNNING, IndexRun.Status.READY]
    ).exists():
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass

"""Repositories that follow a git branch: connect, sync (fetch, index a new head), webhooks, the schedule.

A sync fetches the branch's head into the repository's bare mirror and, when
the head is a commit no version was built from yet, builds a new index version
from it (``run_index``), which becomes active only when complete. Syncs of one
repository run one at a time in the worker (the repository's lock, shared with
zip runs), and at most one waits in the queue (``queueing_lock``): pushes that
arrive while a sync runs collapse into the one queued after it.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from procrastinate.exceptions import AlreadyEnqueued

from rag.intake import IntakeError
from rag.models import GitRemote, IndexRun, Repository
from rag.services import jobs
from rag.services.index_items import ITEM_FORMAT
from rag.services.indexing import run_index
from rag.services.repositories import clean_repository_name
from rag.sources.credentials import CredentialUnreadable, decrypt_secret, encrypt_secret
from rag.sources.git import Remote, check_branch, check_remote_url, fetch_head, mirror_path

logger = logging.getLogger(__name__)

# First key of the advisory lock a sync holds (the second is the repository's id).
SYNC_LOCK_NAMESPACE = 0x7261_6769  # "ragi"


class RepositoryTaken(IntakeError):
    code = "taken"


def repository_name_for(url: str, name: str = "") -> str:
    """The name given, else the last part of the address without ``.git`` (``acme/shop.git``: ``shop``)."""
    return clean_repository_name(name or url.strip().rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].removesuffix(".git"))


def connect_git_repository(
    *, owner, name: str, url: str, branch: str = "", token: str = "", ssh_key: str = "",
    sync_minutes: int | None = None, allow_local: bool = False, created_by=None, defer: bool = True,
) -> Repository:
    """Create a repository that follows ``url``'s ``branch`` and queue its first sync.

    Raises ``IntakeError`` (``RemoteRefused`` for an address the server may not
    fetch from) before anything is stored. ``allow_local``: the caller is staff
    (or the server's own command line) and may name a path on the server.
    """
    remote = check_remote_url(url, allow_local=allow_local)
    branch = check_branch(branch)
    name = repository_name_for(url, name)
    if token and ssh_key:
        raise IntakeError("Give either a token (https) or a deploy key (ssh), not both.")
    if token and remote.transport != "https":
        raise IntakeError("A token is sent only to https remotes.")
    if ssh_key and remote.transport != "ssh":
        raise IntakeError("A deploy key is used only for ssh remotes.")
    kind = GitRemote.Credential.TOKEN if token else GitRemote.Credential.SSH_KEY if ssh_key else GitRemote.Credential.NONE
    with transaction.atomic():
        repository, created = Repository.objects.get_or_create(owner=owner, name=name)
        if not created and (repository.runs.exists() or hasattr(repository, "git_remote")):
            raise RepositoryTaken(f"You already have a repository named {name!r}; choose another name.")
        GitRemote.objects.create(
            repository=repository, url=remote.url, is_local=remote.is_local, branch=branch, credential_kind=kind,
            credential_encrypted=encrypt_secret(token or ssh_key),
            webhook_secret_encrypted=_new_webhook_secret_encrypted(),
            sync_minutes=settings.RAG["GIT_DEFAULT_SYNC_MINUTES"] if sync_minutes is None else sync_minutes,
        )
        if defer:
            transaction.on_commit(lambda: queue_sync(repository, trigger=IndexRun.Trigger.SYNC))
    return repository


def change_git_remote(repository: Repository, *, branch: str, sync_minutes: int) -> GitRemote:
    """Follow another branch or check on another schedule; a new branch is fetched by the next sync."""
    git_remote = GitRemote.objects.get(repository=repository)
    git_remote.branch = check_branch(branch) or git_remote.branch
    git_remote.sync_minutes = sync_minutes
    git_remote.save(update_fields=["branch", "sync_minutes"])
    return git_remote


def new_webhook_secret(repository: Repository) -> GitRemote:
    """Replace the repository's webhook secret: deliveries signed with the old one are refused from now on."""
    git_remote = GitRemote.objects.get(repository=repository)
    git_remote.webhook_secret_encrypted = _new_webhook_secret_encrypted()
    git_remote.save(update_fields=["webhook_secret_encrypted"])
    return git_remote


def webhook_secret(git_remote: GitRemote) -> str:
    """The secret forges sign webhook deliveries with (shown to the repository's owner to set up the hook).
    Raises ``CredentialUnreadable`` when the configured key no longer decrypts it."""
    return decrypt_secret(git_remote.webhook_secret_encrypted)


def _new_webhook_secret_encrypted() -> str:
    return encrypt_secret(secrets.token_urlsafe(32))


def remote_for(git_remote: GitRemote) -> Remote:
    secret = decrypt_secret(git_remote.credential_encrypted)
    return Remote(
        url=git_remote.url, is_local=git_remote.is_local,
        token=secret if git_remote.credential_kind == GitRemote.Credential.TOKEN else "",
        ssh_key=secret if git_remote.credential_kind == GitRemote.Credential.SSH_KEY else "",
    )


@dataclass(frozen=True)
class SyncResult:
    """What a sync did: ``run`` is the version it built (None when the head was already indexed or on error)."""

    head: str = ""
    run: IndexRun | None = None
    error: str = ""

    @property
    def up_to_date(self) -> bool:
        return not self.error and self.run is None


# Syncs that nobody asked for by hand: they do not build again a commit whose version failed
# (a commit over a limit would otherwise fail anew on every push and every interval).
UNATTENDED = (IndexRun.Trigger.WEBHOOK, IndexRun.Trigger.SCHEDULE)


def _needs_version(repository: Repository, sha: str, trigger: str) -> bool:
    """Whether the head needs a new version: it is not the serving one and none is being built.

    A head that served before and was superseded (a force-push back to it) is built again, and so is
    the serving head when its version was derived by an earlier release of the analysis
    (``ITEM_FORMAT``): after an upgrade, the next sync brings the repository's index up to it.
    """
    active = Repository.objects.filter(pk=repository.pk).values_list(
        "active_run__commit_sha", "active_run__item_format"
    ).first()
    if active == (sha, ITEM_FORMAT):
        return False
    latest = repository.runs.filter(commit_sha=sha).order_by("-id").first()
    if latest is None:
        return True
    if latest.status in (IndexRun.Status.QUEUED, IndexRun.Status.RUNNING):
        return False
    return not (latest.status == IndexRun.Status.FAILED and trigger in UNATTENDED)


def sync_repository(
    repository: Repository, *, trigger: str = IndexRun.Trigger.SYNC, job_id: int | None = None, created_by=None,
) -> SyncResult:
    """Fetch the branch's head and, unless it is the serving commit or being built, build and activate a version of it.

    A head whose version failed is built again only by a sync asked for by hand
    (not by a webhook or the schedule).

    Precondition: outside a transaction (the run's progress must be visible).
    A fetch that fails or times out is recorded on the remote and returned; the
    active version keeps serving.
    """
    # Syncs of one repository run one at a time: in the worker by its lock, and a sync started on
    # the command line waits here for one the worker runs (two fetches into one mirror would race).
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", [SYNC_LOCK_NAMESPACE, repository.pk])
    try:
        return _sync(repository, trigger=trigger, job_id=job_id, created_by=created_by)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [SYNC_LOCK_NAMESPACE, repository.pk])


def _sync(repository: Repository, *, trigger: str, job_id: int | None, created_by) -> SyncResult:
    git_remote = GitRemote.objects.select_related("repository").get(repository=repository)
    now = timezone.now()
    try:
        head = fetch_head(remote_for(git_remote), git_remote.branch, mirror_path(repository.pk))
    except IntakeError as exc:
        GitRemote.objects.filter(pk=git_remote.pk).update(last_checked_at=now, last_error=exc.message)
        logger.warning("sync of repository %s failed: %s", repository.pk, exc.message)
        return SyncResult(error=exc.message)
    updates = {"last_checked_at": now, "last_error": "", "last_head": head.sha}
    if not git_remote.branch:
        updates["branch"] = head.branch
    GitRemote.objects.filter(pk=git_remote.pk).update(**updates)
    if not _needs_version(repository, head.sha, trigger):
        return SyncResult(head=head.sha)
    run = IndexRun.objects.create(
        repository=repository, trigger=trigger, commit_sha=head.sha, commit_message=head.message,
        archive_name=f"{head.branch}@{head.sha[:12]}", archive_path="", archive_sha256="", job_id=job_id,
        created_by=created_by or repository.owner, stage=f"queued (commit {head.sha[:12]})",
    )
    Repository.objects.filter(pk=repository.pk).update(updated_at=now)
    run = run_index(run.pk)
    if run.status == IndexRun.Status.FAILED:
        return SyncResult(head=head.sha, run=run, error=run.error)
    return SyncResult(head=head.sha, run=run)


def queue_sync(repository: Repository, *, trigger: str = IndexRun.Trigger.SYNC) -> int | None:
    """Queue a sync for the worker; None when one is already waiting (this request joins it)."""
    try:
        # In a savepoint: the refused insert must not abort a transaction around the call.
        with transaction.atomic():
            return jobs.defer_sync(repository.pk, trigger)
    except AlreadyEnqueued:
        return None


def queue_due_syncs(now=None) -> list[int]:
    """Queue a sync for every remote whose interval has passed since it was last checked; their repository ids."""
    now = now or timezone.now()
    due: list[int] = []
    for git_remote in GitRemote.objects.filter(sync_minutes__gt=0).select_related("repository"):
        last = git_remote.last_checked_at
        if last is None or last + timedelta(minutes=git_remote.sync_minutes) <= now:
            queue_sync(git_remote.repository, trigger=IndexRun.Trigger.SCHEDULE)
            due.append(git_remote.repository_id)
    return due


# --- webhooks ---------------------------------------------------------------------


class WebhookRefused(Exception):
    """A delivery that is not from the remote (bad or missing signature)."""


def _hmac_hex(secret: str, body: bytes) -> str:
    return hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


def verify_webhook(git_remote: GitRemote, headers, body: bytes) -> str:
    """The forge that signed the delivery (github, gitlab, gitea, forgejo); ``WebhookRefused`` otherwise.

    GitHub: ``X-Hub-Signature-256: sha256=<HMAC-SHA256 of the body>``; Gitea and
    Forgejo: ``X-Gitea-Signature`` / ``X-Forgejo-Signature: <HMAC hex>``; GitLab
    sends the secret itself in ``X-Gitlab-Token``. All compared in constant time.
    """
    try:
        secret = webhook_secret(git_remote)
    except CredentialUnreadable:
        secret = ""
    if not secret:
        raise WebhookRefused("no secret")
    github = headers.get("X-Hub-Signature-256", "")
    if github:
        if github.startswith("sha256=") and hmac.compare_digest(github[7:].encode(), _hmac_hex(secret, body).encode()):
            return "github"
        raise WebhookRefused("bad signature")
    for header, forge in (("X-Forgejo-Signature", "forgejo"), ("X-Gitea-Signature", "gitea")):
        signature = headers.get(header, "")
        if signature:
            if hmac.compare_digest(signature.strip().encode(), _hmac_hex(secret, body).encode()):
                return forge
            raise WebhookRefused("bad signature")
    token = headers.get("X-Gitlab-Token", "")
    if token and hmac.compare_digest(token.encode(), secret.encode()):
        return "gitlab"
    raise WebhookRefused("bad or missing signature")


def pushed_branch(payload: object) -> str | None:
    """The branch a push delivery names (``ref: refs/heads/B``), or None for other events."""
    if isinstance(payload, dict):
        ref = payload.get("ref")
        if isinstance(ref, str) and ref.startswith("refs/heads/"):
            return ref.removeprefix("refs/heads/")
    return None


def handle_webhook(git_remote: GitRemote, headers, body: bytes, payload: object) -> str:
    """Verify a delivery and queue a sync when it is a push to the followed branch; what happened, in words.

    Raises ``WebhookRefused`` for a delivery that is not signed with the repository's secret.
    """
    verify_webhook(git_remote, headers, body)
    branch = pushed_branch(payload)
    if branch is None:
        return "ignored: not a push"
    if git_remote.branch and branch != git_remote.branch:
        return f"ignored: push to {branch}, following {git_remote.branch}"
    job_id = queue_sync(git_remote.repository, trigger=IndexRun.Trigger.WEBHOOK)
    return "sync queued" if job_id is not None else "sync already queued"

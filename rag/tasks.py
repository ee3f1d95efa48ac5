"""Background tasks of the repositories app, run by the procrastinate worker.

The services queue them by name (``rag.services.jobs``), so this module is
the only one that ties tasks to services: it imports them, never the reverse.
"""

from __future__ import annotations

import logging

from django.conf import settings
from procrastinate.contrib.django import app

from rag.models import Repository
from rag.services import jobs
from rag.services.git_sync import queue_due_syncs, sync_repository
from rag.services.indexing import run_index
from rag.services.repositories import recover_abandoned_runs

logger = logging.getLogger(__name__)


@app.task(name=jobs.INDEX_RUN_TASK, queue=jobs.QUEUE, pass_context=False)
def index_repository_task(run_id: int) -> str:
    """Build one index version; the run row records the outcome, failures included."""
    run = run_index(run_id)
    logger.info("index run %s finished: %s", run_id, run.status)
    return run.status


# Cron's optional sixth field is seconds: every WORKER_RECOVERY_SECONDS.
@app.periodic(cron=f"* * * * * */{settings.WORKER_RECOVERY_SECONDS}", periodic_id="recover_abandoned_index_runs")
@app.task(name="rag.recover_abandoned_runs", queue="maintenance", queueing_lock="recover_abandoned_runs", pass_context=False)
async def recover_abandoned_runs_task(timestamp: int | None = None) -> list[int]:
    """Fail the index runs of dead workers and free their repositories' queue (see ``recover_abandoned_runs``)."""
    failed = await recover_abandoned_runs(settings.WORKER_STALLED_SECONDS)
    if failed:
        logger.warning("failed the index runs of stopped workers: %s", failed)
    return failed


@app.task(name=jobs.SYNC_TASK, queue=jobs.QUEUE, pass_context=True)
def sync_repository_task(context, repository_id: int, trigger: str = "sync") -> str:
    """Fetch a git repository's branch and index a new head (``rag.services.git_sync.sync_repository``).

    Deferred with the repository's lock and a queueing lock (``jobs.defer_sync``): one at a time, one waiting.
    """
    repository = Repository.objects.filter(pk=repository_id).first()
    if repository is None or not hasattr(repository, "git_remote"):
        return "gone"
    result = sync_repository(repository, trigger=trigger, job_id=context.job.id)
    if result.error:
        logger.warning("sync of repository %s: %s", repository_id, result.error)
        return "failed"
    return "up to date" if result.up_to_date else result.run.status


@app.periodic(cron="* * * * *", periodic_id="sync_git_remotes")
@app.task(name="rag.sync_due_remotes", queue="maintenance", queueing_lock="sync_due_remotes", pass_context=False)
def sync_due_remotes_task(timestamp: int | None = None) -> list[int]:
    """Queue a sync of every git repository whose interval (``GitRemote.sync_minutes``) has passed."""
    return queue_due_syncs()

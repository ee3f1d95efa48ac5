"""The background jobs the repository services queue, by name.

``rag/tasks.py`` defines these tasks and runs the services in them; the
services queue the tasks through procrastinate's app by their names, so the
imports point one way (tasks -> services).

Every job of a repository takes its lock (``repository_lock``), so its index
runs and syncs execute one at a time.
"""

from __future__ import annotations

from procrastinate.contrib.django import app

INDEX_RUN_TASK = "rag.index_repository"
SYNC_TASK = "rag.sync_repository"
QUEUE = "indexing"
# The tasks whose jobs build index versions (a sync builds its version inside its own job).
BUILDING_TASKS = (INDEX_RUN_TASK, SYNC_TASK)


def repository_lock(repository_id: int) -> str:
    return f"rag-repository-{repository_id}"


def defer_index_run(run_id: int, repository_id: int) -> int:
    """Queue an index run for the worker; its job id."""
    return app.configure_task(INDEX_RUN_TASK, queue=QUEUE, lock=repository_lock(repository_id)).defer(run_id=run_id)


def defer_sync(repository_id: int, trigger: str) -> int:
    """Queue a sync of a git repository; ``AlreadyEnqueued`` when one is waiting already (its queueing lock)."""
    return app.configure_task(
        SYNC_TASK, queue=QUEUE, lock=repository_lock(repository_id), queueing_lock=f"rag-sync-{repository_id}"
    ).defer(repository_id=repository_id, trigger=trigger)

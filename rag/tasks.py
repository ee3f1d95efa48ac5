"""Background tasks of the repositories app, run by the procrastinate worker."""

from __future__ import annotations

import logging

from procrastinate.contrib.django import app

logger = logging.getLogger(__name__)


@app.task(name="rag.index_repository", queue="indexing", pass_context=False)
def index_repository_task(run_id: int) -> str:
    """Build one index version; the run row records the outcome, failures included."""
    from rag.services.indexing import run_index

    run = run_index(run_id)
    logger.info("index run %s finished: %s", run_id, run.status)
    return run.status

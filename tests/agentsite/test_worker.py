from __future__ import annotations

import time
from datetime import timedelta

from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone
from procrastinate.contrib.django.models import ProcrastinateJob

from agentsite.tasks import clear_expired_sessions_task


def _wait_for_job(job_id: int, timeout: float = 30.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = ProcrastinateJob.objects.get(id=job_id).status
        if status in {"succeeded", "failed"}:
            return status
        time.sleep(0.1)
    return "timeout"


def test_the_worker_process_runs_a_deferred_task(worker_process):
    live = SessionStore()
    live["k"] = 1
    live.create()
    expired = SessionStore()
    expired.create()
    Session.objects.filter(session_key=expired.session_key).update(expire_date=timezone.now() - timedelta(days=1))

    # A lock of its own: the worker's periodic run of the same task (at minute 17 of every hour)
    # may hold the task's queueing lock at this very moment.
    job_id = clear_expired_sessions_task.configure(queueing_lock=f"test-{live.session_key}").defer()

    assert _wait_for_job(job_id) == "succeeded"
    assert list(Session.objects.values_list("session_key", flat=True)) == [live.session_key]

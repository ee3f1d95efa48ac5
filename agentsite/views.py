"""Site-level views: the health check and the landing redirect."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.shortcuts import redirect
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from agentsite.database import pgvector_installed_version


def worker_heartbeat_age() -> float | None:
    """Seconds since the freshest worker heartbeat, or None when no worker runs."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXTRACT(EPOCH FROM (NOW() - MAX(last_heartbeat))) FROM procrastinate_workers")
        row = cursor.fetchone()
    return None if row is None or row[0] is None else float(row[0])


@require_GET
@never_cache
@login_not_required
def healthz(request: HttpRequest) -> JsonResponse:
    report: dict[str, object] = {"database": False, "pgvector": None, "worker_heartbeat_age_s": None}
    problems: list[str] = []
    try:
        report["pgvector"] = pgvector_installed_version()
        report["database"] = True
        age = worker_heartbeat_age()
        report["worker_heartbeat_age_s"] = None if age is None else round(age, 1)
        if report["pgvector"] is None:
            problems.append("the vector extension is not installed: run migrations")
        if age is None:
            problems.append("no background worker is running")
        elif age > settings.WORKER_HEARTBEAT_MAX_AGE:
            problems.append(f"the background worker has not reported for {age:.0f} s")
    except DatabaseError as exc:
        problems.append(f"database unreachable: {exc.__class__.__name__}")
    report["ok"] = not problems
    report["problems"] = problems
    return JsonResponse(report, status=200 if not problems else 503)


def home(request: HttpRequest):
    return redirect("chat-sessions")

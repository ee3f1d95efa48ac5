"""Site-wide background tasks, run by the procrastinate worker."""

from __future__ import annotations

import logging

from django.contrib.sessions.models import Session
from django.utils import timezone
from procrastinate.contrib.django import app

logger = logging.getLogger(__name__)


def clear_expired_sessions() -> int:
    """Delete login sessions past their expiry; returns how many went."""
    deleted, _ = Session.objects.filter(expire_date__lt=timezone.now()).delete()
    return deleted


@app.periodic(cron="17 * * * *", periodic_id="clear_expired_sessions")
@app.task(name="agentsite.clear_expired_sessions", queue="maintenance", queueing_lock="clear_expired_sessions")
def clear_expired_sessions_task(timestamp: int | None = None) -> int:
    deleted = clear_expired_sessions()
    logger.info("cleared %d expired sessions", deleted)
    return deleted

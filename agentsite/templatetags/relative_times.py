"""How long ago something happened, in the words the pages use."""

from __future__ import annotations

from datetime import datetime, timedelta

from django import template
from django.utils import timezone
from django.utils.timesince import timesince

register = template.Library()

JUST_NOW = timedelta(minutes=1)


@register.filter
def time_ago(value: datetime | None) -> str:
    """``just now`` under a minute (and for a time slightly ahead of this clock), else ``5 minutes ago``.

    Compared as times, not as ``timesince`` text: that text separates number and unit with a
    non-breaking space, so a test for "0 minutes" never matched.
    """
    if value is None:
        return ""
    if timezone.now() - value < JUST_NOW:
        return "just now"
    return f"{timesince(value)} ago"

"""The web server process's interpreter settings, applied when the ASGI application loads."""

from __future__ import annotations

import gc
import sys

import pytest
from django.conf import settings


def test_loading_the_application_freezes_the_startup_heap_and_sets_the_collector_and_switch_interval():
    import agentsite.asgi  # noqa: F401

    assert gc.get_freeze_count() > 10_000
    assert gc.get_threshold() == (settings.ASGI_GC_THRESHOLD, 20, 20)
    assert sys.getswitchinterval() == pytest.approx(settings.ASGI_SWITCH_INTERVAL_MS / 1000)

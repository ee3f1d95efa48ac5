from __future__ import annotations

import json
import os
import subprocess
import sys

from django.conf import settings

from agentsite.embedded_postgres import _drop_stale_handles
from tests.conftest import ROOT


def test_stale_handles_of_dead_processes_are_dropped(tmp_path):
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        (tmp_path / ".handle_pids.json").write_text(json.dumps([dead.pid, alive.pid]))
        assert _drop_stale_handles(tmp_path) == [dead.pid]
        assert json.loads((tmp_path / ".handle_pids.json").read_text()) == [alive.pid]
    finally:
        alive.kill()
        alive.wait()


def test_each_test_run_gets_its_own_database_name():
    ours = settings.DATABASES["default"]["TEST"]["NAME"]
    theirs = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings; print(settings.DATABASES['default']['TEST']['NAME'])"],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "agentsite.settings"},
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert ours.startswith("test_agentsite_") and theirs.startswith("test_agentsite_")
    assert ours != theirs

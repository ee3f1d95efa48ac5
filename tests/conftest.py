"""Suite-wide fixtures: persona users, logged-in clients and real worker processes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

from agentsite import web_process as web_child
from tests.factories import PASSWORD, make_user

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def login_throttle_off_for_test_clients(settings):
    # Django's test client logs in without a request, which the throttle needs to count by
    # address; tests/agentsite/test_login_throttle.py turns it back on and logs in through the page.
    settings.AXES_ENABLED = False


@pytest.fixture(autouse=True)
def fast_password_hashing(request, settings):
    # The personas' passwords are hashed, and checked at each login, in every test: the default
    # hasher costs about half a second each time on these machines. Browser tests (marked e2e)
    # log in through a product process, which checks passwords with the product's own hashers.
    if request.node.get_closest_marker("e2e") is None:
        settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def git_mirrors_apart(settings, tmp_path_factory):
    # Deleting a test's repository removes its git mirror by id: never one under the site's own data folder.
    settings.RAG = {**settings.RAG, "GIT_DIR": str(tmp_path_factory.getbasetemp() / "git-mirrors")}


@pytest.fixture
def owner(db):
    return make_user("owner")


@pytest.fixture
def other_user(db):
    return make_user("other")


@pytest.fixture
def staff_user(db):
    return make_user("staff", staff=True)


@pytest.fixture
def owner_client(client, owner):
    client.login(username=owner.username, password=PASSWORD)
    return client


def product_process_env() -> dict[str, str]:
    """Environment for a child process of the product that must use this test database."""
    env = dict(os.environ)
    env["AGENTSITE_DB_NAME"] = connection.settings_dict["NAME"]
    env["DJANGO_SETTINGS_MODULE"] = "agentsite.settings"
    return env


# The database sessions of each web process started here carry its name (libpq's PGAPPNAME), so
# stopping it waits for its own sessions only, not for the test's.
_SESSION_NAMES: dict[int, str] = {}


def start_web_process(env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """The product's web process (as ``serve`` runs it) on a free port, and its URL."""
    name = f"test-web-{uuid.uuid4().hex[:12]}"
    proc, url = web_child.start({**env, "PGAPPNAME": name})
    _SESSION_NAMES[proc.pid] = name
    return proc, url


@contextmanager
def web_process(env: dict[str, str]) -> Iterator[str]:
    """A web process (``start_web_process``) for the block; stopped afterwards (``stop_processes``)."""
    proc, url = start_web_process(env)
    try:
        yield url
    finally:
        stop_processes(proc)


def stop_processes(*procs: subprocess.Popen) -> None:
    """Stop web processes started here and wait until their database sessions are gone,
    so the test database can be dropped."""
    web_child.stop(*procs)
    names = [_SESSION_NAMES.pop(proc.pid, "") for proc in procs]
    deadline = time.monotonic() + 5
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = ANY(%s)",
                [names],
            )
            if cursor.fetchone()[0] == 0:
                return
            time.sleep(0.05)


@pytest.fixture
def worker_process(transactional_db):
    """A real procrastinate worker process on the test database."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "procrastinate", "worker"],
        cwd=ROOT,
        env=product_process_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    deadline = time.monotonic() + 30
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute("SELECT count(*) FROM procrastinate_workers")
            if cursor.fetchone()[0]:
                break
            if proc.poll() is not None:
                raise RuntimeError(f"worker exited early:\n{proc.stdout.read()}")
            time.sleep(0.1)
        else:
            proc.kill()
            raise RuntimeError("worker did not register within 30 s")
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()

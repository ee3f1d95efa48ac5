"""Suite-wide fixtures: persona users, logged-in clients and real worker processes."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from django.db import connection

from tests.factories import PASSWORD, make_user

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def login_throttle_off_for_test_clients(settings):
    # Django's test client logs in without a request, which the throttle needs to count by
    # address; tests/agentsite/test_login_throttle.py turns it back on and logs in through the page.
    settings.AXES_ENABLED = False


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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_web_process(env: dict[str, str]) -> tuple[subprocess.Popen, str]:
    """The product's web process (daphne, as ``serve`` runs it: agentsite.web_server) on a free port, and its URL."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "agentsite.web_server", "-b", "127.0.0.1", "-p", str(port), "agentsite.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited early:\n{proc.stdout.read()}")
        try:
            with urllib.request.urlopen(f"{url}/accounts/login/", timeout=2):
                return proc, url
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("daphne did not answer within 30 s") from None
            time.sleep(0.1)


@contextmanager
def web_process(env: dict[str, str]) -> Iterator[str]:
    """A web process for the block (``start_web_process``); stopped afterwards (``stop_processes``)."""
    proc, url = start_web_process(env)
    try:
        yield url
    finally:
        stop_processes(proc)


def stop_processes(*procs: subprocess.Popen) -> None:
    """Stop children of the product and wait until their database sessions are gone,
    so the test database can be dropped."""
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    deadline = time.monotonic() + 5
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
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

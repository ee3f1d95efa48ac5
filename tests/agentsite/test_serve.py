"""The entry command as a person uses it: start, kill -9, start again, Ctrl-C."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from pathlib import Path

import psutil
import pytest

from tests.conftest import ROOT


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_healthy(port: int, proc: subprocess.Popen, timeout: float = 90.0) -> dict:
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited with {proc.returncode}: {proc.stdout.read()}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                return json.load(response)
        except urllib.error.HTTPError as exc:
            last = exc.read()
        except OSError as exc:
            last = exc
        time.sleep(0.3)
    raise AssertionError(f"not healthy in {timeout} s: {last}")


def _postgres_processes(pgdata: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["name", "cmdline", "status"]):
        if proc.info["status"] == psutil.STATUS_ZOMBIE:
            continue
        if proc.info["name"] == "postgres" and pgdata in " ".join(proc.info["cmdline"] or []):
            found.append(proc)
    return found


def _start(env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(ROOT / "manage.py"), "serve"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )


@pytest.fixture(scope="module")
def data_dir():
    # Not pytest's tmp_path: pytest resets its base folder to mode 0700 at the
    # start of every session, which would lock out the postgres system user
    # whenever another test run starts meanwhile. One for the module: the first
    # `serve` creates the database and its owner, the later ones start on it as
    # a person's next `make run` does.
    data_root = tempfile.mkdtemp(prefix="agentsite-serve-")
    yield Path(data_root) / "var"
    shutil.rmtree(data_root, ignore_errors=True)


def _serve_env(data_dir: Path, port: int, **settings: str) -> dict[str, str]:
    """The environment of a `serve` of its own: its own embedded database, this port."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "AGENTSITE_DB_NAME"}}
    env.update(AGENTSITE_DATA_DIR=str(data_dir), PORT=str(port), **settings)
    return env


def test_serve_recovers_from_kill_and_stops_everything_on_ctrl_c(data_dir):
    port = _free_port()
    env = _serve_env(data_dir, port)

    first = _start(env)
    body = _wait_healthy(port, first)
    assert body["pgvector"] and body["ok"]
    children = psutil.Process(first.pid).children()
    assert len(children) == 2  # daphne and the worker

    first.kill()  # kill -9: no handler runs in the supervisor
    first.wait()
    gone, alive = psutil.wait_procs(children, timeout=20)
    assert not alive, "children must not outlive a killed supervisor"
    output = first.stdout.read()
    assert "username: admin" in output and "password: " in output

    second = _start(env)
    _wait_healthy(port, second)
    second.send_signal(signal.SIGINT)
    assert second.wait(timeout=60) == 0
    assert "password: " not in second.stdout.read()

    deadline = time.monotonic() + 10
    while _postgres_processes(str(data_dir / "pgdata")) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _postgres_processes(str(data_dir / "pgdata")) == []


def _health(port: int) -> int | None:
    """The HTTP status of /healthz, or None when nothing answered."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return response.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return None


def _wait_for(condition, what: str, timeout: float = 60.0, during=None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if during is not None:
            during()
        if condition():
            return
        time.sleep(0.3)
    raise AssertionError(f"not within {timeout} s: {what}")


def _manage(env: dict[str, str], code: str) -> str:
    done = subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "shell", "-c", code],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def _workers(supervisor: psutil.Process) -> list[psutil.Process]:
    found = []
    for child in supervisor.children():
        try:
            if child.status() != psutil.STATUS_ZOMBIE and "procrastinate" in " ".join(child.cmdline()):
                found.append(child)
        except psutil.Error:
            continue
    return found


def test_serve_restarts_a_killed_worker_and_a_stopped_database_while_pages_answer(data_dir):
    port = _free_port()
    env = _serve_env(data_dir, port, WORKER_HEARTBEAT_SECONDS="0.5", WORKER_STALLED_SECONDS="3", WORKER_HEARTBEAT_MAX_AGE="5")
    serve = _start(env)
    try:
        _wait_healthy(port, serve)
        supervisor = psutil.Process(serve.pid)
        worker = _workers(supervisor)[0]

        answers: list[int | None] = []
        worker.kill()
        _wait_for(
            lambda: any(p.pid != worker.pid for p in _workers(supervisor)),
            "the supervisor starts a new worker",
            during=lambda: answers.append(_health(port)),
        )
        assert serve.poll() is None
        # The web server answered all along (503 while no worker reported, never refused).
        assert answers and None not in answers
        _wait_for(lambda: _health(port) == 200, "healthy again with the new worker")

        _manage(env, "from django.contrib.auth.models import User; User.objects.create_user('kept-through-restart')")
        postmaster = min(_postgres_processes(str(data_dir / "pgdata")), key=lambda p: p.create_time())
        postmaster.kill()
        _wait_for(lambda: _health(port) == 200, "the database is started again and the site is healthy", timeout=90)
        assert _manage(
            env, "from django.contrib.auth.models import User; print(User.objects.filter(username='kept-through-restart').count())"
        ) == "1"

        # Stopped cleanly this time (the signal of `pg_ctl stop -m fast`): brought back the same way.
        _manage(env, "from django.contrib.auth.models import User; User.objects.create_user('kept-through-stop')")
        postmaster = min(_postgres_processes(str(data_dir / "pgdata")), key=lambda p: p.create_time())
        postmaster.send_signal(signal.SIGINT)
        postmaster.wait(timeout=30)
        _wait_for(lambda: _health(port) == 200, "the stopped database is started again and the site is healthy", timeout=90)
        assert _manage(
            env, "from django.contrib.auth.models import User; print(User.objects.filter(username__startswith='kept-through').count())"
        ) == "2"
        assert serve.poll() is None
    finally:
        serve.send_signal(signal.SIGINT)
        try:
            serve.wait(timeout=60)
        except subprocess.TimeoutExpired:
            serve.kill()
        output = serve.stdout.read()
    assert "worker-1 exited with status -9; starting it again" in output
    assert output.count("The embedded database had stopped; it was started again.") >= 2

"""``manage.py serve``: the one command that runs the whole product.

It migrates, makes sure someone can log in, then runs daphne (web and
websockets) and a procrastinate worker as child processes and supervises them:
a child that exits is started again after a delay that doubles with each
quick failure (up to RESTART_MAX_SECONDS; a child that stayed up for
STABLE_SECONDS starts over at the first delay), while the others go on
serving. The embedded database is started again if it stops under them.
Ctrl-C (or SIGTERM) stops the children, then releases the embedded database,
which stops when no other process of the product uses it.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

from chat.consumers import socket_message_limit
from database_pool.first_run import ensure_first_admin

PR_SET_PDEATHSIG = 1
STOP_GRACE_SECONDS = 10.0
RESTART_FIRST_SECONDS = 1.0
RESTART_MAX_SECONDS = 30.0
STABLE_SECONDS = 60.0
POLL_SECONDS = 0.2


def _die_with_parent() -> None:
    """Runs in the child before exec: if the supervisor is killed (even with
    SIGKILL) the kernel sends the child SIGTERM, so no orphan keeps the port."""
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


class Child:
    """One supervised process: started again after it exits, with a backoff for quick failures."""

    def __init__(self, name: str, command: list[str], env: dict[str, str] | None) -> None:
        self.name, self.command, self.env = name, command, env
        self.process: subprocess.Popen | None = None
        self.started_at = 0.0
        self.failures = 0
        self.restart_at: float | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(self.command, cwd=settings.BASE_DIR, env=self.env, preexec_fn=_die_with_parent)
        self.started_at = time.monotonic()
        self.restart_at = None

    def supervise(self, report) -> None:
        now = time.monotonic()
        if self.restart_at is not None:
            if now >= self.restart_at:
                self.start()
                report(f"{self.name} started again (pid {self.process.pid}).")
            return
        if self.process is None or self.process.poll() is None:
            return
        if now - self.started_at >= STABLE_SECONDS:
            self.failures = 0
        delay = min(RESTART_MAX_SECONDS, RESTART_FIRST_SECONDS * 2**self.failures)
        self.failures += 1
        self.restart_at = now + delay
        report(f"{self.name} exited with status {self.process.returncode}; starting it again in {delay:.0f} s.")


class Command(BaseCommand):
    help = "Migrate, then serve the product (daphne + background worker) until Ctrl-C."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--host", default=settings.HOST)
        parser.add_argument("--port", type=int, default=settings.PORT)
        parser.add_argument("--workers", type=int, default=1, help="background worker processes")

    def handle(self, *args, host: str, port: int, workers: int, **options) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        ensure_first_admin(self.stdout)

        manage = str(Path(settings.BASE_DIR) / "manage.py")
        commands = {
            "web": [
                sys.executable, "-m", "agentsite.web_server", "-b", host, "-p", str(port),
                # Websocket messages over this size are refused by the server before the consumer sees them.
                "--websocket-max-message-size", str(socket_message_limit()),
                # Behind a proxy the client's address comes from X-Forwarded-For (login throttling uses it).
                *(["--proxy-headers"] if settings.TRUST_PROXY_HEADERS else []),
                "agentsite.asgi:application",
            ],
        }
        for index in range(workers):
            commands[f"worker-{index + 1}"] = [sys.executable, manage, "procrastinate", "worker"]

        stopping = False
        self._database_pid: int | None = None

        def request_stop(signum, frame) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)

        web_env = dict(os.environ)
        web_env.setdefault("DATABASE_CONN_MAX_AGE", str(settings.WEB_CONN_MAX_AGE))
        web_env.setdefault("DATABASE_STATEMENT_TIMEOUT_MS", str(settings.WEB_STATEMENT_TIMEOUT_MS))
        children = {
            name: Child(name, command, web_env if name == "web" else None) for name, command in commands.items()
        }
        for child in children.values():
            child.start()
        self.stdout.write(f"Serving on http://{host}:{port}/  (Ctrl-C to stop)")

        try:
            while not stopping:
                self._keep_database_up()
                for child in children.values():
                    child.supervise(self.stderr.write)
                time.sleep(POLL_SECONDS)
        finally:
            self._stop_children([child.process for child in children.values() if child.process is not None])
            if settings.EMBEDDED_POSTGRES is not None:
                settings.EMBEDDED_POSTGRES.stop()
        self.stdout.write("Stopped.")

    def _keep_database_up(self) -> None:
        """Start the embedded database again if it stopped, and say so once per restart.

        Any process of the site that attaches (a worker started again, a command) may have
        started it first: a new postmaster since the last poll is reported the same way.
        """
        server = settings.EMBEDDED_POSTGRES
        if server is None:
            return
        try:
            pid = server.ensure_running()
        except Exception as exc:  # the next poll tries again; /healthz says the database is down meanwhile
            self.stderr.write(f"The embedded database is down and could not be started: {exc}")
            return
        if pid is not None and self._database_pid is not None and pid != self._database_pid:
            self.stderr.write("The embedded database had stopped; it was started again.")
        self._database_pid = pid or self._database_pid

    def _stop_children(self, children: list[subprocess.Popen]) -> None:
        for child in children:
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for child in children:
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()

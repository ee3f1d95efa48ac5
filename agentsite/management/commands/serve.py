"""``manage.py serve``: the one command that runs the whole product.

It migrates, makes sure someone can log in, then runs daphne (web and
websockets) and a procrastinate worker as child processes and supervises them.
Ctrl-C (or SIGTERM) stops the children, then releases the embedded database,
which stops when no other process of the product uses it.
"""

from __future__ import annotations

import ctypes
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

PR_SET_PDEATHSIG = 1
STOP_GRACE_SECONDS = 10.0
# The web server keeps database connections for this long unless
# DATABASE_CONN_MAX_AGE says otherwise: with a connection per database call,
# hundreds of streaming chats spend most of their time connecting.
WEB_CONN_MAX_AGE = "60"


def _die_with_parent() -> None:
    """Runs in the child before exec: if the supervisor is killed (even with
    SIGKILL) the kernel sends the child SIGTERM, so no orphan keeps the port."""
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)


def ensure_first_admin(stdout) -> None:
    """On a database with no superuser, create ``admin`` and print a one-time password."""
    user_model = get_user_model()
    if user_model.objects.filter(is_superuser=True).exists():
        return
    password = secrets.token_urlsafe(12)
    user_model.objects.create_superuser("admin", email="", password=password)
    stdout.write(
        "\n"
        "  First run: an administrator account was created.\n"
        "    username: admin\n"
        f"    password: {password}\n"
        "  This password is shown only once; change it in Admin > Users.\n"
    )


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
            "web": [sys.executable, "-m", "daphne", "-b", host, "-p", str(port), "agentsite.asgi:application"],
        }
        for index in range(workers):
            commands[f"worker-{index + 1}"] = [sys.executable, manage, "procrastinate", "worker"]

        stopping = False

        def request_stop(signum, frame) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGINT, request_stop)
        signal.signal(signal.SIGTERM, request_stop)

        web_env = dict(os.environ)
        web_env.setdefault("DATABASE_CONN_MAX_AGE", WEB_CONN_MAX_AGE)
        children: dict[str, subprocess.Popen] = {}
        for name, command in commands.items():
            env = web_env if name == "web" else None
            children[name] = subprocess.Popen(command, cwd=settings.BASE_DIR, env=env, preexec_fn=_die_with_parent)
        self.stdout.write(f"Serving on http://{host}:{port}/  (Ctrl-C to stop)")

        failed: str | None = None
        try:
            while not stopping:
                for name, child in children.items():
                    if child.poll() is not None:
                        failed = f"{name} exited with status {child.returncode}"
                        stopping = True
                        break
                time.sleep(0.2)
        finally:
            self._stop_children(children)
            if settings.EMBEDDED_POSTGRES is not None:
                settings.EMBEDDED_POSTGRES.stop()
        if failed:
            raise CommandError(f"stopped: {failed}")
        self.stdout.write("Stopped.")

    def _stop_children(self, children: dict[str, subprocess.Popen]) -> None:
        for child in children.values():
            if child.poll() is None:
                child.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for child in children.values():
            try:
                child.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                child.kill()
                child.wait()

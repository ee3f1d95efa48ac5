"""The web server (``agentsite.web_server``, as ``serve`` runs it) as a child process on a port of its own.

For what must talk to a real web process over the network: the tests of
several processes, the MCP benchmark.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from django.conf import settings

START_SECONDS = 30.0


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(env: dict[str, str], port: int | None = None) -> tuple[subprocess.Popen, str]:
    """The web process started with ``env`` on ``port`` (a free one by default), once it serves pages; and its URL."""
    port = port or free_port()
    # A file, not a pipe: a pipe nobody reads while the process runs would stop it once full.
    log = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(
        [sys.executable, "-m", "agentsite.web_server", "-b", "127.0.0.1", "-p", str(port), "agentsite.asgi:application"],
        cwd=Path(settings.BASE_DIR),
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_SECONDS
    while True:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"the web process exited early:\n{log.read()[-4000:]}")
        try:
            with urllib.request.urlopen(f"{url}/accounts/login/", timeout=2):
                return proc, url
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError(f"the web process did not answer within {START_SECONDS:g} s") from None
            time.sleep(0.1)


def stop(*procs: subprocess.Popen) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()

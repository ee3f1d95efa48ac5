"""The source view of a long file through the product's own web server: time to
first byte and bytes on the wire, with and without compression.

A repository holding one generated Python file of ``lines`` lines is indexed
through the real pipeline, the web process is started as ``serve`` starts it
(``agentsite.web_server``) on the same database, and each page is fetched over
a plain HTTP connection: the first byte is the status line's, the size is what
crossed the socket (the compressed body when the server compressed it).
"""

from __future__ import annotations

import http.client
import io
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
import zipfile
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

from rag.models import IndexRun
from rag.services import delete_repository, run_index, start_index_run


def long_python_file(lines: int) -> str:
    """Realistic code: classes of methods with docstrings, calls, strings and numbers, ``lines`` lines in all."""
    out: list[str] = ['"""A generated module for the source view benchmark."""', "", "import json", ""]
    index = 0
    while len(out) < lines:
        out += [
            "",
            f"class Handler{index}:",
            f'    """Handles requests of kind {index}, with retries and a cache."""',
            "",
            f"    def handle(self, request, attempts={index % 5 + 1}):",
            "        payload = json.loads(request.body or '{}')  # parsed once",
            f"        total = sum(item['price'] * {index % 7 + 1} for item in payload.get('items', []))",
            "        return {'total': total, 'ok': total > 0}",
        ]
        index += 1
    return "\n".join(out[:lines]) + "\n"


@dataclass(frozen=True)
class Fetch:
    ttfb_ms: float
    total_ms: float
    wire_bytes: int
    encoding: str


def _fetch(port: int, path: str, cookie: str, gzip: bool) -> Fetch:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    headers = {"Cookie": f"sessionid={cookie}", "Host": "127.0.0.1"}
    if gzip:
        headers["Accept-Encoding"] = "gzip, deflate, br"
    started = time.perf_counter()
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()  # returns once the status line and headers have arrived
    first = time.perf_counter()
    body = response.read()
    done = time.perf_counter()
    conn.close()
    if response.status != 200:
        raise RuntimeError(f"{path} answered {response.status}")
    return Fetch((first - started) * 1000, (done - started) * 1000, len(body), response.getheader("Content-Encoding") or "identity")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start_server(port: int) -> subprocess.Popen:
    env = dict(os.environ, AGENTSITE_DB_NAME=connection.settings_dict["NAME"], DJANGO_SETTINGS_MODULE="agentsite.settings", LOG_LEVEL="warning")
    command = [sys.executable, "-m", "agentsite.web_server", "-b", "127.0.0.1", "-p", str(port), "agentsite.asgi:application"]
    log = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(command, cwd=Path(settings.BASE_DIR), env=env, stdout=subprocess.DEVNULL, stderr=log, text=True)
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"the server exited: {log.read()[-4000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=2):
                return proc
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("the server did not answer within 60 s") from None
            time.sleep(0.1)


def _session_for(user) -> str:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


@dataclass(frozen=True)
class Row:
    page: str
    encoding: str
    # The page's first fetch (the server had not rendered these lines yet), then the median of the rest.
    first_ttfb_ms: float
    ttfb_ms: float
    total_ms: float
    wire_bytes: int


def run_source_view_bench(lines: int = 5000, runs: int = 7) -> list[Row]:
    """Each page's first fetch, and the median of ``runs`` more, plain and compressed."""
    user = get_user_model().objects.create_user(f"bench-source-{uuid.uuid4().hex[:8]}")
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as bundle:
        # Two top-level entries: a zip of one folder has that folder stripped, as a GitHub download's is.
        bundle.writestr("README.md", "# Source view benchmark\n")
        bundle.writestr("app/handlers.py", long_python_file(lines))
    proc = None
    try:
        run = start_index_run(owner=user, name="source-bench", archive=io.BytesIO(archive.getvalue()), archive_name="bench.zip", defer=False)
        run = run_index(run.pk)
        if run.status != IndexRun.Status.READY:
            raise RuntimeError(f"indexing failed: {run.error}")
        cookie = _session_for(user)
        port = _free_port()
        proc = _start_server(port)
        base = f"/repositories/{run.repository_id}/source/app/handlers.py"
        pages = {"whole file": base, f"lines {lines // 2}-{lines // 2 + 10}": f"{base}?lines={lines // 2}-{lines // 2 + 10}"}
        rows: list[Row] = []
        for name, path in pages.items():
            for gzip in (False, True):
                first = _fetch(port, path, cookie, gzip)
                fetches = [_fetch(port, path, cookie, gzip) for _ in range(runs)]
                rows.append(
                    Row(
                        page=name, encoding=fetches[0].encoding, first_ttfb_ms=first.ttfb_ms,
                        ttfb_ms=statistics.median(f.ttfb_ms for f in fetches),
                        total_ms=statistics.median(f.total_ms for f in fetches),
                        wire_bytes=int(statistics.median(f.wire_bytes for f in fetches)),
                    )
                )
        return rows
    finally:
        if proc is not None:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for repository in user.repositories.all():
            delete_repository(repository)
        user.delete()


def format_rows(rows: list[Row], lines: int) -> str:
    out = [
        f"Source view of a {lines:,}-line Python file: the first fetch of each page, then the median of the next ones",
        "",
        f"{'page':<22} {'encoding':<9} {'first TTFB ms':>13} {'TTFB ms':>8} {'total ms':>9} {'bytes':>10}",
    ]
    for row in rows:
        out.append(
            f"{row.page:<22} {row.encoding:<9} {row.first_ttfb_ms:>13.1f} {row.ttfb_ms:>8.1f} {row.total_ms:>9.1f} {row.wire_bytes:>10,}"
        )
    return "\n".join(out)

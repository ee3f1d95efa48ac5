"""The embedded PostgreSQL (with pgvector) used when ``DATABASE_URL`` is unset.

Every process of the product (the ``serve`` entry, daphne, the worker,
``manage.py`` commands, test runs) calls :func:`attach` with the same data
directory. The first one starts the server; the others attach to it. pgserver
records each attached pid in ``pgdata/.handle_pids.json`` and the last process
to exit stops the server.

Two things pgserver leaves to us, both handled here:

* its inter-process lock and fallback socket folder live under
  ``XDG_RUNTIME_DIR``, which every process sharing a data dir must agree on, so
  we point it at ``<data dir>/run`` while pgserver is imported;
* a process killed with SIGKILL never removes its pid from the handle list, so
  the server would never be stopped again. Before attaching we drop pids that
  are no longer alive, under pgserver's own lock.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)
# pgserver narrates every attach at INFO, before Django configures logging.
logging.getLogger("pgserver").setLevel(logging.WARNING)

_attach_lock = threading.Lock()
_attached: dict[Path, EmbeddedServer] = {}


@dataclass(frozen=True)
class EmbeddedServer:
    pgdata: Path
    socket_dir: Path
    handle: object

    def stop(self) -> None:
        """Release this process's handle; the server stops when it was the last one."""
        self.handle.cleanup()  # type: ignore[attr-defined]

    def running_pid(self) -> int | None:
        """The pid of the server's postmaster while it runs, else None."""
        from pgserver.postgres_server import PostmasterInfo

        info = PostmasterInfo.read_from_pgdata(self.pgdata)
        return info.pid if info is not None and info.is_running() else None

    def ensure_running(self) -> int | None:
        """Start the server again if it stopped under us (killed, or stopped by hand); its postmaster's pid.

        A pid other than the last call's means the server was started again, here or by any
        other process attached to it. Committed data is safe: PostgreSQL replays its
        write-ahead log at start-up.
        """
        pid = self.running_pid()
        if pid is not None:
            return pid
        with type(self.handle)._lock:  # type: ignore[attr-defined]
            pid = self.running_pid()
            if pid is not None:
                return pid
            logger.warning("embedded postgres at %s was not running; starting it again", self.pgdata)
            self.handle.ensure_postgres_running()  # type: ignore[attr-defined]
        return self.running_pid()


def _import_pgserver(runtime_dir: Path):
    runtime_dir.mkdir(parents=True, exist_ok=True)
    runtime_dir.chmod(0o700)
    previous = os.environ.get("XDG_RUNTIME_DIR")
    os.environ["XDG_RUNTIME_DIR"] = str(runtime_dir)
    try:
        import pgserver
        from pgserver.postgres_server import PostgresServer
    finally:
        if previous is None:
            os.environ.pop("XDG_RUNTIME_DIR", None)
        else:
            os.environ["XDG_RUNTIME_DIR"] = previous
    expected = runtime_dir / "python_PostgresServer"
    if PostgresServer.runtime_path != expected:
        # pgserver was imported earlier by something else with another runtime
        # dir; align it so every process of this data dir shares one lock.
        import fasteners

        expected.mkdir(parents=True, exist_ok=True)
        PostgresServer.runtime_path = expected
        PostgresServer.lock_path = expected / ".lockfile"
        PostgresServer._lock = fasteners.InterProcessLock(PostgresServer.lock_path)
    return pgserver, PostgresServer


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _drop_stale_handles(pgdata: Path) -> list[int]:
    """Remove pids of processes that died without releasing the server."""
    pid_file = pgdata / ".handle_pids.json"
    if not pid_file.exists():
        return []
    try:
        pids = [int(p) for p in json.loads(pid_file.read_text() or "[]")]
    except (ValueError, TypeError):
        pids = []
    alive = [p for p in pids if p != os.getpid() and _pid_alive(p)]
    stale = [p for p in pids if p not in alive]
    if stale:
        logger.info("embedded postgres: dropping stale handles %s", stale)
        pid_file.write_text(json.dumps(alive))
    return stale


def attach(data_dir: Path) -> EmbeddedServer:
    """Start (or attach to) the embedded server under ``data_dir/pgdata``."""
    data_dir = data_dir.expanduser().resolve()
    pgdata = data_dir / "pgdata"
    with _attach_lock:
        if pgdata in _attached:
            return _attached[pgdata]
        data_dir.mkdir(parents=True, exist_ok=True)
        pgserver, server_class = _import_pgserver(data_dir / "run")
        pgdata.mkdir(exist_ok=True)
        with server_class._lock:
            _drop_stale_handles(pgdata)
        handle = pgserver.get_server(pgdata, cleanup_mode="stop")
        info = handle.get_postmaster_info()
        socket_dir = Path(info.socket_dir) if info.socket_dir else pgdata
        server = EmbeddedServer(pgdata=pgdata, socket_dir=socket_dir, handle=handle)
        _attached[pgdata] = server
        return server


def ensure_database(server: EmbeddedServer, name: str, user: str = "postgres") -> None:
    """Create the product's database on first use."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(host=str(server.socket_dir), dbname="postgres", user=user, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if exists:
            return
        try:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        except psycopg.errors.DuplicateDatabase:
            pass  # another process created it between our check and our create

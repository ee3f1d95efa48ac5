"""Facts about the database the product needs (pgvector present and usable), and
the threads async code reaches it through."""

from __future__ import annotations

import functools
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core import checks
from django.db import close_old_connections, connection

PGVECTOR_HELP = (
    "The PostgreSQL server at DATABASE_URL has no 'vector' extension available. "
    "Install pgvector on that server (https://github.com/pgvector/pgvector#installation, "
    "for example the postgresql-16-pgvector package), or unset DATABASE_URL to use the "
    "embedded PostgreSQL that ships with pgvector."
)

P = ParamSpec("P")
R = TypeVar("R")

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()
# How often a pool thread lets Django look at its kept connection (closed when
# past CONN_MAX_AGE; health-checked by one round trip before its next use).
CONNECTION_CHECK_SECONDS = 1.0
_thread = threading.local()


def _database_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = ThreadPoolExecutor(max_workers=settings.DATABASE_THREADS, thread_name_prefix="database")
    return _pool


def _run_in_pool_thread(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run ``func`` with the connection handling of a request, amortised for kept connections.

    Without kept connections (``CONN_MAX_AGE`` 0) the connection is closed after
    each call, as after a request. With them, Django's check (close when too
    old, one ``SELECT 1`` before reuse) runs at most every
    ``CONNECTION_CHECK_SECONDS`` per thread rather than around every call,
    where it was a round trip in three for storing a question; and after any
    failure at once, so a broken connection is replaced before the next call.
    """
    kept = connection.settings_dict.get("CONN_MAX_AGE") != 0
    now = time.monotonic()
    if not kept or now - getattr(_thread, "checked_at", -CONNECTION_CHECK_SECONDS) >= CONNECTION_CHECK_SECONDS:
        close_old_connections()
        _thread.checked_at = now
    try:
        return func(*args, **kwargs)
    except BaseException:
        close_old_connections()
        _thread.checked_at = -CONNECTION_CHECK_SECONDS
        raise
    finally:
        if not kept:
            close_old_connections()


def in_database_pool(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func``, synchronous ORM code that stands alone (its own transaction, no
    state kept in its thread between calls), as a coroutine function run on the
    process's pool of ``DATABASE_THREADS`` threads, each with its own connection.

    ``sync_to_async``'s default sends every call of the process through one
    thread, so the web server stored questions, audit rows and partial answers
    one after another, each waiting out its round trips to PostgreSQL behind the
    others'. Connections are looked after as ``_run_in_pool_thread`` says.
    """

    @functools.wraps(func)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        run = sync_to_async(_run_in_pool_thread, thread_sensitive=False, executor=_database_pool())
        return await run(func, *args, **kwargs)

    return call


def pgvector_available_version() -> str | None:
    """The pgvector version the server can install, or None when it cannot."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT default_version FROM pg_available_extensions WHERE name = 'vector'")
        row = cursor.fetchone()
    return row[0] if row else None


def pgvector_installed_version() -> str | None:
    """The pgvector version installed in the current database, or None."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        row = cursor.fetchone()
    return row[0] if row else None


def check_pgvector_available(app_configs=None, databases=None, **kwargs) -> list[checks.CheckMessage]:
    if not databases or "default" not in databases:
        return []
    if pgvector_available_version() is None:
        return [checks.Error(PGVECTOR_HELP, id="agentsite.E001")]
    return []

"""Facts about the database the product needs (pgvector present and usable), and
the threads async code reaches it through."""

from __future__ import annotations

import functools
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from channels.db import DatabaseSyncToAsync
from django.conf import settings
from django.core import checks
from django.db import connection

P = ParamSpec("P")
R = TypeVar("R")

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _database_pool() -> ThreadPoolExecutor:
    global _pool
    if _pool is None:
        with _pool_lock:
            if _pool is None:
                _pool = ThreadPoolExecutor(max_workers=settings.DATABASE_THREADS, thread_name_prefix="database")
    return _pool


def in_database_pool(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``func``, synchronous ORM code that stands alone (its own transaction, no
    state kept in its thread between calls), as a coroutine function run on the
    process's pool of ``DATABASE_THREADS`` threads, each with its own connection.

    ``sync_to_async``'s default sends every call of the process through one
    thread, so the web server stored questions, audit rows and partial answers
    one after another, each waiting out its round trips to PostgreSQL behind the
    others'. Connections are closed as Channels closes them around each call
    (``CONN_MAX_AGE``, health checks).
    """

    @functools.wraps(func)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        return await DatabaseSyncToAsync(func, thread_sensitive=False, executor=_database_pool())(*args, **kwargs)

    return call

PGVECTOR_HELP = (
    "The PostgreSQL server at DATABASE_URL has no 'vector' extension available. "
    "Install pgvector on that server (https://github.com/pgvector/pgvector#installation, "
    "for example the postgresql-16-pgvector package), or unset DATABASE_URL to use the "
    "embedded PostgreSQL that ships with pgvector."
)


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

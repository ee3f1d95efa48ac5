"""The threads async code reaches the database through: ``in_database_pool``.

The bottom of the product: ``llm``, ``rag`` and ``chat`` (and the project in
``agentsite``) may all import this; it imports Django and nothing of ours, so
``llm`` can store audit rows and read prompt overrides without depending on the
project. The pool's size is the ``DATABASE_THREADS`` setting.

``run_beside``: synchronous code that starts a statement on another connection
while its own runs (a search's vector and symbol channels beside its lexical one).

``first_run``: what a fresh database needs before the product's commands work
(migrations, a first administrator), for ``serve`` and the ``rag`` commands alike.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import threading
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from django.conf import settings
from django.db import close_old_connections, connection

__all__ = ["CONNECTION_CHECK_SECONDS", "beside_pays", "close_beside", "in_database_pool", "run_beside"]

P = ParamSpec("P")
R = TypeVar("R")

_pool: ThreadPoolExecutor | None = None
_beside: ThreadPoolExecutor | None = None
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

    The call runs in a copy of the caller's context (its context variables, Django's
    active language and time zone), handed to the pool by the event loop itself:
    ``sync_to_async(thread_sensitive=False)`` does the same and also copies back
    every variable the call changed: 15 to 25 us more of the process's CPU a call
    (a question makes five or six), for copies code run here never needs.
    """

    @functools.wraps(func)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        context = contextvars.copy_context()
        work = functools.partial(context.run, _run_in_pool_thread, func, *args, **kwargs)
        return await asyncio.get_running_loop().run_in_executor(_database_pool(), work)

    return call


def beside_pays() -> bool:
    """Whether ``run_beside`` pays here: connections are kept (``CONN_MAX_AGE``, as the web
    processes keep them: a connection opened for one statement costs more than the overlap
    saves), and this thread is in no transaction (whose rows not yet committed another
    connection would not see)."""
    return connection.settings_dict.get("CONN_MAX_AGE") != 0 and not connection.in_atomic_block


def run_beside(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> Future[R]:
    """``func``, synchronous database code, started at once on a thread of a second pool of
    ``DATABASE_THREADS`` threads, each with its own connection (looked after as the first
    pool's are): its statements run while the caller's own do; ``result()`` waits for it.
    Callers ask ``beside_pays`` first.

    A thread of either pool may start work here and wait for it: work started here never
    starts more, so the wait always ends.
    """
    global _beside
    if _beside is None:
        with _pool_lock:
            if _beside is None:
                _beside = ThreadPoolExecutor(max_workers=settings.DATABASE_THREADS, thread_name_prefix="database-beside")
    return _beside.submit(_run_beside, func, *args, **kwargs)


# Per thread of ``run_beside``: its connection (as psycopg's), for ``close_beside``.
_beside_connections: dict[int, object] = {}


def _run_beside(func: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
    try:
        return _run_in_pool_thread(func, *args, **kwargs)
    finally:
        # Written only when the thread's connection is new (its first call, or after a reconnect).
        raw, thread = connection.connection, threading.get_ident()
        if raw is not None and _beside_connections.get(thread) is not raw:
            with _pool_lock:
                _beside_connections[thread] = raw


def close_beside() -> None:
    """End ``run_beside``'s threads and close their connections (a process about to drop its database)."""
    global _beside
    with _pool_lock:
        pool, _beside = _beside, None
    if pool is not None:
        pool.shutdown(wait=True)
    with _pool_lock:
        opened = list(_beside_connections.values())
        _beside_connections.clear()
    for raw in opened:
        raw.close()

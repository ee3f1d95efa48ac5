"""The database pool: side by side on threads of its own, connections closed or kept and replaced."""

from __future__ import annotations

import asyncio
import time

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

from database_pool import in_database_pool


def _backend_pid_after_sleep(seconds: float) -> tuple[int, str]:
    import threading

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid() FROM pg_sleep(%s)", [seconds])
        return cursor.fetchone()[0], threading.current_thread().name


@pytest.mark.django_db(transaction=True)
async def test_database_work_of_async_code_runs_side_by_side_on_threads_of_its_own():
    pooled = in_database_pool(_backend_pid_after_sleep)
    started = time.monotonic()
    results = await asyncio.gather(*(pooled(0.4) for _ in range(3)))
    elapsed = time.monotonic() - started
    # One after another (one shared thread) would take 1.2 s.
    assert elapsed < 1.0
    assert len({pid for pid, _ in results}) == 3
    assert all(name.startswith("database") for _, name in results)
    # Connections are closed after each call as in a request (CONN_MAX_AGE is 0 in the tests).
    assert await in_database_pool(_backends_alive)([pid for pid, _ in results]) == 0


def _backends_alive(pids: list[int]) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [pids])
        return cursor.fetchone()[0]


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
async def test_kept_connections_of_the_pool_are_reused_and_a_broken_one_is_replaced(monkeypatch):
    from django.db import connections

    threads = settings.DATABASE_THREADS
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 60)
    try:
        pooled = in_database_pool(_backend_pid)
        pids = [await pooled() for _ in range(8)]
        # One connection per pool thread at most, kept between calls.
        assert len(set(pids)) <= threads
        assert await in_database_pool(_backends_alive)(sorted(set(pids))) == len(set(pids))

        # PostgreSQL ends a kept connection (a restart would): the next call on its thread fails
        # once, and the call after it gets a new connection.
        victim = pids[-1]
        await sync_to_async(_terminate, thread_sensitive=True)(victim)
        outcomes = []
        for _ in range(3 * threads):
            try:
                outcomes.append(await pooled())
            except Exception as exc:  # noqa: BLE001 - the failure is what is being checked
                outcomes.append(type(exc).__name__)
        assert victim not in outcomes
        assert sum(isinstance(o, str) for o in outcomes) <= 1
    finally:
        monkeypatch.undo()
        # Every thread busy at once, so each closes the connection it kept.
        await asyncio.gather(*(in_database_pool(_sleep_and_close)() for _ in range(threads)))


def _sleep_and_close() -> None:
    _backend_pid_after_sleep(0.2)
    connection.close()


def _terminate(pid: int) -> None:
    """From outside the pool: asgiref's own sync thread, on a connection closed afterwards."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
    finally:
        connection.close()

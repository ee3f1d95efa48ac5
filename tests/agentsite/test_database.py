from __future__ import annotations

import asyncio
import time

import pytest
from django.core import checks
from django.db import connection

from agentsite.database import check_pgvector_available, in_database_pool, pgvector_installed_version


def test_migrations_install_the_vector_extension(db):
    version = pgvector_installed_version()
    assert version is not None and version.count(".") == 2
    with connection.cursor() as cursor:
        cursor.execute("SELECT '[1,0,0]'::vector <=> '[0,1,0]'::vector")
        assert cursor.fetchone()[0] == 1.0


def test_pgvector_check_passes_on_our_server(db):
    assert check_pgvector_available(databases=["default"]) == []
    assert check_pgvector_available(databases=None) == []


def test_database_checks_are_registered():
    registered = checks.registry.registry.get_checks(include_deployment_checks=False)
    assert check_pgvector_available in registered


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

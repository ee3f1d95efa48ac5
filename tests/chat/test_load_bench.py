from __future__ import annotations

import os

import pytest

from chat.benchmarks.load import _postgres_pids, format_report, run_load
from chat.models import ChatSession


@pytest.mark.django_db(transaction=True)
def test_the_load_run_delivers_every_token_of_every_chat_and_cleans_up():
    cpus = os.sched_getaffinity(0)
    report = run_load(chats=3, tokens=12, rate=200.0, first_token_delay=0.05)
    # The run pins itself (and the embedded PostgreSQL) away from the server, then gives the CPUs back.
    assert os.sched_getaffinity(0) == cpus
    postgres = _postgres_pids()
    if postgres:
        assert os.sched_getaffinity(postgres[0]) == cpus
    assert report.server_cpu_s is not None and report.server_cpu_s > 0
    assert report.failed_chats == []
    assert report.delivered == 36 and report.dropped == 0 and report.out_of_order == 0
    assert report.stored_complete == 3
    assert len(report.added_ttft_ms) == 3
    assert all(model >= 50 for model in report.model_ttft_ms)
    # The phases of each chat's added TTFT add up to it (wall and monotonic clocks agree within a few ms).
    phases = list(zip(*report.added_phases_ms.values()))
    assert len(phases) == 3
    for parts, added in zip(phases, report.added_ttft_ms):
        assert all(part > -5 for part in parts)
        assert sum(parts) == pytest.approx(added, abs=5)
    assert not ChatSession.objects.exists()
    text = format_report(report)
    assert "dropped frames                  0" in text and "server-added TTFT" in text
    assert "us per delivered token" in text
    assert 0 < report.load_cpu_s and "load generator CPU" in text


def test_the_embedded_postgresql_is_found_with_its_backends(db, settings):
    if settings.EMBEDDED_POSTGRES is None:
        pytest.skip("the tests run against a server at DATABASE_URL")
    pids = _postgres_pids()
    # The postmaster, its background processes and this test's own backend.
    assert len(pids) >= 3
    assert all(os.path.exists(f"/proc/{pid}") for pid in pids)


@pytest.mark.django_db(transaction=True)
def test_chats_without_a_repository_are_answered_without_a_router_call():
    report = run_load(chats=2, tokens=4, rate=200.0, first_token_delay=0.05, repository=False)

    assert report.failed_chats == [] and report.delivered == 8 and report.stored_complete == 2
    assert list(report.added_phases_ms) == ["question stored", "to the answer call", "first chunk to page"]
    assert "chats without a repository" in format_report(report)

from __future__ import annotations

from django.db import connection
from django.urls import reverse


def test_healthz_is_503_without_a_worker(client, transactional_db):
    # A worker an earlier test of this process killed (tests/rag/test_worker_faults.py) leaves its row and
    # heartbeat behind, and Django's flush does not empty procrastinate's tables: no worker, as on a fresh site.
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM procrastinate_workers")
    response = client.get(reverse("healthz"))
    assert response.status_code == 503
    body = response.json()
    assert body["database"] is True
    assert body["pgvector"]
    assert body["worker_heartbeat_age_s"] is None
    assert "no background worker is running" in body["problems"]


def test_healthz_is_200_with_a_worker_and_needs_no_login(client, worker_process):
    response = client.get(reverse("healthz"))
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["ok"] is True
    assert body["pgvector"].startswith("0.")
    assert 0 <= body["worker_heartbeat_age_s"] < 60

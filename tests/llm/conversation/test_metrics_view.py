"""``/metrics``: Prometheus text for staff or a bearer token, nothing for anyone else."""

from __future__ import annotations

import pytest
from django.urls import reverse

from llm import metrics
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


@pytest.fixture
def metrics_token(settings):
    settings.LLM = {**settings.LLM, "METRICS_TOKEN": "scrape-secret"}
    return "scrape-secret"


def test_staff_read_the_metrics_in_prometheus_format(client, staff_user):
    metrics.TURNS.labels(outcome="ok").inc()
    client.login(username=staff_user.username, password=PASSWORD)
    response = client.get(reverse("metrics"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")
    body = response.content.decode()
    assert 'llm_turns_total{outcome="ok"}' in body
    assert "llm_turn_time_to_first_chunk_seconds_bucket" in body
    assert "llm_context_handovers_total" in body
    assert "llm_summary_cache_hits_total" in body


def test_a_scraper_with_the_token_reads_them_without_logging_in(client, metrics_token):
    response = client.get(reverse("metrics"), headers={"Authorization": f"Bearer {metrics_token}"})
    assert response.status_code == 200
    assert b"llm_turn_latency_seconds" in response.content


def test_a_wrong_token_is_refused(client, metrics_token):
    response = client.get(reverse("metrics"), headers={"Authorization": "Bearer guess"})
    assert response.status_code == 401
    assert b"llm_" not in response.content


def test_a_token_is_refused_when_none_is_configured(client, settings):
    settings.LLM = {**settings.LLM, "METRICS_TOKEN": ""}
    response = client.get(reverse("metrics"), headers={"Authorization": "Bearer "})
    assert response.status_code in (302, 401)
    response = client.get(reverse("metrics"), headers={"Authorization": "Bearer anything"})
    assert response.status_code == 401


def test_other_users_get_nothing(owner_client):
    response = owner_client.get(reverse("metrics"))
    assert response.status_code == 403
    assert b"llm_" not in response.content


def test_anonymous_visitors_are_sent_to_log_in(client):
    response = client.get(reverse("metrics"))
    assert response.status_code == 302
    assert reverse("login") in response["Location"]

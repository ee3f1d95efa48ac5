"""Admin for repositories and index runs: lists, the run page, the reindex action."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.urls import reverse

from rag.models import IndexRun
from tests.factories import PASSWORD


def _admin_client(client):
    admin = get_user_model().objects.create_superuser("admin", password=PASSWORD)
    client.login(username=admin.username, password=PASSWORD)
    return client


def test_the_admin_lists_repositories_and_runs_with_status_and_counts(client, shop):
    client = _admin_client(client)
    assert b"shop" in client.get(reverse("admin:rag_repository_changelist")).content
    runs = client.get(reverse("admin:rag_indexrun_changelist")).content.decode()
    assert "100%" in runs and "ready" in runs
    page = client.get(reverse("admin:rag_indexrun_change", args=[shop.active_run_id])).content.decode()
    assert "C1_SYMBOL_CATALOG: 7" in page


def test_the_reindex_action_queues_a_run_and_says_so(client, shop, django_capture_on_commit_callbacks):
    client = _admin_client(client)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:rag_repository_changelist"),
            {"action": "reindex_repositories", "_selected_action": [shop.pk]},
            follow=True,
        )
    assert "Queued a reindex of 1 repositories." in response.content.decode()
    queued = shop.runs.filter(status=IndexRun.Status.QUEUED).get()
    assert queued.trigger == IndexRun.Trigger.ADMIN and queued.job_id is not None


def _staff_who_may_only_view(client, *models: str):
    from django.contrib.auth.models import Permission

    from tests.factories import make_user

    viewer = make_user("viewer", staff=True)
    viewer.user_permissions.add(*Permission.objects.filter(codename__in=[f"view_{model}" for model in models]))
    client.login(username=viewer.username, password=PASSWORD)
    return client


def test_staff_who_may_only_view_cannot_reindex_or_cancel(client, shop):
    client = _staff_who_may_only_view(client, "repository", "indexrun")
    runs_before = shop.runs.count()

    page = client.get(reverse("admin:rag_repository_changelist")).content.decode()
    assert "reindex_repositories" not in page
    client.post(reverse("admin:rag_repository_changelist"), {"action": "reindex_repositories", "_selected_action": [shop.pk]})
    client.post(reverse("admin:rag_indexrun_changelist"), {"action": "reindex_runs", "_selected_action": [shop.active_run_id]})
    client.post(reverse("admin:rag_indexrun_changelist"), {"action": "cancel_runs", "_selected_action": [shop.active_run_id]})

    assert shop.runs.count() == runs_before
    assert IndexRun.objects.get(pk=shop.active_run_id).status == IndexRun.Status.READY

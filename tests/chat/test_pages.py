from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from chat.models import ChatSession, Message
from rag.models import IndexRun, Repository

pytestmark = pytest.mark.django_db


def test_the_list_shows_only_the_users_own_chats(owner_client, owner, other_user):
    ChatSession.objects.create(owner=owner, title="Mine")
    ChatSession.objects.create(owner=other_user, title="Theirs")
    page = owner_client.get(reverse("chat-sessions")).content.decode()
    assert "Mine" in page and "Theirs" not in page


def test_the_list_says_just_now_for_a_chat_active_this_minute(owner_client, owner):
    ChatSession.objects.create(owner=owner, title="Fresh")
    ChatSession.objects.create(owner=owner, title="Older", last_activity_at=timezone.now() - timedelta(hours=2))
    page = owner_client.get(reverse("chat-sessions")).content.decode()
    assert page.count("just now") == 1
    assert "2\xa0hours ago" in page
    assert "0\xa0minutes" not in page


def test_a_new_chat_can_be_tied_to_an_own_repository(owner_client, owner):
    repo = Repository.objects.create(owner=owner, name="shop")
    response = owner_client.post(reverse("chat-create"), {"title": "About the shop", "repository": repo.pk})
    session = ChatSession.objects.get(owner=owner)
    assert response.status_code == 302 and response["Location"] == reverse("chat-session", args=[session.pk])
    assert session.repository == repo and session.title == "About the shop"


def _indexed(owner, name: str) -> Repository:
    repository = Repository.objects.create(owner=owner, name=name)
    repository.active_run = IndexRun.objects.create(repository=repository, status=IndexRun.Status.READY)
    repository.save(update_fields=["active_run"])
    return repository


def test_a_new_chat_defaults_to_the_users_one_indexed_repository(owner_client, owner, other_user):
    repository = _indexed(owner, "shop")
    Repository.objects.create(owner=owner, name="not-indexed-yet")
    _indexed(other_user, "theirs")
    page = owner_client.get(reverse("chat-sessions")).content.decode()
    assert f'<option value="{repository.pk}" selected>shop</option>' in page
    response = owner_client.post(reverse("chat-create"), {"title": ""})
    session = ChatSession.objects.get(owner=owner)
    assert response["Location"] == reverse("chat-session", args=[session.pk])
    assert session.repository == repository


def test_a_new_chat_has_no_default_among_several_indexed_repositories(owner_client, owner):
    _indexed(owner, "shop")
    _indexed(owner, "blog")
    assert '<option value="" selected>' in owner_client.get(reverse("chat-sessions")).content.decode()
    owner_client.post(reverse("chat-create"), {"title": ""})
    assert ChatSession.objects.get(owner=owner).repository is None


def test_a_new_chat_stays_general_when_the_user_chooses_no_repository(owner_client, owner):
    _indexed(owner, "shop")
    owner_client.post(reverse("chat-create"), {"title": "", "repository": ""})
    assert ChatSession.objects.get(owner=owner).repository is None


def test_start_chat_opens_the_empty_chat_on_the_same_repository_instead_of_another(owner_client, owner):
    shop = Repository.objects.create(owner=owner, name="shop")
    first = owner_client.post(reverse("chat-create"), {"title": "", "repository": shop.pk})
    again = owner_client.post(reverse("chat-create"), {"title": "Checkout", "repository": shop.pk})
    general = owner_client.post(reverse("chat-create"), {"title": "", "repository": ""})
    session = ChatSession.objects.get(owner=owner, repository=shop)
    assert first["Location"] == again["Location"] == reverse("chat-session", args=[session.pk])
    assert session.title == "Checkout"
    assert general["Location"] != first["Location"]
    Message.objects.create(session=session, role=Message.Role.USER, content="Where is the cart?")
    owner_client.post(reverse("chat-create"), {"title": "", "repository": shop.pk})
    assert ChatSession.objects.filter(owner=owner, repository=shop).count() == 2


def test_a_new_chat_cannot_use_another_users_repository(owner_client, owner, other_user):
    theirs = Repository.objects.create(owner=other_user, name="secret")
    response = owner_client.post(reverse("chat-create"), {"title": "x", "repository": theirs.pk})
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not ChatSession.objects.filter(owner=owner).exists()


def test_a_chat_of_another_user_is_not_found(owner_client, other_user):
    theirs = ChatSession.objects.create(owner=other_user, title="Theirs")
    for name in ("chat-session", "chat-rename", "chat-delete"):
        assert owner_client.get(reverse(name, args=[theirs.pk])).status_code == 404
    assert owner_client.post(reverse("chat-delete", args=[theirs.pk])).status_code == 404
    assert ChatSession.objects.filter(pk=theirs.pk).exists()


def test_rename_and_delete_after_confirmation(owner_client, owner):
    session = ChatSession.objects.create(owner=owner, title="Old")
    owner_client.post(reverse("chat-rename", args=[session.pk]), {"title": "  New   name "})
    session.refresh_from_db()
    assert session.title == "New name"
    confirm = owner_client.get(reverse("chat-delete", args=[session.pk])).content.decode()
    assert "cannot be undone" in confirm and ChatSession.objects.filter(pk=session.pk).exists()
    owner_client.post(reverse("chat-delete", args=[session.pk]))
    assert not ChatSession.objects.filter(pk=session.pk).exists()


def test_the_chat_page_shows_history_rendered_and_sanitized(owner_client, owner):
    session = ChatSession.objects.create(owner=owner, title="Q")
    Message.objects.create(session=session, role="user", content="<b>hi</b>")
    Message.objects.create(
        session=session,
        role="assistant",
        content='**Bold** <script>alert(1)</script> <img src=x onerror="alert(1)">',
        intent="general",
        metrics={"ttft_ms": 120, "latency_ms": 900, "tokens_in": 10, "tokens_out": 5, "model": "m1"},
        steps=[{"node": "general_answer", "depth": 0, "duration_ms": 880.2, "detail": {"tool": "search_code", "arguments": {"query": "login"}, "result": "3 hits"}}],
    )
    page = owner_client.get(reverse("chat-session", args=[session.pk])).content.decode()
    assert "<strong>Bold</strong>" in page
    assert "<script>alert" not in page and "<img src=x" not in page
    assert "&lt;b&gt;hi&lt;/b&gt;" in page
    assert "General" in page and "first token 120 ms" in page
    assert "search_code" in page and "3 hits" in page
    assert f'ws-connect="/ws/chats/{session.pk}/"' in page


def test_a_streaming_answer_is_watched_by_the_page(owner_client, owner):
    session = ChatSession.objects.create(owner=owner, title="Q")
    answer = Message.objects.create(session=session, role="assistant", status="streaming", content="partial")
    page = owner_client.get(reverse("chat-session", args=[session.pk])).content.decode()
    assert f"?watch={answer.pk}" in page and 'data-status="streaming"' in page


def test_staff_can_export_a_session_as_json(client, staff_user, owner):
    session = ChatSession.objects.create(owner=owner, title="Q")
    Message.objects.create(session=session, role="user", content="hello")
    client.force_login(staff_user)
    staff_user.is_superuser = True
    staff_user.save()
    response = client.get(reverse("admin:chat_chatsession_export", args=[session.pk]))
    data = json.loads(response.content)
    assert response["Content-Disposition"].startswith("attachment")
    assert data["title"] == "Q" and data["messages"][0]["content"] == "hello"
    change = client.get(reverse("admin:chat_chatsession_change", args=[session.pk])).content.decode()
    assert "Download as JSON" in change and "hello" in change


def test_an_answer_whose_run_is_gone_is_shown_as_interrupted_with_its_text(owner_client, owner):
    from datetime import timedelta

    from django.utils import timezone

    session = ChatSession.objects.create(owner=owner, title="Q")
    lost = Message.objects.create(session=session, role="assistant", status="streaming", content="half an answ")
    live = Message.objects.create(session=session, role="assistant", status="streaming", content="still going")
    Message.objects.filter(pk=lost.pk).update(updated_at=timezone.now() - timedelta(minutes=5))

    page = owner_client.get(reverse("chat-session", args=[session.pk])).content.decode()
    lost.refresh_from_db()
    live.refresh_from_db()
    assert lost.status == "error" and lost.content == "half an answ"
    assert "was interrupted" in page and "half an answ" in page
    assert live.status == "streaming"


def test_the_admin_links_an_answer_to_its_llm_calls(client, staff_user, owner):
    from llm.models import LLMCall

    session = ChatSession.objects.create(owner=owner, title="Q")
    answer = Message.objects.create(session=session, role="assistant", content="A", status="complete")
    other = Message.objects.create(session=session, role="assistant", content="B", status="complete")
    for message, model in ((answer, "model-of-a"), (other, "model-of-b")):
        LLMCall.objects.create(
            provider="openai", model=model, correlation_id=f"message:{message.pk}", outcome="ok", latency_ms=12.0
        )
    staff_user.is_superuser = True
    staff_user.save()
    client.force_login(staff_user)
    change = client.get(reverse("admin:chat_chatsession_change", args=[session.pk])).content.decode()
    link = reverse("admin:llm_llmcall_changelist") + f"?correlation_id=message%3A{answer.pk}"
    assert link in change
    listed = client.get(link).context["cl"].result_list
    assert [call.model for call in listed] == ["model-of-a"]


def test_an_answer_with_files_offers_their_downloads(owner_client, owner):
    session = ChatSession.objects.create(owner=owner, title="Docs")
    answer = Message.objects.create(
        session=session,
        role="assistant",
        content="Here is the document.",
        artifacts=[{"kind": "markdown", "name": "README.md", "content": "# Shop"}],
    )
    page = owner_client.get(reverse("chat-session", args=[session.pk])).content.decode()
    assert reverse("chat-artifact-download", args=[answer.pk, 0]) in page and "Download README.md" in page
    assert reverse("chat-artifacts", args=[session.pk]) in page

"""Personal access tokens: the Editor access page, the create_token command, and what a token may see."""

from __future__ import annotations

import html
import io
import re
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from chat.mcp.models import AccessToken
from chat.mcp.tokens import authenticate, create_token, digest, repositories_for_token
from rag.models import Repository

pytestmark = pytest.mark.django_db


def test_a_token_is_shown_once_and_stored_only_as_a_digest(owner_client, owner):
    response = owner_client.post("/settings/tokens/", {"name": "laptop", "expires_in_days": "30"})

    secret = re.search(r'<code id="new-token" class="secret">(cba_[\w-]+)</code>', response.text).group(1)
    token = AccessToken.objects.get(user=owner)
    assert token.digest == digest(secret) and secret not in {token.prefix, token.name}
    assert token.expires_at - timezone.now() > timedelta(days=29)
    assert f'"Authorization: Bearer {secret}"' in html.unescape(response.text)  # the Claude Code line, filled in
    assert "http://testserver/mcp" in response.text
    again = owner_client.get("/settings/tokens/")
    assert secret not in again.text and f"{token.prefix}…" in again.text


def test_a_revoked_token_no_longer_authenticates(owner_client, owner):
    token, secret = create_token(owner, "old")

    response = owner_client.post(f"/settings/tokens/{token.pk}/revoke/", follow=True)

    assert "Token revoked" in response.text
    assert authenticate(secret) is None
    assert ">revoked<" in response.text


def test_nobody_revokes_another_users_token(client, owner, other_user):
    token, secret = create_token(owner, "mine")
    client.force_login(other_user)

    client.post(f"/settings/tokens/{token.pk}/revoke/")

    assert authenticate(secret) == token


def test_a_token_cannot_be_limited_to_someone_elses_repository(owner_client, owner, other_user):
    theirs = Repository.objects.create(owner=other_user, name="theirs")

    response = owner_client.post("/settings/tokens/", {"name": "sneaky", "repositories": [theirs.pk]})

    assert response.status_code == 400
    assert not AccessToken.objects.exists()


def test_expired_tokens_and_inactive_users_do_not_authenticate(owner, other_user):
    expired, expired_secret = create_token(owner, "expired", expires_in_days=1)
    AccessToken.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    _, inactive_secret = create_token(other_user, "inactive")
    other_user.is_active = False
    other_user.save()

    assert authenticate(expired_secret) is None
    assert authenticate(inactive_secret) is None
    assert authenticate("not-a-token") is None


def test_a_limited_token_sees_only_its_repositories_and_only_while_its_user_does(owner, staff_user):
    mine = Repository.objects.create(owner=owner, name="mine")
    Repository.objects.create(owner=owner, name="also-mine")
    token, _ = create_token(owner, "one", repositories=[mine])
    everything, _ = create_token(staff_user, "staff")

    assert list(repositories_for_token(token).values_list("name", flat=True)) == ["mine"]
    assert set(repositories_for_token(everything).values_list("name", flat=True)) == {"mine", "also-mine"}


def test_create_token_prints_a_working_token(owner):
    Repository.objects.create(owner=owner, name="mine")
    out = io.StringIO()

    call_command("create_token", owner.username, "--name", "ci", "--days", "7", "--repository", "mine", stdout=out)

    token = authenticate(out.getvalue().strip())
    assert token is not None and token.name == "ci"
    assert [r.name for r in token.repositories.all()] == ["mine"]
    with pytest.raises(CommandError, match="no repository named nope"):
        call_command("create_token", owner.username, "--name", "x", "--repository", "nope")


def test_staff_see_token_calls_in_admin(client, staff_user, owner):
    token, _ = create_token(owner, "editor")
    token.uses.create(user=owner, tool="search_code", duration_ms=3.5)
    staff_user.is_superuser = True
    staff_user.save()
    client.force_login(staff_user)

    response = client.get("/admin/chat/tooluse/")

    assert response.status_code == 200
    assert "search_code" in response.text and "editor" in response.text

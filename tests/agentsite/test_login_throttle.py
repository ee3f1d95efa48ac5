"""Failed logins are counted per username and per client address, in the database."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PASSWORD, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def throttled(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 3


def _log_in(client, username: str, password: str, address: str = "10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def test_wrong_passwords_lock_the_username_out_even_with_the_right_one(client, throttled):
    make_user("alice")
    assert [_log_in(client, "alice", "wrong").status_code for _ in range(3)] == [200, 200, 429]

    locked = _log_in(client, "alice", PASSWORD, address="10.0.0.2")

    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()


def test_one_address_guessing_many_usernames_is_locked_out(client, throttled):
    make_user("bob")
    for name in ("carol", "dave", "erin"):
        _log_in(client, name, "wrong", address="10.9.9.9")

    assert _log_in(client, "bob", PASSWORD, address="10.9.9.9").status_code == 429
    assert _log_in(client, "bob", PASSWORD, address="10.0.0.7").status_code == 302


def test_a_successful_login_clears_the_count(client, throttled):
    make_user("frank")
    for _ in range(2):
        _log_in(client, "frank", "wrong")
    assert _log_in(client, "frank", PASSWORD).status_code == 302
    client.logout()
    for _ in range(2):
        _log_in(client, "frank", "wrong")

    assert _log_in(client, "frank", PASSWORD).status_code == 302

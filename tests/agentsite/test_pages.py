from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PASSWORD


@pytest.mark.parametrize("name", ["chat-sessions", "rag-repositories", "home"])
def test_pages_require_login(client, db, name):
    response = client.get(reverse(name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_login_page_is_public_and_logs_in(client, owner):
    page = client.get(reverse("login"))
    assert page.status_code == 200
    assert b'name="password"' in page.content
    response = client.post(reverse("login"), {"username": owner.username, "password": PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("chat-sessions")).status_code == 200


def test_wrong_password_is_refused(client, owner):
    response = client.post(reverse("login"), {"username": owner.username, "password": "nope"})
    assert response.status_code == 200
    assert b"did not match" in response.content
    assert client.get(reverse("chat-sessions")).status_code == 302


def test_base_template_has_navigation_and_htmx(owner_client):
    html = owner_client.get(reverse("chat-sessions")).content.decode()
    assert 'href="/chats/"' in html and 'href="/repositories/"' in html
    assert "htmx" in html and "ws" in html
    assert "X-CSRFToken" in html


def test_admin_link_only_for_staff(client, owner, staff_user):
    client.login(username=owner.username, password=PASSWORD)
    assert b'href="/admin/"' not in client.get(reverse("chat-sessions")).content
    client.login(username=staff_user.username, password=PASSWORD)
    assert b'href="/admin/"' in client.get(reverse("chat-sessions")).content


def test_logout_requires_post_and_ends_the_session(owner_client):
    response = owner_client.post(reverse("logout"))
    assert response.status_code == 302
    assert owner_client.get(reverse("chat-sessions")).status_code == 302


def test_a_missing_page_is_shown_in_the_sites_layout(owner_client, owner):
    response = owner_client.get("/no/such/page/")
    html = response.content.decode()
    assert response.status_code == 404
    assert "Page not found" in html and 'class="site-header"' in html
    assert owner.username in html and 'href="/chats/"' in html  # the signed-in header, from the request


def test_the_server_error_page_renders_in_the_sites_layout_without_a_request_context(rf):
    from django.views.defaults import server_error

    response = server_error(rf.get("/"))
    html = response.content.decode()
    assert response.status_code == 500
    assert "Something went wrong" in html and 'class="site-header"' in html and "css/site.css" in html
    assert "Log out" not in html


def test_pages_link_the_sites_own_icon_and_favicon_ico_leads_to_it(client, db):
    from django.contrib.staticfiles import finders

    login_page = client.get(reverse("login")).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in login_page
    icon = finders.find("favicon.svg")
    assert icon and open(icon, encoding="utf-8").read().startswith("<svg ")

    response = client.get("/favicon.ico")  # anonymous: no login redirect for the icon
    assert response.status_code == 301 and response["Location"] == "/static/favicon.svg"

"""Downloading the documents and patches attached to answers, and the chat's list of them."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.urls import reverse

from chat.models import ChatSession, Message
from chat.presentation import message_context
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

DOCUMENT = "# Pricing\n\nTaxes are computed in `src/shopapp/pricing.py:10-11`.\n"
PATCH = "diff --git a/a.py b/a.py\n--- a/a.py\n+++ b/a.py\n@@ -1 +1,2 @@\n x = 1\n+y = 2\n"


@pytest.fixture
def answer(owner) -> Message:
    session = ChatSession.objects.create(owner=owner, title="Docs")
    Message.objects.create(session=session, role=Message.Role.USER, content="Document pricing")
    return Message.objects.create(
        session=session,
        role=Message.Role.ASSISTANT,
        content="Done.",
        artifacts=[
            {"kind": "markdown", "name": "pricing.md", "content": DOCUMENT},
            {"kind": "patch", "name": "../../etc/passwd", "content": PATCH},
        ],
    )


def download_url(message: Message, index: int) -> str:
    return reverse("chat-artifact-download", args=[message.pk, index])


def test_the_owner_downloads_a_document_as_a_markdown_file(owner_client, answer):
    response = owner_client.get(download_url(answer, 0))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="pricing.md"'
    assert response.content.decode() == DOCUMENT


def test_a_patch_downloads_under_a_safe_name_ending_in_patch(owner_client, answer):
    response = owner_client.get(download_url(answer, 1))

    assert response["Content-Type"] == "text/x-diff; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="etc-passwd.patch"'
    assert response.content.decode() == PATCH


def test_another_user_gets_not_found(client, other_user, answer):
    client.login(username=other_user.username, password=PASSWORD)

    assert client.get(download_url(answer, 0)).status_code == 404
    assert client.get(reverse("chat-artifacts", args=[answer.session_id])).status_code == 404


def test_an_anonymous_visitor_is_sent_to_log_in(client, answer):
    response = client.get(download_url(answer, 0))

    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_an_index_past_the_answers_files_is_not_found(owner_client, answer):
    assert owner_client.get(download_url(answer, 2)).status_code == 404
    assert owner_client.get(reverse("chat-artifact-download", args=[answer.pk + 1000, 0])).status_code == 404


def test_the_chat_lists_its_files_as_an_htmx_fragment_and_as_a_page(owner_client, answer):
    url = reverse("chat-artifacts", args=[answer.session_id])

    fragment = owner_client.get(url, headers={"HX-Request": "true"}).content.decode()
    page = owner_client.get(url).content.decode()

    assert fragment.lstrip().startswith('<section id="chat-artifacts"')
    assert f'href="{download_url(answer, 0)}" download="pricing.md">pricing.md</a>' in fragment
    assert f'href="{download_url(answer, 1)}" download="etc-passwd.patch">etc-passwd.patch</a>' in fragment
    assert "1 file, +1 −0" in fragment and "3 lines" in fragment
    assert "<html" in page and 'id="chat-artifacts"' in page


def test_a_chat_without_files_says_so(owner_client, owner):
    session = ChatSession.objects.create(owner=owner, title="Empty")

    page = owner_client.get(reverse("chat-artifacts", args=[session.pk]), headers={"HX-Request": "true"})

    assert "No documents or patches yet." in page.content.decode()


def test_the_message_partial_links_each_file_of_an_answer(answer):
    html = render_to_string("chat/artifacts/message.html", {"m": message_context(answer, None)})

    assert f'<a href="{download_url(answer, 0)}" download>Download pricing.md</a>' in html
    assert f'<a href="{download_url(answer, 1)}" download>Download ../../etc/passwd</a>' in html

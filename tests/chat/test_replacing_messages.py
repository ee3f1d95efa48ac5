"""Regenerate and edit-and-resend replace a question and everything after it: the
replaced messages leave the chat page and the model's history and stay stored,
marked, for audit; only the chat's owner can replace its messages. The real
view, consumer, agent and OpenAI adapter run against the local fake model."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from chat.models import ChatSession, Message
from tests.chat.conftest import Reply, frames_until_done, socket, stored_answer
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db


def reply(request) -> Reply:
    if "response_format" in (request.json or {}):
        return Reply.text('{"intent": "general"}', usage=(0, 0))
    return Reply.text(f"Answer to: {request.last_user_text}", chunk_size=16)


def replace_url(chat: ChatSession, message_id: int) -> str:
    return reverse("chat-message-replace", args=[chat.pk, message_id])


async def ask(communicator, text: str) -> Message:
    await communicator.send_json_to({"action": "send", "text": text})
    await frames_until_done(communicator)
    answer = await Message.objects.filter(role="assistant").alatest("id")
    return await stored_answer(answer.pk)


def chat_with(owner, *texts: str) -> tuple[ChatSession, list[Message]]:
    chat = ChatSession.objects.create(owner=owner, title="Questions")
    messages = []
    for text in texts:
        messages.append(Message.objects.create(session=chat, role=Message.Role.USER, content=text))
        messages.append(Message.objects.create(session=chat, role=Message.Role.ASSISTANT, content=f"Answer to: {text}"))
    return chat, messages


@pytest.mark.django_db(transaction=True)
async def test_the_model_never_sees_replaced_messages(fake_openai, owner_chat, owner_cookie, owner_client):
    fake_openai.fallback = reply
    communicator = socket(owner_chat.pk, owner_cookie)
    assert (await communicator.connect())[0]
    await ask(communicator, "First question")
    await ask(communicator, "Second question")
    second = await Message.objects.filter(session=owner_chat, content="Second question").aget()

    # Edit and resend the second question: the page replaces it over HTTP, then asks again on the socket.
    response = await sync_to_async(owner_client.post)(replace_url(owner_chat, second.pk))
    assert response.status_code == 200
    assert len(response.json()["replaced"]) == 2
    await ask(communicator, "Second question, edited")
    await communicator.disconnect()

    answering = [r for r in fake_openai.chat_requests if "response_format" not in (r.json or {})]
    sent = [(m["role"], m["content"]) for m in answering[-1].json["messages"] if m["role"] != "system"]
    assert sent == [
        ("user", "First question"),
        ("assistant", "Answer to: First question"),
        ("user", "Second question, edited"),
    ]
    # Nothing is lost: the replaced question and answer are stored, marked.
    stored = [(m.role, m.content, m.replaced_at is not None) async for m in Message.objects.filter(session=owner_chat).order_by("id")]
    assert stored == [
        ("user", "First question", False),
        ("assistant", "Answer to: First question", False),
        ("user", "Second question", True),
        ("assistant", "Answer to: Second question", True),
        ("user", "Second question, edited", False),
        ("assistant", "Answer to: Second question, edited", False),
    ]


def test_replacing_marks_the_question_and_what_followed_and_the_page_leaves_them_out(owner_client, owner):
    chat, (q1, a1, q2, a2, q3, a3) = chat_with(owner, "Where is login?", "And logout?", "And signup?")
    for answer, name in ((a1, "login.md"), (a2, "logout.md")):
        Message.objects.filter(pk=answer.pk).update(artifacts=[{"kind": "markdown", "name": name, "content": "# Notes"}])

    response = owner_client.post(replace_url(chat, q2.pk))

    assert response.status_code == 200
    assert response.json() == {"replaced": [f"msg-{m.pk}" for m in (q2, a2, q3, a3)]}
    replaced = set(Message.objects.filter(session=chat, replaced_at__isnull=False).values_list("pk", flat=True))
    assert replaced == {q2.pk, a2.pk, q3.pk, a3.pk}
    page = owner_client.get(reverse("chat-session", args=[chat.pk])).content.decode()
    assert "Where is login?" in page and "And logout?" not in page and "And signup?" not in page
    files = owner_client.get(reverse("chat-artifacts", args=[chat.pk])).content.decode()
    assert "login.md" in files and "logout.md" not in files
    listed = owner_client.get(reverse("chat-sessions")).content.decode()
    assert "2 messages" in listed
    # A replaced question cannot be replaced again, nor an answer be taken for a question.
    assert owner_client.post(replace_url(chat, q2.pk)).status_code == 404
    assert owner_client.post(replace_url(chat, a1.pk)).status_code == 404


def test_another_user_cannot_replace_the_owners_messages(client, owner, other_user):
    chat, messages = chat_with(owner, "Where is login?")
    client.login(username=other_user.username, password=PASSWORD)
    own_chat, _ = chat_with(other_user, "Mine")

    # Neither through the owner's chat nor by naming the owner's message under a chat of one's own.
    assert client.post(replace_url(chat, messages[0].pk)).status_code == 404
    assert client.post(replace_url(own_chat, messages[0].pk)).status_code == 404

    assert not Message.objects.filter(replaced_at__isnull=False).exists()


def test_replacing_needs_a_post_with_the_csrf_token_from_a_logged_in_user(owner):
    chat, messages = chat_with(owner, "Where is login?")
    url = replace_url(chat, messages[0].pk)
    anonymous = Client()
    assert anonymous.post(url).status_code == 302  # to the login page
    browser = Client(enforce_csrf_checks=True)
    browser.login(username=owner.username, password=PASSWORD)
    assert browser.get(url).status_code == 405
    assert browser.post(url).status_code == 403
    assert not Message.objects.filter(replaced_at__isnull=False).exists()


def test_an_answer_being_written_is_not_replaced(owner_client, owner):
    chat, (question, answer) = chat_with(owner, "Where is login?")
    Message.objects.filter(pk=answer.pk).update(status=Message.Status.STREAMING)

    response = owner_client.post(replace_url(chat, question.pk))

    assert response.status_code == 409
    assert "stop it first" in response.json()["error"]
    assert not Message.objects.filter(replaced_at__isnull=False).exists()

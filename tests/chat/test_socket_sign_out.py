"""Open chat sockets end when their user signs out or is deactivated."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from tests.chat.conftest import socket

pytestmark = pytest.mark.django_db(transaction=True)


async def _closed_with(communicator) -> int | None:
    output = await communicator.receive_output(timeout=5)
    return output.get("code") if output["type"] == "websocket.close" else None


async def test_signing_out_closes_the_users_open_chat_sockets(client, owner_chat, owner_cookie):
    communicator = socket(owner_chat.pk, owner_cookie)
    connected, _ = await communicator.connect()
    assert connected

    client.cookies["sessionid"] = owner_cookie
    response = await sync_to_async(client.post)(reverse("logout"))

    assert response.status_code in (200, 302)
    assert await _closed_with(communicator) == 4403


async def test_deactivating_a_user_closes_their_sockets_and_refuses_their_chats(owner, owner_chat, owner_cookie):
    communicator = socket(owner_chat.pk, owner_cookie)
    connected, _ = await communicator.connect()
    assert connected

    owner.is_active = False
    await sync_to_async(owner.save)()

    assert await _closed_with(communicator) == 4403


async def test_another_users_sign_out_leaves_the_socket_open(other_user, owner_chat, owner_cookie, client):
    from chat.signals import close_sockets_of

    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()

    await sync_to_async(close_sockets_of)(other_user.pk)

    assert await communicator.receive_nothing(timeout=0.5)
    await communicator.disconnect()

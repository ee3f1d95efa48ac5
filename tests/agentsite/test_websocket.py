from __future__ import annotations

import pytest
from channels.testing import WebsocketCommunicator

from agentsite.asgi import application


@pytest.mark.django_db(transaction=True)
async def test_websocket_is_refused_without_login():
    communicator = WebsocketCommunicator(application, "/ws/chats/1/", headers=[(b"origin", b"http://localhost")])
    connected, _ = await communicator.connect()
    assert connected is False
    await communicator.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_websocket_from_a_foreign_origin_is_refused():
    communicator = WebsocketCommunicator(application, "/ws/chats/1/", headers=[(b"origin", b"http://evil.example")])
    connected, _ = await communicator.connect()
    assert connected is False
    await communicator.disconnect()

"""Fixtures of the chat tests: chats, logged-in websocket clients, the fake model."""

from __future__ import annotations

import asyncio
import html
import io
import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from asgiref.sync import sync_to_async
from channels.layers import BaseChannelLayer, InMemoryChannelLayer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import override_settings

from agentsite.asgi import application
from chat.streams import REGISTRY
from chat.models import ChatSession, Message
from rag.models import IndexRun, Repository
from rag.services import delete_repository, run_index, start_index_run
from tests.factories import PASSWORD, make_user
from tests.fixtures.projects import zip_project
from tests.llm.fakes import Reply, fake_llm_server, fake_openai  # noqa: F401 (fixtures)

TOKEN_FRAME = re.compile(r'<span hx-swap-oob="(beforeend|innerHTML):#msg-(\d+)-body">(.*?)</span>', re.S)


@contextmanager
def indexed_shopapp(
    username: str, tmp_path_factory, django_db_blocker, *, name: str = "shopapp", archive: bytes | None = None
) -> Iterator[Repository]:
    """The shopapp fixture project (or another project's zip, ``archive``) uploaded and indexed through
    the real pipeline, committed, and deleted afterwards.

    For fixtures of module or package scope, so a folder of tests indexes it once.
    """
    uploads = tmp_path_factory.mktemp("uploads")
    with django_db_blocker.unblock(), override_settings(RAG={**settings.RAG, "UPLOAD_DIR": str(uploads)}):
        user = make_user(username)
        run = start_index_run(
            owner=user, name=name, archive=io.BytesIO(archive if archive is not None else zip_project()),
            archive_name=f"{name}.zip", defer=False,
        )
        run = run_index(run.pk)
        assert run.status == IndexRun.Status.READY, run.error
        repository = Repository.objects.get(pk=run.repository_id)
        try:
            yield repository
        finally:
            delete_repository(repository)
            user.delete()


def session_cookie(client, user) -> str:
    client.login(username=user.username, password=PASSWORD)
    return client.cookies["sessionid"].value


class SharedLayer(BaseChannelLayer):
    """Stands in for a layer shared by several server processes (Redis): the
    in-memory layer's behaviour, without being the in-memory layer."""

    extensions = ["groups", "flush"]

    def __init__(self, **kwargs) -> None:
        super().__init__()
        self.inner = InMemoryChannelLayer()

    async def send(self, channel, message):
        await self.inner.send(channel, message)

    async def receive(self, channel):
        return await self.inner.receive(channel)

    async def new_channel(self, prefix="specific."):
        return await self.inner.new_channel(prefix)

    async def group_add(self, group, channel):
        await self.inner.group_add(group, channel)

    async def group_discard(self, group, channel):
        await self.inner.group_discard(group, channel)

    async def group_send(self, group, message):
        await self.inner.group_send(group, message)

    async def flush(self):
        await self.inner.flush()


@pytest.fixture
def shared_layer(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "tests.chat.conftest.SharedLayer"}}


@pytest.fixture
def owner_cookie(client, owner) -> str:
    return session_cookie(client, owner)


@pytest.fixture
def owner_chat(owner) -> ChatSession:
    return ChatSession.objects.create(owner=owner, title="Questions")


def socket(session_id: int, cookie: str | None = None, query: str = "") -> WebsocketCommunicator:
    headers = [(b"origin", b"http://localhost")]
    if cookie:
        headers.append((b"cookie", f"sessionid={cookie}".encode()))
    return WebsocketCommunicator(application, f"/ws/chats/{session_id}/{query}", headers=headers)


def token_deltas(frame: str) -> list[str]:
    """The text deltas in one websocket message (several frames may share one)."""
    return [html.unescape(match.group(3)) for match in TOKEN_FRAME.finditer(frame)]


def token_text(frame: str) -> str | None:
    deltas = token_deltas(frame)
    return "".join(deltas) if deltas else None


DONE_FRAME = re.compile(r'<article id="msg-(\d+)" class="msg msg-assistant[^"]*"[^>]*hx-swap-oob="true"')


def is_done(frame: str) -> bool:
    return DONE_FRAME.search(frame) is not None


async def frames_until_done(communicator: WebsocketCommunicator, timeout: float = 10.0) -> list[str]:
    frames: list[str] = []
    while True:
        frame = await communicator.receive_from(timeout=timeout)
        frames.append(frame)
        if is_done(frame):
            return frames


async def stored_answer(message_id: int, timeout: float = 10.0) -> Message:
    """The answer once its run has finished and stored its final state."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        message = await Message.objects.aget(pk=message_id)
        if message.status != Message.Status.STREAMING and not any(
            g.message_id == message_id for g in REGISTRY.running()
        ):
            return message
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"answer {message_id} still {message.status} after {timeout} s")
        await asyncio.sleep(0.02)




@pytest.fixture(autouse=True)
async def close_connections_of_the_sync_thread():
    """The async ORM keeps a connection open in asgiref's sync thread; close it so
    the test database can be dropped at the end of the run."""
    yield
    await sync_to_async(connections.close_all)()


__all__ = ["Reply", "fake_llm_server", "fake_openai"]

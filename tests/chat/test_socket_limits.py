"""Limits of the chat websocket that hold across chats and server processes."""

from __future__ import annotations

import asyncio
import base64
import errno
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import time

import pytest

from chat import user_errors
from chat.models import ChatSession, Message
from tests.chat.conftest import Reply, frames_until_done, session_cookie
from tests.chat.conftest import socket as chat_socket
from tests.conftest import ROOT, product_process_env

pytestmark = pytest.mark.django_db(transaction=True)



async def test_questions_sent_at_once_in_several_chats_start_no_more_answers_than_the_cap(
    fake_openai, owner, owner_cookie, settings
):
    settings.CHAT = {**settings.CHAT, "MAX_RUNNING_GENERATIONS": 2}
    fake_openai.script(*[Reply.text("long " * 200, chunk_size=5, interval=0.01)] * 5)
    chats = [await ChatSession.objects.acreate(owner=owner, title=f"Chat {i}") for i in range(5)]
    sockets = [chat_socket(chat.pk, owner_cookie) for chat in chats]
    for communicator in sockets:
        await communicator.connect()

    await asyncio.gather(*(c.send_json_to({"action": "send", "text": f"question {i}"}) for i, c in enumerate(sockets)))
    replies = [await c.receive_from(timeout=10) for c in sockets]

    refused = [reply for reply in replies if "answers being written" in reply]
    assert len(refused) == 3
    assert await Message.objects.filter(session__owner=owner, role="assistant").acount() == 2
    for communicator in sockets:
        await communicator.send_json_to({"action": "stop"})
    for communicator, reply in zip(sockets, replies):
        if reply not in refused:
            await frames_until_done(communicator)
        await communicator.disconnect()


async def test_an_answer_written_by_another_server_process_counts_toward_the_cap(
    fake_openai, owner, owner_chat, owner_cookie, settings
):
    settings.CHAT = {**settings.CHAT, "MAX_RUNNING_GENERATIONS": 1}
    elsewhere = await ChatSession.objects.acreate(owner=owner, title="Served by another process")
    await Message.objects.acreate(session=elsewhere, role="assistant", status=Message.Status.STREAMING, content="so far")
    communicator = chat_socket(owner_chat.pk, owner_cookie)
    await communicator.connect()

    await communicator.send_json_to({"action": "send", "text": "one more"})

    assert "already have 1 answers being written" in await communicator.receive_from(timeout=5)
    assert await Message.objects.filter(session=owner_chat).acount() == 0
    await communicator.disconnect()


async def test_a_message_too_long_for_any_question_is_refused_before_it_is_parsed(owner_chat, owner_cookie, settings):
    settings.CHAT = {**settings.CHAT, "MAX_MESSAGE_CHARS": 100}
    communicator = chat_socket(owner_chat.pk, owner_cookie)
    await communicator.connect()

    await communicator.send_to(text_data="[" * 5000)

    assert user_errors.SOCKET_MESSAGE_TOO_LONG in await communicator.receive_from(timeout=5)
    await communicator.disconnect()


async def test_messages_past_the_rate_are_dropped_with_one_notice(owner_chat, owner_cookie, settings):
    settings.CHAT = {**settings.CHAT, "SOCKET_MESSAGES_PER_SECOND": 0.1, "SOCKET_MESSAGE_BURST": 3}
    communicator = chat_socket(owner_chat.pk, owner_cookie)
    await communicator.connect()

    for _ in range(8):
        await communicator.send_json_to({"action": "dance"})
    replies = []
    while not await communicator.receive_nothing(timeout=0.5):
        replies.append(await communicator.receive_from())

    assert sum(user_errors.UNKNOWN_ACTION in reply for reply in replies) == 3
    assert sum(user_errors.TOO_MANY_SOCKET_MESSAGES in reply for reply in replies) == 1
    await communicator.disconnect()


# --- a client that never reads, against the real web server ------------------------------------------


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _client_frame(text: str) -> bytes:
    """A masked websocket text frame, as a client sends it."""
    payload = text.encode()
    mask = os.urandom(4)
    length = len(payload)
    header = bytes([0x81]) + (
        bytes([0x80 | length]) if length < 126
        else bytes([0x80 | 126]) + struct.pack(">H", length) if length < 65536
        else bytes([0x80 | 127]) + struct.pack(">Q", length)
    )
    return header + mask + bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))


def _wait_for_port(port: int, web: subprocess.Popen) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if web.poll() is not None:
            raise AssertionError(f"the web server exited: {web.stdout.read()}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the web server did not start")


def test_a_client_that_never_reads_is_dropped_once_its_unread_frames_pass_the_limit(client, owner, owner_chat):
    cookie = session_cookie(client, owner)
    port = _free_port()
    env = product_process_env() | {
        "CHAT_SOCKET_MAX_UNREAD_BYTES": str(64 * 1024),
        "CHAT_SOCKET_MESSAGES_PER_SECOND": "1000", "CHAT_SOCKET_MESSAGE_BURST": "1000",
    }
    web = subprocess.Popen(
        [sys.executable, "-m", "agentsite.web_server", "-b", "127.0.0.1", "-p", str(port),
         # No pings in the test's minute: only the limit may close the socket.
         "--ping-interval", "3600", "agentsite.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    sock = socket.socket()
    try:
        _wait_for_port(port, web)
        # A small receive window, so the server's socket fills after a few frames.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.sendall(
            f"GET /ws/chats/{owner_chat.pk}/ HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\nCookie: sessionid={cookie}\r\n\r\n".encode()
        )
        handshake = b""
        while b"\r\n\r\n" not in handshake:
            handshake += sock.recv(1)
        assert handshake.startswith(b"HTTP/1.1 101")

        # Each question one character too long comes back whole in its refusal (to be put back in the input):
        # 400 of them are about 8 MB of frames, more than the kernel's buffers hold.
        question = _client_frame(json.dumps({"action": "send", "text": "x" * 20_001}))
        sent, error = 0, 0
        try:
            for sent in range(1, 401):
                sock.sendall(question)
        except OSError as exc:
            error = exc.errno  # dropped while we were still sending
        # Not a byte read: the server's socket fills, then what it sends waits in its memory until it
        # passes the limit and the connection is dropped (a reset, seen here as the socket's error).
        deadline = time.monotonic() + 60
        while not error:
            if time.monotonic() > deadline:
                raise AssertionError(f"still open a minute after {sent} questions, none of their replies read")
            time.sleep(0.2)
            error = sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
    finally:
        sock.close()
        web.send_signal(signal.SIGTERM)
        output = web.communicate(timeout=15)[0]

    assert error in (errno.ECONNRESET, errno.EPIPE)
    assert "unread behind a full socket" in output

"""The web server killed with -9 in the middle of an answer, against a real daphne process.

What the page had received a flush interval before the kill is stored; after a
restart the chat page shows the text so far and says the answer was interrupted.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import aiohttp
import pytest

from chat import user_errors
from chat.models import ChatSession, Message
from tests.chat.conftest import TOKEN_FRAME, session_cookie
from tests.conftest import ROOT, product_process_env
from tests.llm.fakes import FakeProviderServer, Reply

pytestmark = pytest.mark.django_db(transaction=True)

FLUSH_SECONDS = 0.2
ANSWER = "".join(f"word{index} " for index in range(600))


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _start_web(port: int, fake: FakeProviderServer) -> subprocess.Popen:
    env = product_process_env() | fake.env("openai")
    env.update(CHAT_FLUSH_SECONDS=str(FLUSH_SECONDS), CHAT_ANSWER_HEARTBEAT_SECONDS="0.5")
    proc = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "agentsite.asgi:application"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return proc
        except urllib.error.HTTPError:
            return proc  # answering (503 without a worker is fine here)
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError("the web server did not start")


async def _receive_until_killed(port: int, chat_id: int, cookie: str, web: subprocess.Popen) -> tuple[list, float]:
    """Ask, collect (time, text so far) as tokens arrive, kill the server after a second of streaming."""
    received: list[tuple[float, str]] = []
    text = ""
    headers = {"Cookie": f"sessionid={cookie}", "Origin": f"http://127.0.0.1:{port}"}
    async with (
        aiohttp.ClientSession() as http,
        http.ws_connect(f"ws://127.0.0.1:{port}/ws/chats/{chat_id}/", headers=headers) as ws,
    ):
        await ws.send_str(json.dumps({"action": "send", "text": "tell me"}))
        first = None
        while True:
            message = await ws.receive_str(timeout=20)
            for match in TOKEN_FRAME.finditer(message):
                text += html.unescape(match.group(3))
            if text:
                now = time.monotonic()
                received.append((now, text))
                first = first or now
                if now - first > 1.0:
                    break
        killed_at = time.monotonic()
        web.send_signal(signal.SIGKILL)
        web.wait()
    return received, killed_at


def test_a_killed_web_server_keeps_the_text_so_far_and_the_page_says_it_was_interrupted(client, owner, fake_llm_server):
    fake_llm_server.script(Reply.text(ANSWER, chunk_size=6, interval=0.01))
    chat = ChatSession.objects.create(owner=owner, title="Questions")
    cookie = session_cookie(client, owner)
    port = _free_port()
    web = _start_web(port, fake_llm_server)
    try:
        received, killed_at = asyncio.run(_receive_until_killed(port, chat.pk, cookie, web))
    finally:
        if web.poll() is None:
            web.kill()
            web.wait()

    answer = Message.objects.filter(session=chat, role="assistant").latest("id")
    assert answer.status == Message.Status.STREAMING
    assert ANSWER.startswith(answer.content)
    # What the page had a flush interval (and one more for the store itself) before the kill is stored.
    seen_earlier = [text for at, text in received if at <= killed_at - 2 * FLUSH_SECONDS]
    assert seen_earlier and len(answer.content) >= len(seen_earlier[-1])
    assert len(answer.content) < len(ANSWER)

    web = _start_web(port, fake_llm_server)
    try:
        time.sleep(3 * 0.5 + 0.5)  # the answer's heartbeat is now overdue
        request = urllib.request.Request(f"http://127.0.0.1:{port}/chats/{chat.pk}/", headers={"Cookie": f"sessionid={cookie}"})
        with urllib.request.urlopen(request, timeout=10) as response:
            page = html.unescape(response.read().decode())
    finally:
        web.send_signal(signal.SIGTERM)
        web.wait(timeout=15)

    answer.refresh_from_db()
    assert (answer.status, answer.error) == (Message.Status.ERROR, user_errors.INTERRUPTED)
    assert user_errors.INTERRUPTED in page
    assert re.sub(r"\s+", " ", answer.content.strip())[:40] in re.sub(r"\s+", " ", page)

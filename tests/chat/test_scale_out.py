"""Several server processes behind one site: two web processes, one PostgreSQL, Redis for the channel layer.

Each web process runs as ``serve`` runs it (``agentsite.web_server``) with
``REDIS_URL`` set; the pages are real websocket clients (aiohttp). The model
is the local fake server streaming slowly, so an answer is still being
written while the other process's page follows it.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import time
from collections.abc import Iterator

import aiohttp
import pytest
import redis
from channels_redis.core import RedisChannelLayer

from chat import user_errors
from chat.models import ChatSession, Message
from chat.streams import WHO_SECONDS
from agentsite import web_process
from tests.conftest import product_process_env, start_web_process, stop_processes
from tests.llm.fakes import FakeProviderServer, Reply, fake_llm_server  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)

REDIS_SERVER = "/usr/bin/redis-server"
STORY = "word " * 2000


@pytest.fixture
def redis_url() -> Iterator[str]:
    if not shutil.which(REDIS_SERVER):
        pytest.fail(f"{REDIS_SERVER} is missing: apt-get install -y redis-server (make test does it)")
    port = web_process.free_port()
    proc = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 10
    while b"Ready to accept connections" not in (line := proc.stdout.readline()):
        if not line or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("redis-server did not start")
    yield f"redis://127.0.0.1:{port}/0"
    proc.terminate()
    proc.wait(timeout=10)


@pytest.fixture
def two_processes(redis_url: str, fake_llm_server: FakeProviderServer) -> Iterator[tuple[str, str]]:  # noqa: F811
    def reply(request) -> Reply:
        if "response_format" in (request.json or {}):
            return Reply.text('{"intent": "general"}', usage=(0, 0))
        # Ten frames a second: every page of the chat, on either process, receives each one through Redis.
        return Reply.text(STORY, chunk_size=5, interval=0.1)

    fake_llm_server.fallback = reply
    env = product_process_env() | fake_llm_server.env("openai") | {
        "REDIS_URL": redis_url,
        "CHAT_FLUSH_SECONDS": "0.2",
        "CHAT_MAX_RUNNING_GENERATIONS": "1",
    }
    first, first_url = start_web_process(env)
    try:
        second, second_url = start_web_process(env)
    except BaseException:
        stop_processes(first)
        raise
    yield first_url, second_url
    stop_processes(first, second)


async def test_the_channel_layer_waits_on_an_idle_channel_past_its_blocking_pop(redis_url, settings):
    layer = RedisChannelLayer(hosts=[{"address": redis_url, **settings.REDIS_CHANNEL_HOST_OPTIONS}])
    channel = await layer.new_channel()
    # Each page's consumer waits so between messages; redis-py's default socket timeout failed the wait.
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(channel), RedisChannelLayer.brpop_timeout + 2)
    await layer.flush()


def connect(http: aiohttp.ClientSession, site: str, chat: ChatSession, cookie: str, query: str = ""):
    url = site.replace("http://", "ws://") + f"/ws/chats/{chat.pk}/{query}"
    return http.ws_connect(url, headers={"Origin": site, "Cookie": f"sessionid={cookie}"})


async def receive_until(socket, condition, timeout: float = 20.0) -> str:
    """The websocket messages received until one satisfies ``condition``, joined."""
    seen: list[str] = []
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            raise AssertionError(f"nothing matched within {timeout} s; received: {''.join(seen)[-2000:]}")
        message = await socket.receive(timeout=left)
        if message.type != aiohttp.WSMsgType.TEXT:
            raise AssertionError(f"the socket ended: {message}")
        seen.append(message.data)
        if condition(message.data):
            return "".join(seen)


async def receive_for(socket, seconds: float) -> str:
    """The websocket messages received within ``seconds``, joined."""
    seen: list[str] = []
    deadline = asyncio.get_running_loop().time() + seconds
    while (left := deadline - asyncio.get_running_loop().time()) > 0:
        try:
            message = await socket.receive(timeout=left)
        except asyncio.TimeoutError:
            break
        if message.type != aiohttp.WSMsgType.TEXT:
            raise AssertionError(f"the socket ended: {message}")
        seen.append(message.data)
    return "".join(seen)


async def drain(socket) -> None:
    """Read and drop what the socket receives until it closes."""
    while (await socket.receive()).type == aiohttp.WSMsgType.TEXT:
        pass


async def streaming_answer(chat: ChatSession, timeout: float = 20.0) -> Message:
    """The chat's answer once some of its text has been stored."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        answer = await Message.objects.filter(session=chat, role="assistant").afirst()
        if answer is not None and answer.content:
            return answer
        await asyncio.sleep(0.05)
    raise AssertionError("no answer text was stored")


async def final_status(answer: Message, timeout: float = 20.0) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        await answer.arefresh_from_db()
        if answer.status in Message.FINAL_STATUSES:
            return answer.status
        await asyncio.sleep(0.05)
    raise AssertionError(f"the answer is still {answer.status}")


async def test_a_page_on_another_process_joins_follows_and_stops_an_answer(owner, owner_cookie, two_processes):
    first, second = two_processes
    cookie = owner_cookie
    chat = await ChatSession.objects.acreate(owner=owner, title="Story")

    async with aiohttp.ClientSession() as http:
        async with connect(http, first, chat, cookie) as writer:
            await writer.send_str(json.dumps({"action": "send", "text": "Tell me a long story"}))
            # The asking page reads its frames, as a browser does (a page that never reads is dropped).
            reading = asyncio.create_task(drain(writer))
            answer = await streaming_answer(chat)
            async with connect(http, second, chat, cookie, f"?watch={answer.pk}") as follower:
                # Joined mid-answer: the text so far, then the deltas written by the other process.
                joined = await receive_until(follower, lambda data: f"msg-{answer.pk}" in data and "word" in data)
                followed = await receive_until(follower, lambda data: "word" in data)
                await follower.send_str(json.dumps({"action": "stop"}))
                status = await final_status(answer)
                closing = await receive_until(follower, lambda data: f'id="msg-{answer.pk}"' in data and "streaming" not in data)
            reading.cancel()

    assert f"msg-{answer.pk}" in joined and "word" in followed
    assert status == Message.Status.CANCELLED
    assert f'id="msg-{answer.pk}"' in closing
    stored = await Message.objects.aget(pk=answer.pk)
    assert 0 < stored.content.count("word") < STORY.count("word")


async def test_a_page_on_another_process_stops_an_answer_whose_asking_page_is_gone(owner, owner_cookie, two_processes):
    first, second = two_processes
    chat = await ChatSession.objects.acreate(owner=owner, title="Story")

    async with aiohttp.ClientSession() as http:
        async with connect(http, first, chat, owner_cookie) as writer:
            await writer.send_str(json.dumps({"action": "send", "text": "Tell me a long story"}))
            answer = await streaming_answer(chat)
        # The asking page is closed (a reload that the site's balancer sends to the other process):
        # the first process has no page of the chat, and still writes its answer.
        async with connect(http, second, chat, owner_cookie, f"?watch={answer.pk}") as page:
            await receive_until(page, lambda data: "word" in data)
            await page.send_str(json.dumps({"action": "stop"}))
            status = await final_status(answer)

    assert status == Message.Status.CANCELLED


def group_sends(redis_url: str) -> int:
    """The channel layer's group sends the Redis server has run: each reads its group's members once (ZRANGE)."""
    stats = redis.Redis.from_url(redis_url).info("commandstats")
    return stats.get("cmdstat_zrange", {}).get("calls", 0)


async def test_an_answers_frames_go_through_redis_only_while_another_process_shows_its_chat(
    owner, owner_cookie, two_processes, redis_url
):
    first, second = two_processes
    chat = await ChatSession.objects.acreate(owner=owner, title="Story")

    async with aiohttp.ClientSession() as http:
        async with connect(http, first, chat, owner_cookie) as writer:
            reading = asyncio.create_task(drain(writer))
            await writer.send_str(json.dumps({"action": "send", "text": "Tell me a long story"}))
            answer = await streaming_answer(chat)
            # Past the time the answer waits for the other processes to say whether they show the chat.
            await asyncio.sleep(WHO_SECONDS)
            before = group_sends(redis_url)
            await asyncio.sleep(1)
            alone = group_sends(redis_url) - before
            async with connect(http, second, chat, owner_cookie, f"?watch={answer.pk}") as follower:
                before = group_sends(redis_url)
                followed = await receive_for(follower, 1.0)
                shown = group_sends(redis_url) - before
            await writer.send_str(json.dumps({"action": "stop"}))
            status = await final_status(answer)
            reading.cancel()

    # Ten frames a second: none through Redis while only the writing process shows the chat.
    assert alone == 0
    assert shown >= 3 and "word" in followed
    # The stored text (the second process's catch-up), then the answer so far from the writing process.
    assert followed.count(f"#msg-{answer.pk}-rendered") == 2
    assert status == Message.Status.CANCELLED


async def test_the_per_user_cap_on_running_answers_holds_across_processes(owner, owner_cookie, two_processes):
    first, second = two_processes
    cookie = owner_cookie
    running_chat = await ChatSession.objects.acreate(owner=owner, title="Running")
    other_chat = await ChatSession.objects.acreate(owner=owner, title="Other")

    async with aiohttp.ClientSession() as http:
        async with connect(http, first, running_chat, cookie) as writer, connect(http, second, other_chat, cookie) as other:
            await writer.send_str(json.dumps({"action": "send", "text": "Tell me a long story"}))
            answer = await streaming_answer(running_chat)
            await other.send_str(json.dumps({"action": "send", "text": "And another one"}))
            refused = await receive_until(other, lambda data: "answers being written" in data)
            await writer.send_str(json.dumps({"action": "stop"}))
            await final_status(answer)

    assert user_errors.TOO_MANY_GENERATIONS.format(limit=1).split(".")[0] in refused
    assert not await Message.objects.filter(session=other_chat, role="assistant").aexists()

"""The chat under load: N concurrent websocket chats against one server process.

The fake model server (``llm.benchmarks.fake_server``, on 127.0.0.1, in its
own thread) routes every question to ``general`` (by default the chats have a
repository, never indexed, so the model is asked; a chat without one is routed
by keywords, one model call fewer: ``repository=False``) and streams each answer as
numbered tokens at a set rate after a set time to first token. The server under test is
a real daphne process on this database, pointed at that model. Each chat is a
websocket client that sends one question and reads frames until its answer is
done. All clocks are ``perf_counter`` (CLOCK_MONOTONIC, shared by processes).

Figures: delivered tokens per second; dropped frames (tokens the model sent
that never reached the page, or arrived out of order: must be 0); time to
first token as the page sees it, as the model produced it, and the server's
added part (page minus model), p50 and p95; and the server's CPU time per
delivered token, which moves much less than latency when other work shares the
machine.

On a machine with two or more CPUs the server process is pinned to one CPU and
this process (the clients and the scripted model) to the others, so the load
generator never takes the server's core; so is the embedded PostgreSQL (its
background work, autovacuum and checkpoints, would otherwise take the
server's core at random moments). A server at ``DATABASE_URL`` is not touched.
"""

from __future__ import annotations

import asyncio
import html
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from urllib.parse import quote
from dataclasses import dataclass, field
from pathlib import Path

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

from chat.models import ChatSession, Message
from rag.models import Repository
from llm.benchmarks.fake_server import FakeProviderServer, RecordedRequest, Reply
from llm.benchmarks.percentiles import percentile
from llm.models import LLMCall

TOKEN_FRAME = re.compile(r'<span hx-swap-oob="beforeend:#msg-\d+-body">(.*?)</span>', re.S)
DONE_FRAME = re.compile(r'<article id="msg-\d+" class="msg msg-assistant[^"]*"[^>]*hx-swap-oob="true"')
QUESTION = re.compile(r"load chat (\d+)")
# One of the model's numbered tokens (``token``); a frame's delta may carry several.
TOKEN = re.compile(r"t\d+ ")
# The question of the warm-up chat, answered with one token.
WARM_UP = "warm up"
LOAD_USERNAME = "chat-load-bench"
LOAD_REPOSITORY = "chat-load-bench repository"


def token(index: int) -> str:
    return f"t{index} "


@dataclass
class ModelStream:
    arrived: float
    # Wall-clock time (``time.time``) of the arrival, to line it up with the server's timestamps.
    arrived_wall: float = 0.0
    first_sent: float | None = None


def scripted_model(*, tokens: int, rate: float, first_token_delay: float) -> FakeProviderServer:
    """The fake model server answering as the load's model, started.

    Every router call (the structured-output call) gets ``general``; every
    answer is ``tokens`` numbered tokens, ``rate`` per second, the first one
    ``first_token_delay`` after the call arrived (the role's payload leads it
    by one interval).
    """
    interval = 1.0 / rate
    model = FakeProviderServer()
    model.backlog = 1024

    def answer(request: RecordedRequest) -> Reply:
        if "response_format" in (request.json or {}):
            return Reply.text('{"intent": "general"}', chunk_size=64)
        count = 1 if WARM_UP in request.last_user_text else tokens
        pieces = [token(index) for index in range(count)]
        return Reply.stream(pieces, interval=interval, delay=max(0.0, first_token_delay - interval), usage=(10, count))

    model.fallback = answer
    return model.start()


def model_streams(model: FakeProviderServer) -> tuple[dict[int, ModelStream], dict[int, float]]:
    """Each chat's answer call as the model served it, and when its router call arrived (wall clock)."""
    answers: dict[int, ModelStream] = {}
    routed: dict[int, float] = {}
    for request in model.chat_requests:
        match = QUESTION.search(request.last_user_text)
        if match is None:
            continue
        index = int(match.group(1))
        if "response_format" in (request.json or {}):
            routed.setdefault(index, request.received_wall)
        else:
            # The stream's first payload names the role; the first token follows.
            first_sent = request.sent_at[1] if len(request.sent_at) > 1 else None
            answers[index] = ModelStream(arrived=request.received_at, arrived_wall=request.received_wall, first_sent=first_sent)
    return answers, routed


@dataclass
class ChatResult:
    index: int
    sent_at: float = 0.0
    sent_wall: float = 0.0
    first_token_at: float | None = None
    done_at: float | None = None
    tokens: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


# Handshakes in flight at once: a burst of hundreds overflows the listen
# backlog, which is about connecting, not about chatting under load.
CONNECTS_AT_ONCE = 25


@dataclass
class Start:
    """All chats open their sockets first; then chat ``i`` asks ``i * spacing``
    seconds after the go (0: all at once)."""

    connected: int
    total: int
    go: asyncio.Event
    gate: asyncio.Semaphore
    spacing: float = 0.0

    def arrived(self) -> None:
        self.connected += 1
        if self.connected == self.total:
            self.go.set()


async def _chat(client, url: str, headers: dict[str, str], index: int, timeout: float, start: Start) -> ChatResult:
    import aiohttp

    result = ChatResult(index=index)
    try:
        async with start.gate:
            ws = await client.ws_connect(url, headers=headers, max_msg_size=0)
    except (aiohttp.ClientError, OSError) as exc:
        result.errors.append(f"could not connect: {exc}")
        start.arrived()
        return result
    try:
        start.arrived()
        await start.go.wait()
        await asyncio.sleep(index * start.spacing)
        result.sent_at, result.sent_wall = time.perf_counter(), time.time()
        await ws.send_json({"action": "send", "text": f"load chat {index}: stream your answer"})
        deadline = result.sent_at + timeout
        while True:
            message = await ws.receive(timeout=max(0.1, deadline - time.perf_counter()))
            if message.type != aiohttp.WSMsgType.TEXT:
                result.errors.append(f"socket ended: {message.type}")
                return result
            frame = message.data
            deltas = TOKEN_FRAME.findall(frame)
            if deltas and result.first_token_at is None:
                result.first_token_at = time.perf_counter()
            result.tokens.extend(TOKEN.findall(html.unescape("".join(deltas))))
            if "notice-error" in frame:
                result.errors.append(re.sub(r"<[^>]+>", "", frame).strip())
            if DONE_FRAME.search(frame):
                result.done_at = time.perf_counter()
                return result
    except (TimeoutError, asyncio.TimeoutError):
        result.errors.append("timed out")
    finally:
        await ws.close()
    return result


async def _warm_up(client, url: str, headers: dict[str, str], timeout: float) -> None:
    """One question through the whole path before the measured chats: a fresh server process
    pays its imports, first connections and prompt loads once (about 200 ms), which a
    server that has been running does not add to a question."""
    import aiohttp

    ws = await client.ws_connect(url, headers=headers, max_msg_size=0)
    try:
        await ws.send_json({"action": "send", "text": WARM_UP})
        deadline = time.perf_counter() + timeout
        while True:
            message = await ws.receive(timeout=max(0.1, deadline - time.perf_counter()))
            if message.type != aiohttp.WSMsgType.TEXT:
                raise RuntimeError(f"the warm-up chat ended without its answer: {message.type}")
            if DONE_FRAME.search(message.data):
                return
    finally:
        await ws.close()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _database_url_env(conn_max_age: int) -> dict[str, str]:
    """The same database as an explicit URL, so the server process keeps its connections."""
    db = connection.settings_dict
    host = db["HOST"]
    if host.startswith("/"):
        url = f"postgres://{quote(db['USER'])}@/{db['NAME']}?host={quote(host, safe='')}"
    else:
        url = f"postgres://{quote(db['USER'])}:{quote(db.get('PASSWORD') or '')}@{host}:{db.get('PORT') or 5432}/{db['NAME']}"
    return {"DATABASE_URL": url, "DATABASE_CONN_MAX_AGE": str(conn_max_age)}


def _postgres_pids() -> list[int]:
    """The embedded PostgreSQL's postmaster and its children (Linux ``/proc``); empty for one at ``DATABASE_URL``."""
    server = getattr(settings, "EMBEDDED_POSTGRES", None)
    if server is None:
        return []
    try:
        postmaster = int((server.pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return []
    pids = [postmaster]
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if parent == postmaster:
            pids.append(int(entry.name))
    return pids


def _pin(pids: list[int], cpus: set[int] | frozenset[int]) -> None:
    """Move running processes to ``cpus``; new backends fork from the postmaster and inherit it."""
    for pid in pids:
        try:
            os.sched_setaffinity(pid, cpus)
        except OSError:
            # Gone since it was listed, or not ours to move.
            pass


def _cpu_seconds(pid: int) -> float | None:
    """User plus system CPU time a process has used so far (Linux ``/proc``); None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None
    # utime and stime are fields 14 and 15 of the line; 12 and 13 after the command name.
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class CpuSplit:
    """Which CPUs the server and the load generator (this process) run on; empty: not pinned."""

    server: frozenset[int] = frozenset()
    load: frozenset[int] = frozenset()

    @classmethod
    def plan(cls, pin: bool) -> CpuSplit:
        if not pin or not hasattr(os, "sched_getaffinity"):
            return cls()
        cpus = sorted(os.sched_getaffinity(0))
        if len(cpus) < 2:
            return cls()
        return cls(server=frozenset(cpus[:1]), load=frozenset(cpus[1:]))

    def describe(self) -> str:
        if not self.server:
            return "not pinned"
        return (
            f"server on CPU {','.join(map(str, sorted(self.server)))}, clients, model and embedded "
            f"PostgreSQL on CPU {','.join(map(str, sorted(self.load)))}"
        )


def _start_server(port: int, model: FakeProviderServer, chats: int, conn_max_age: int, cpus: frozenset[int] = frozenset()) -> subprocess.Popen:
    env = dict(os.environ)
    if conn_max_age:
        env.update(_database_url_env(conn_max_age))
    env.update(
        AGENTSITE_DB_NAME=connection.settings_dict["NAME"],
        DJANGO_SETTINGS_MODULE="agentsite.settings",
        LLM_PROVIDER="openai",
        OPENAI_BASE_URL=model.openai_base_url,
        OPENAI_API_KEY="load-bench",
        CHAT_MAX_RUNNING_GENERATIONS=str(chats + 1),
        LOG_LEVEL="warning",
    )
    command = [sys.executable, "-m", "agentsite.web_server", "-b", "127.0.0.1", "-p", str(port), "agentsite.asgi:application"]
    pin = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    # A file, not a pipe: a pipe nobody reads during the run would stop the server once full.
    log = tempfile.TemporaryFile("w+")
    proc = subprocess.Popen(command, cwd=Path(settings.BASE_DIR), env=env, stdout=subprocess.DEVNULL, stderr=log, text=True, preexec_fn=pin)
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            log.seek(0)
            raise RuntimeError(f"the server exited: {log.read()[-4000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=2):
                return proc
        except OSError:
            if time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("the server did not answer within 60 s") from None
            time.sleep(0.1)


def _stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _login_cookie(user) -> str:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key


@dataclass
class LoadReport:
    chats: int
    tokens: int
    rate: float
    first_token_delay: float
    ramp: float
    conn_max_age: int
    cpus: CpuSplit
    load_average: float
    wall_s: float
    # CPU time the server process used between the first question and the last answer (None: unknown).
    server_cpu_s: float | None
    # CPU time of this process (the clients and the scripted model) over the same span.
    load_cpu_s: float
    delivered: int
    dropped: int
    out_of_order: int
    failed_chats: list[str]
    stored_complete: int
    page_ttft_ms: list[float]
    model_ttft_ms: list[float]
    added_ttft_ms: list[float]
    added_phases_ms: dict[str, list[float]] = field(default_factory=dict)
    # Whether the chats had a repository (the model routed each question) or not (keywords did).
    with_repository: bool = True

    @property
    def tokens_per_s(self) -> float:
        return self.delivered / self.wall_s if self.wall_s else 0.0

    @property
    def scheduled_tokens_per_s(self) -> float:
        """The most a run can deliver: every token on the model's schedule, the last question
        asked at the end of the ramp, the last answer taking TTFT plus ``tokens / rate``."""
        last_question = self.ramp * (self.chats - 1) / self.chats
        return self.chats * self.tokens / (last_question + self.first_token_delay + self.tokens / self.rate)


# Where the server-added TTFT goes, in order: the question reaches the server and
# is stored with its empty answer (consumer, the database thread's queue); the
# answer task starts and the router's model call goes out (conversation manager,
# agent graph, prompt lookup); the router's answer comes back and the answering
# call goes out (its audit row, the next prompt lookup); the model's first chunk
# reaches the page (HTTP read, SSE parsing, graph and manager hops, relay, websocket).
# A chat without a repository makes no router call: its answering call follows the stored question.
PHASES = ("question stored", "to the router call", "router call to answer call", "to the answer call", "first chunk to page")


def run_load(
    *,
    chats: int,
    tokens: int,
    rate: float,
    first_token_delay: float = 0.2,
    ramp: float = 0.0,
    conn_max_age: int = 0,
    pin: bool = True,
    timeout: float = 120.0,
    repository: bool = True,
) -> LoadReport:
    """Run the load against a fresh server process; the chats it creates are deleted afterwards.

    Questions are spread evenly over ``ramp`` seconds (0: all at once); with
    answers longer than the ramp, every chat streams at the same time once the
    last one has asked. ``conn_max_age`` > 0 starts the server with persistent database connections
    (through ``DATABASE_URL``); 0 keeps the product's default. ``pin`` splits the CPUs
    between the server and this process (``CpuSplit``). One warm-up chat asks first and is
    not counted (``_warm_up``).
    """
    import aiohttp

    user, _ = get_user_model().objects.get_or_create(username=LOAD_USERNAME)
    # With a repository (never indexed) the model routes every question as it routes a team's; a chat
    # without one is routed by keywords alone, one model call fewer.
    attached = Repository.objects.get_or_create(owner=user, name=LOAD_REPOSITORY)[0] if repository else None
    sessions = [ChatSession.objects.create(owner=user, title=f"load chat {i}", repository=attached) for i in range(chats)]
    warm = ChatSession.objects.create(owner=user, title="load warm-up", repository=attached)
    cookie = _login_cookie(user)
    cpus = CpuSplit.plan(pin)
    previous_cpus = os.sched_getaffinity(0) if cpus.load else None
    postgres = _postgres_pids() if cpus.load else []
    if cpus.load:
        # Before the model's thread starts, so it inherits the CPUs.
        os.sched_setaffinity(0, cpus.load)
        _pin(postgres, cpus.load)
    load_average = os.getloadavg()[0]
    model = scripted_model(tokens=tokens, rate=rate, first_token_delay=first_token_delay)
    port = _free_port()
    server = _start_server(port, model, chats, conn_max_age, cpus.server)
    origin = f"http://127.0.0.1:{port}"
    headers = {"Origin": origin, "Cookie": f"sessionid={cookie}"}

    async def all_chats() -> tuple[list[ChatResult], float]:
        connector = aiohttp.TCPConnector(limit=0)
        start = Start(
            connected=0, total=chats, go=asyncio.Event(), gate=asyncio.Semaphore(CONNECTS_AT_ONCE), spacing=ramp / chats
        )
        async with aiohttp.ClientSession(connector=connector) as client:
            await _warm_up(client, f"ws://127.0.0.1:{port}/ws/chats/{warm.pk}/", headers, timeout)
            tasks = [
                asyncio.ensure_future(_chat(client, f"ws://127.0.0.1:{port}/ws/chats/{s.pk}/", headers, i, timeout, start))
                for i, s in enumerate(sessions)
            ]
            await start.go.wait()
            started, own_before = time.perf_counter(), time.process_time()
            cpu_before = _cpu_seconds(server.pid)
            results = await asyncio.gather(*tasks)
            wall = time.perf_counter() - started
            cpu_after = _cpu_seconds(server.pid)
            cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
            return list(results), wall, cpu, time.process_time() - own_before

    try:
        results, wall, server_cpu, load_cpu = asyncio.run(all_chats())
        # The final state is stored before the done frame is sent; give the last writes a moment.
        time.sleep(0.2)
        answers = Message.objects.filter(session__in=sessions, role=Message.Role.ASSISTANT)
        expected_text = "".join(token(i) for i in range(tokens))
        stored_complete = answers.filter(status=Message.Status.COMPLETE, content=expected_text).count()
        answer_stored = {
            session_id: created.timestamp() for session_id, created in answers.values_list("session_id", "created_at")
        }
    finally:
        _stop_server(server)
        model.stop()
        if previous_cpus is not None:
            os.sched_setaffinity(0, previous_cpus)
            _pin(_postgres_pids(), previous_cpus)
        every = [*sessions, warm]
        correlation_ids = [f"message:{pk}" for pk in Message.objects.filter(session__in=every).values_list("pk", flat=True)]
        LLMCall.objects.filter(correlation_id__in=correlation_ids).delete()
        ChatSession.objects.filter(pk__in=[s.pk for s in every]).delete()
        SessionStore(session_key=cookie).delete()

    streams, routed_at = model_streams(model)
    expected = [token(i) for i in range(tokens)]
    delivered = sum(len(r.tokens) for r in results)
    dropped = sum(max(0, tokens - len(r.tokens)) for r in results)
    out_of_order = sum(1 for r in results if r.tokens != expected[: len(r.tokens)])
    page, model_ttft, added = [], [], []
    phases: dict[str, list[float]] = {name: [] for name in PHASES}
    for r in results:
        stream = streams.get(r.index)
        if r.first_token_at is None or stream is None or stream.first_sent is None:
            continue
        page_ms = (r.first_token_at - r.sent_at) * 1000
        model_ms = (stream.first_sent - stream.arrived) * 1000
        page.append(page_ms)
        model_ttft.append(model_ms)
        added.append(page_ms - model_ms)
        stored, routed = answer_stored.get(sessions[r.index].pk), routed_at.get(r.index)
        if stored is not None:
            # Wall clocks for the steps inside the server; each chat's phases add up to its added TTFT.
            phases["question stored"].append((stored - r.sent_wall) * 1000)
            if routed is not None:
                phases["to the router call"].append((routed - stored) * 1000)
                phases["router call to answer call"].append((stream.arrived_wall - routed) * 1000)
            else:
                phases["to the answer call"].append((stream.arrived_wall - stored) * 1000)
            phases["first chunk to page"].append((r.first_token_at - stream.first_sent) * 1000)
    return LoadReport(
        chats=chats,
        tokens=tokens,
        rate=rate,
        first_token_delay=first_token_delay,
        ramp=ramp,
        conn_max_age=conn_max_age,
        cpus=cpus,
        load_average=load_average,
        wall_s=wall,
        server_cpu_s=server_cpu,
        load_cpu_s=load_cpu,
        delivered=delivered,
        dropped=dropped,
        out_of_order=out_of_order,
        failed_chats=[f"chat {r.index}: {'; '.join(r.errors)}" for r in results if r.errors or r.done_at is None],
        stored_complete=stored_complete,
        page_ttft_ms=page,
        model_ttft_ms=model_ttft,
        added_ttft_ms=added,
        added_phases_ms={name: values for name, values in phases.items() if values},
        with_repository=repository,
    )


def format_report(report: LoadReport) -> str:
    def p(values: list[float]) -> str:
        return f"p50 {percentile(values, 50):7.1f} ms   p95 {percentile(values, 95):7.1f} ms"

    nominal = report.chats * report.rate
    cpu = "unknown"
    if report.server_cpu_s is not None and report.wall_s:
        cpu = (
            f"{report.server_cpu_s:.1f} s ({100 * report.server_cpu_s / report.wall_s:.0f}% of one CPU), "
            f"{1e6 * report.server_cpu_s / max(1, report.delivered):.0f} us per delivered token"
        )
    lines = [
        f"{report.chats} concurrent chats x {report.tokens} tokens, model streaming {report.rate:g} tokens/s per chat "
        f"after {report.first_token_delay * 1000:.0f} ms; questions "
        f"{'all at once' if not report.ramp else f'spread over {report.ramp:g} s'} (one daphne process, loopback, "
        f"database connections {'kept ' + str(report.conn_max_age) + ' s' if report.conn_max_age else 'per request'}; "
        f"{report.cpus.describe()}; load average {report.load_average:.1f} at the start; "
        f"{'chats with a repository, each question routed by the model' if report.with_repository else 'chats without a repository, routed by keywords'})",
        f"delivered tokens/s      {report.tokens_per_s:9.0f}   (at most {report.scheduled_tokens_per_s:.0f}/s on this schedule, "
        f"{nominal:.0f}/s while all chats stream; {report.delivered} tokens in {report.wall_s:.2f} s)",
        f"dropped frames          {report.dropped:9d}   (out of order: {report.out_of_order} chats)",
        f"answers stored complete {report.stored_complete:9d} / {report.chats}",
        f"TTFT seen by the page   {p(report.page_ttft_ms)}",
        f"TTFT of the model       {p(report.model_ttft_ms)}",
        f"server-added TTFT       {p(report.added_ttft_ms)}",
        *(f"  {name + ':':<28}{p(values)}" for name, values in report.added_phases_ms.items() if values),
        f"server CPU              {cpu}",
        f"load generator CPU      {report.load_cpu_s:.1f} s ({100 * report.load_cpu_s / max(report.wall_s, 1e-9):.0f}% of one CPU: "
        "the clients and the scripted model; near 100% its own delays would show as the server's)",
    ]
    if report.failed_chats:
        lines.append(f"failed chats: {len(report.failed_chats)}; first: {report.failed_chats[0]}")
    return "\n".join(lines)

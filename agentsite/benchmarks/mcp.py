"""What the MCP door adds to a search: ``search_code`` over MCP against the same call in-process.

The repository is indexed in this process; the web process is started as
``serve`` runs it, on the same database; one SDK client session calls
``search_code`` over HTTP with a personal access token. Each query is timed
both ways, alternately, after a warm-up, so the two see the same caches and
the same load, and the in-process calls keep their connections as the web
process's database threads do (so their search runs its channels side by
side as the web process's does: ``database_pool.run_beside``). The figures are the difference of the
medians, the median of the per-query differences, and the door itself: each
call's round trip minus the web process's own time in the tool (its
``ToolUse`` record).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from agentsite import web_process
from chat.mcp import tokens
from chat.mcp.models import ToolUse
from llm.types import ToolCall
from llm.benchmarks.percentiles import percentile
from rag.benchmarks.index import connections_as_the_web_process
from rag.models import Repository
from rag.tools import Caps, RepositoryToolbox

BENCH_USER = "bench-mcp"


@dataclass
class DoorFigures:
    in_process: list[float] = field(default_factory=list)
    over_mcp: list[float] = field(default_factory=list)
    # The web process's own time for each MCP call's tool (its ToolUse record), in call order.
    server_side: list[float] = field(default_factory=list)

    @property
    def paired_differences(self) -> list[float]:
        return [mcp - local for mcp, local in zip(self.over_mcp, self.in_process, strict=True)]

    @property
    def door_overhead(self) -> list[float]:
        """Per call: the client's round trip minus the server's time in the tool (HTTP, the SDK, the token)."""
        return [mcp - server for mcp, server in zip(self.over_mcp, self.server_side, strict=True)]

    def lines(self) -> list[str]:
        def ms(values: list[float], q: float | None = None) -> float:
            return (statistics.median(values) if q is None else percentile(values, q)) * 1000

        return [
            f"queries: {len(self.in_process)}",
            f"in-process search_code: p50 {ms(self.in_process):.1f} ms, p95 {ms(self.in_process, 95):.1f} ms",
            f"over MCP search_code:   p50 {ms(self.over_mcp):.1f} ms, p95 {ms(self.over_mcp, 95):.1f} ms",
            f"MCP adds: {ms(self.over_mcp) - ms(self.in_process):.1f} ms at p50 (difference of medians); "
            f"median per-query difference {ms(self.paired_differences):.1f} ms; "
            f"ratio {statistics.median(self.over_mcp) / statistics.median(self.in_process):.2f}",
            f"the web process's own time in the call (token check, repository, search): "
            f"p50 {ms(self.server_side):.1f} ms, p95 {ms(self.server_side, 95):.1f} ms",
            f"the door itself (round trip minus the server's time in the tool, per call): "
            f"p50 {ms(self.door_overhead):.1f} ms, p95 {ms(self.door_overhead, 95):.1f} ms",
        ]


def start_web_process(port: int) -> tuple[subprocess.Popen, str]:
    env = dict(os.environ)
    env["AGENTSITE_DB_NAME"] = connection.settings_dict["NAME"]
    # Kept connections, as `serve` runs its web server.
    env.setdefault("DATABASE_CONN_MAX_AGE", str(settings.WEB_CONN_MAX_AGE))
    # The benchmark's own calls must not be refused by the per-token limit.
    env["MCP_CALLS_PER_MINUTE"] = str(max(settings.MCP_CALLS_PER_MINUTE, 100_000))
    return web_process.start(env, port)


async def _time_both(url: str, secret: str, repository: Repository, queries: list[str], warmup: int) -> DoorFigures:
    toolbox = RepositoryToolbox(repository, Caps(items=12, files=10, result_chars=40_000))
    # One thread with one kept connection, as the web process's database threads keep theirs.
    local = ThreadPoolExecutor(max_workers=1)
    loop = asyncio.get_running_loop()
    figures = DoorFigures()
    headers = {"Authorization": f"Bearer {secret}"}
    async with streamable_http_client(f"{url}/mcp", http_client=create_mcp_http_client(headers=headers)) as (read, write):
        async with ClientSession(read, write) as client:
            await client.initialize()
            for number, query in enumerate(queries[:warmup] + queries):
                arguments = {"query": query}
                order = ("local", "mcp") if number % 2 else ("mcp", "local")
                timings: dict[str, float] = {}
                for door in order:
                    started = time.perf_counter()
                    if door == "local":
                        call = ToolCall(id="b", name="search_code", arguments=arguments)
                        result = await loop.run_in_executor(local, toolbox.call_sync, call)
                        failed = result.error
                    else:
                        answer = await client.call_tool("search_code", {"repository": repository.name, **arguments})
                        failed = answer.is_error
                    timings[door] = time.perf_counter() - started
                    if failed:
                        raise RuntimeError(f"search_code failed {door} for {query!r}")
                if number >= warmup:
                    figures.in_process.append(timings["local"])
                    figures.over_mcp.append(timings["mcp"])
    local.submit(lambda: connection.close()).result()
    local.shutdown()
    return figures


def measure(repository: Repository, queries: list[str], port: int, warmup: int = 10) -> DoorFigures:
    warmup = min(warmup, len(queries))  # the warm-up repeats the first queries: no more of them than there are
    user, _ = get_user_model().objects.get_or_create(username=BENCH_USER, defaults={"is_staff": True})
    user.set_unusable_password()
    user.is_staff = True
    user.save()
    token, secret = tokens.create_token(user, "bench_mcp")
    proc, url = start_web_process(port)
    try:
        with connections_as_the_web_process():
            figures = asyncio.run(_time_both(url, secret, repository, queries, warmup))
        # Each call's record is written beside its answer: wait for the last ones.
        deadline = time.monotonic() + 10
        while ToolUse.objects.filter(token=token).count() < warmup + len(queries) and time.monotonic() < deadline:
            time.sleep(0.05)
        durations = list(ToolUse.objects.filter(token=token).order_by("started_at", "id").values_list("duration_ms", flat=True))
        figures.server_side = [value / 1000 for value in durations[warmup:]]
        return figures
    finally:
        web_process.stop(proc)
        ToolUse.objects.filter(token=token).delete()
        user.delete()

"""The adapter's own overhead on a stream, against the same upstream read raw with httpx.

The fake model server (``fake_server``, in its own thread) streams numbered
chunks in the OpenAI wire format and notes when each one left. Two readers
consume the same streams:

- raw: ``httpx`` ``aiter_lines`` plus ``json.loads`` of each ``data:`` line and
  a look at its delta, the least any client must do;
- adapter: ``OpenAIProvider.stream`` (SSE decoding, chunk parsing, typed
  events, the audit trace; the stored audit row is switched off so a database
  write at the end does not count).

Throughput streams send chunks back to back; the adapter's figure is events
per second against raw lines per second. Latency streams pace chunks, and the
delay from a chunk leaving the server to the matching event reaching the
reader gives median and p95 for both readers. The parser alone (no network)
is measured too.
"""

from __future__ import annotations

import json
import logging
import statistics
import time
from contextlib import aclosing
from dataclasses import dataclass

import httpx
from django.conf import settings
from django.test import override_settings

from llm.benchmarks.fake_server import FakeProviderServer, Reply
from llm.benchmarks.percentiles import percentile
from llm.providers.openai import OpenAIProvider, OpenAIStreamParser
from llm.retry import NO_RETRY
from llm.types import ChatRequest, Message


def chunk_payload(index: int) -> str:
    return json.dumps(
        {
            "id": "chatcmpl-bench",
            "object": "chat.completion.chunk",
            "created": 0,
            "model": "bench",
            "choices": [{"index": 0, "delta": {"content": f"t{index} "}, "finish_reason": None}],
        }
    )


FINAL = json.dumps(
    {"id": "chatcmpl-bench", "object": "chat.completion.chunk", "created": 0, "model": "bench", "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}
)


@dataclass
class Figures:
    raw_events_per_s: float
    adapter_events_per_s: float
    parser_events_per_s: float
    raw_delay_ms: tuple[float, float]
    adapter_delay_ms: tuple[float, float]

    @property
    def throughput_ratio(self) -> float:
        return self.adapter_events_per_s / self.raw_events_per_s


REQUEST = ChatRequest(messages=(Message("user", "bench"),), model="bench")


async def _read_raw(client: httpx.AsyncClient, url: str, received: list[float]) -> int:
    count = 0
    async with client.stream("POST", url, json={"model": "bench", "stream": True, "messages": []}) as response:
        async for line in response.aiter_lines():
            if line.startswith("data: ") and line != "data: [DONE]":
                chunk = json.loads(line[6:])
                if chunk["choices"][0]["delta"].get("content"):
                    received.append(time.perf_counter())
                    count += 1
    return count


async def _read_adapter(provider: OpenAIProvider, received: list[float]) -> int:
    count = 0
    async with aclosing(provider.stream(REQUEST)) as events:
        async for event in events:
            if event.type == "text":
                received.append(time.perf_counter())
                count += 1
            elif event.type == "error":
                raise RuntimeError(f"the adapter failed during the benchmark: {event.error}")
    return count


def _median_and_p95_ms(delays: list[float]) -> tuple[float, float]:
    return percentile(delays, 50) * 1000, percentile(delays, 95) * 1000


def parser_events_per_second(chunks: int) -> float:
    payloads = [chunk_payload(i) for i in range(chunks)] + [FINAL, "[DONE]"]
    parser = OpenAIStreamParser()
    started = time.perf_counter()
    for payload in payloads:
        parser.feed(payload)
    parser.finish()
    return chunks / (time.perf_counter() - started)


def numbered_answer(chunks: int, interval: float = 0.0) -> Reply:
    return Reply.stream([f"t{index} " for index in range(chunks)], interval=interval)


async def measure(*, chunks: int = 5000, runs: int = 5, paced_chunks: int = 200, interval: float = 0.005) -> Figures:
    upstream = FakeProviderServer().start()
    provider = OpenAIProvider({"BASE_URL": upstream.openai_base_url, "API_KEY": "bench", "TIMEOUT": 30}, retry_policy=NO_RETRY)
    client = httpx.AsyncClient(timeout=30)
    url = f"{upstream.openai_base_url}/chat/completions"
    # One log line per benchmark stream would only add noise to the figures.
    llm_logger = logging.getLogger("llm")
    previous_level = llm_logger.level
    llm_logger.setLevel(logging.WARNING)
    try:
        with override_settings(LLM={**settings.LLM, "AUDIT": False, "AUDIT_DIR": ""}):
            raw_rates, adapter_rates = [], []
            upstream.fallback = numbered_answer(chunks)
            # One warm-up of each so connection set-up is not measured.
            await _read_raw(client, url, [])
            await _read_adapter(provider, [])
            for _ in range(runs):
                for reader, rates in ((lambda r: _read_raw(client, url, r), raw_rates), (lambda r: _read_adapter(provider, r), adapter_rates)):
                    received: list[float] = []
                    started = time.perf_counter()
                    count = await reader(received)
                    rates.append(count / (time.perf_counter() - started))

            upstream.fallback = numbered_answer(paced_chunks, interval)
            raw_delays: list[float] = []
            adapter_delays: list[float] = []
            for _ in range(max(1, runs // 2)):
                for reader, delays in ((lambda r: _read_raw(client, url, r), raw_delays), (lambda r: _read_adapter(provider, r), adapter_delays)):
                    received = []
                    await reader(received)
                    # The stream's first payload names the role; one text piece a payload follows.
                    sent_at = upstream.chat_requests[-1].sent_at[1 : 1 + paced_chunks]
                    delays += [r - s for r, s in zip(received, sent_at, strict=True)]
    finally:
        llm_logger.setLevel(previous_level)
        await client.aclose()
        await provider.aclose()
        upstream.stop()
    return Figures(
        raw_events_per_s=statistics.median(raw_rates),
        adapter_events_per_s=statistics.median(adapter_rates),
        parser_events_per_s=statistics.median(parser_events_per_second(chunks) for _ in range(runs)),
        raw_delay_ms=_median_and_p95_ms(raw_delays),
        adapter_delay_ms=_median_and_p95_ms(adapter_delays),
    )


def report(figures: Figures, *, chunks: int, runs: int, paced_chunks: int, interval: float) -> str:
    raw_median, raw_p95 = figures.raw_delay_ms
    adapter_median, adapter_p95 = figures.adapter_delay_ms
    return "\n".join(
        [
            f"throughput: {chunks} chunks back to back, median of {runs} runs",
            f"  raw httpx lines + json.loads   {figures.raw_events_per_s:12,.0f} events/s",
            f"  adapter stream (OpenAI)        {figures.adapter_events_per_s:12,.0f} events/s",
            f"  parser alone (no network)      {figures.parser_events_per_s:12,.0f} events/s",
            f"  adapter / raw                  {figures.throughput_ratio:12.2f}",
            f"chunk-to-event delay: {paced_chunks} chunks every {interval * 1000:.0f} ms",
            f"  raw httpx      median {raw_median:7.3f} ms   p95 {raw_p95:7.3f} ms",
            f"  adapter        median {adapter_median:7.3f} ms   p95 {adapter_p95:7.3f} ms",
            f"  adapter overhead: median {adapter_median - raw_median:+.3f} ms, p95 {adapter_p95 - raw_p95:+.3f} ms",
        ]
    )

"""Time to first chunk over a long scripted dialog: dual-context handover against summarizing on the critical path.

Both runs use the real ``ConversationManager``, the real OpenAI-compatible
adapter and the summary store (database and cache), against a fake model
served by the fake model server (``fake_server``) in the OpenAI streaming wire format:
the main model sends its first token after a fixed latency, the summarization
model answers after a longer fixed latency.

- ``dual``: the product's settings (warm-up at 0.5, handover at 0.9): the
  summary is made in the background while the dialog goes on.
- ``on-demand``: the same manager with the warm-up moved up to the handover
  threshold, so the turn that needs the summary waits for it (a spike every
  few dozen turns).
- ``rolling``: summarizing on the critical path as a summary-buffer memory
  does: once the history passes the warm-up budget, every request first folds
  the overflow into the running summary, so every later turn waits for the
  summarization model.

Turns follow each other without pause (no reading time), which is the least
favourable case for the background warm-up.
"""

from __future__ import annotations

import asyncio
import statistics
import time
import uuid
from dataclasses import dataclass, field, replace
from typing import Any

from django.conf import settings
from django.test import override_settings

from llm.benchmarks.fake_server import FakeProviderServer, RecordedRequest, Reply
from llm.conversation.context import LLMContext, Summary
from llm.conversation.manager import ConversationManager, ConversationSettings
from llm.conversation.summarizer import Summarizer
from llm.conversation.store import ConversationSummary
from llm.registry import build_provider
from llm.tokens import estimate_message_tokens
from llm.types import ChatRequest, Message

MAIN_MODEL = "bench-main"
SUMMARY_MODEL = "bench-summarizer"
SYSTEM_PROMPT = "You answer questions about a repository, briefly and with citations."
ANSWER = (
    "The handler reads the request, validates the payload against the schema and hands it to the service "
    "layer, which opens a transaction (see `app/services.py:40-72`)."
)
SUMMARY = "- Goals: understand request handling.\n- Facts: validation in the handler, transactions in services."
CHUNK_CHARACTERS = 12
MODES = ("dual", "on-demand", "rolling")


def question(number: int) -> str:
    return (
        f"Question {number}: in the module that handles part {number} of the requests, where is the input validated, "
        "and what happens to it before it is stored?"
    )


def answer_as_the_models(server: FakeProviderServer, *, first_token_latency: float, summary_latency: float) -> None:
    """Have ``server`` answer as the benchmark's two models, each after its fixed latency."""

    def answer(request: RecordedRequest) -> Reply:
        if (request.json or {}).get("model") == SUMMARY_MODEL:
            return Reply.text(SUMMARY, chunk_size=CHUNK_CHARACTERS, delay=summary_latency)
        return Reply.text(ANSWER, chunk_size=CHUNK_CHARACTERS, delay=first_token_latency)

    server.fallback = answer


@dataclass
class DialogRun:
    mode: str
    ttfc_ms: list[float] = field(default_factory=list)
    handovers: int = 0
    summaries_made: int = 0


def bench_llm_settings(window: int, base_url: str) -> dict[str, Any]:
    llm = dict(settings.LLM)
    llm["AUDIT"] = False
    llm["PROVIDER"] = "openai"
    providers = dict(llm.get("PROVIDERS", {}))
    providers["openai"] = {
        **providers.get("openai", {}),
        "BASE_URL": base_url,
        "API_KEY": "bench",
        "MODELS": {"main": MAIN_MODEL, "summarization": SUMMARY_MODEL},
        "CONTEXT_WINDOWS": {"main": window, "summarization": window},
    }
    llm["PROVIDERS"] = providers
    return llm


async def run_rolling_dialog(*, turns: int, config: ConversationSettings) -> DialogRun:
    """The baseline: summarize the overflow before the request, while the user waits."""
    provider = build_provider("openai")
    window = provider.context_window("main")
    reserve = min(int(window * config.answer_reserve_ratio), config.max_answer_tokens)
    context = LLMContext(system_prompt=SYSTEM_PROMPT, window=window, answer_reserve=reserve)
    summarizer = Summarizer(provider, max_summary_tokens=int(window * config.summary_ratio))
    result = DialogRun(mode="rolling")
    try:
        for number in range(1, turns + 1):
            started = time.monotonic()
            context.append(Message(role="user", content=question(number)))
            if context.estimate_usage_ratio() >= config.warmup_threshold_ratio:
                # Keep as much history as fits under the budget and fold only the overflow into the summary.
                fixed = context.prompt_tokens() - estimate_message_tokens(context.messages)
                keep = int(window * config.warmup_threshold_ratio) - fixed - 1
                older, recent = context.summarization_slice(keep, min_keep=1)
                if older:
                    previous = context.summary.text if context.summary else ""
                    summary = await summarizer.summarize(previous, older)
                    context = context.derive(
                        summary=Summary(summary.text, context.start + len(older)), messages=recent
                    )
                    result.summaries_made += 1
            request = ChatRequest(messages=context.build_messages(), model_params={"max_tokens": reserve})
            first: float | None = None
            answer: list[str] = []
            async for event in provider.stream(request):
                if event.type == "text":
                    first = first or time.monotonic()
                    answer.append(event.text)
                elif event.type == "error":
                    raise RuntimeError(f"turn {number} failed: {event.error}")
            if first is None:
                raise RuntimeError(f"turn {number} got no answer")
            result.ttfc_ms.append((first - started) * 1000)
            context.append(Message(role="assistant", content="".join(answer)))
    finally:
        await provider.aclose()
    return result


async def run_dialog(mode: str, *, turns: int, config: ConversationSettings) -> DialogRun:
    provider = build_provider("openai")
    session_key = f"bench:{mode}:{uuid.uuid4()}"
    manager = ConversationManager(session_key, system_prompt=SYSTEM_PROMPT, provider=provider, config=config)
    result = DialogRun(mode=mode)
    try:
        for number in range(1, turns + 1):
            async for chunk in manager.process_user_turn(question(number)):
                if chunk.is_final:
                    assert chunk.metrics is not None
                    if chunk.error or chunk.metrics.ttfc_ms is None:
                        raise RuntimeError(f"turn {number} failed: {chunk.error or 'no answer'}")
                    result.ttfc_ms.append(chunk.metrics.ttfc_ms)
                    result.handovers += chunk.metrics.handovers
                    result.summaries_made += chunk.metrics.summary_cache_misses
    finally:
        await manager.shutdown()
        await provider.aclose()
        await ConversationSummary.objects.filter(session_key=session_key).adelete()
    return result


@dataclass(frozen=True)
class BenchmarkReport:
    checkpoints: tuple[int, ...]
    runs: dict[str, list[DialogRun]]

    def median_at(self, mode: str, turn: int, radius: int = 2) -> float:
        """Time to first chunk at ``turn``: the median of turns ``turn - radius .. turn + radius`` over all runs.

        A handful of neighbouring turns make the figure robust to one scheduling hiccup; a mode
        that summarizes on every turn is slow on all of them anyway.
        """
        samples = [
            ttfc
            for run in self.runs[mode]
            for ttfc in run.ttfc_ms[max(0, turn - 1 - radius) : min(len(run.ttfc_ms), turn + radius)]
        ]
        return statistics.median(samples)

    def slowest(self, mode: str) -> float:
        """The slowest turn of the dialog (median over runs)."""
        return statistics.median(max(run.ttfc_ms) for run in self.runs[mode])


async def benchmark(*, turns: int, runs: int, checkpoints: tuple[int, ...]) -> BenchmarkReport:
    dual = ConversationSettings.from_settings()
    # The same manager with the warm-up moved up to the handover threshold: the summary is made
    # by the turn that needs it, while the user waits.
    on_demand = replace(dual, warmup_threshold_ratio=dual.handover_threshold_ratio - 1e-6)
    report = BenchmarkReport(checkpoints=checkpoints, runs={mode: [] for mode in MODES})
    for _ in range(runs):
        # Interleaved, so every mode sees the same machine conditions.
        report.runs["dual"].append(await run_dialog("dual", turns=turns, config=dual))
        report.runs["on-demand"].append(await run_dialog("on-demand", turns=turns, config=on_demand))
        report.runs["rolling"].append(await run_rolling_dialog(turns=turns, config=dual))
    return report


def run_benchmark(*, turns: int = 300, runs: int = 3, window: int = 8000, first_token_ms: float = 40.0, summary_ms: float = 250.0) -> BenchmarkReport:
    checkpoints = tuple(t for t in (10, 100, 300) if t <= turns) or (turns,)
    with FakeProviderServer() as server, override_settings(LLM=bench_llm_settings(window, server.openai_base_url)):
        answer_as_the_models(server, first_token_latency=first_token_ms / 1000, summary_latency=summary_ms / 1000)
        return asyncio.run(benchmark(turns=turns, runs=runs, checkpoints=checkpoints))


def format_report(report: BenchmarkReport, *, turns: int, runs: int, window: int, first_token_ms: float, summary_ms: float) -> str:
    first = report.checkpoints[0]
    lines = [
        f"Long dialog: {turns} turns x {runs} runs per mode, window {window} tokens, "
        f"main model first token {first_token_ms:.0f} ms, summarization {summary_ms:.0f} ms",
        f"Time to first chunk in ms: median of turns N-2..N+2 over all runs; ratios against the same mode's turn {first};",
        "'slowest': the slowest turn of the dialog (median over runs).",
        f"{'mode':12}" + "".join(f"{f'turn {t}':>10}" for t in report.checkpoints) + f"{'slowest':>10}"
        + "".join(f"{f'{t}/{first}':>9}" for t in report.checkpoints[1:]) + f"{'handovers':>11}{'summaries':>11}",
    ]
    for mode in MODES:
        runs_of_mode = report.runs[mode]
        row = f"{mode:12}" + "".join(f"{report.median_at(mode, t):>10.1f}" for t in report.checkpoints)
        row += f"{report.slowest(mode):>10.1f}"
        row += "".join(f"{report.median_at(mode, t) / report.median_at(mode, first):>8.2f}x" for t in report.checkpoints[1:])
        row += f"{statistics.median(r.handovers for r in runs_of_mode):>11.0f}"
        row += f"{statistics.median(r.summaries_made for r in runs_of_mode):>11.0f}"
        lines.append(row)
    return "\n".join(lines)

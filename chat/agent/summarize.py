"""Summarizing a turn's older tool exchanges when the next request would not fit.

A tool exchange is one assistant message with its tool calls plus the tool
results answering them; exchanges are only ever summarized whole, so no call
loses its answer. When the next request passes ``summarize_at`` of the model's
window, every exchange but the latest is replaced by one summary (the
``summarization`` prompt on ``models.summarization``), which keeps the
``path:start-end`` references so the answer can still cite them. If the
summary call fails, a plain digest of the calls takes its place: the turn
goes on either way.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from chat.agent.events import AgentEvent
from chat.agent.prompting import load_prompt
from chat.agent.turn import TurnServices
from llm.graph import Runtime
from llm.retry import LLMError
from llm.tokens import BYTES_PER_TOKEN, estimate_message_tokens, estimate_tokens
from llm.types import ChatRequest, Message, ToolSpec

SUMMARY_HEADER = "Summary of the earlier tool results for this question (their path:start-end references can be cited):\n"
# Share of the summarization model's window the exchanges to summarize may fill.
SUMMARY_INPUT_SHARE = 0.7
DIGEST_LINES = 6


def request_tokens(messages: Sequence[Message], tools: Sequence[ToolSpec]) -> int:
    """An estimate of a request's size: its messages plus its tool definitions."""
    specs = [{"name": t.name, "description": t.description, "parameters": t.parameters} for t in tools]
    return estimate_message_tokens(messages) + (estimate_tokens(json.dumps(specs)) if specs else 0)


def split_exchanges(transcript: Sequence[Message]) -> list[tuple[Message, ...]]:
    """The transcript cut before every non-tool message: each piece is a message and its tool results."""
    exchanges: list[list[Message]] = []
    for message in transcript:
        if message.role == "tool" and exchanges:
            exchanges[-1].append(message)
        else:
            exchanges.append([message])
    return [tuple(exchange) for exchange in exchanges]


def render_exchanges(exchanges: Sequence[tuple[Message, ...]]) -> str:
    parts: list[str] = []
    for exchange in exchanges:
        for message in exchange:
            if message.role == "tool":
                parts.append(f"Result of {message.name}:\n{message.content}")
                continue
            if message.content:
                parts.append(f"{message.role.capitalize()}: {message.content}")
            for call in message.tool_calls:
                arguments = json.dumps(dict(call.arguments), ensure_ascii=False) if call.arguments else call.raw_arguments
                parts.append(f"Called {call.name}({arguments})")
    return "\n\n".join(parts)


def digest(exchanges: Sequence[tuple[Message, ...]]) -> str:
    """A summary without a model: each call and the first lines of its result."""
    lines: list[str] = []
    for exchange in exchanges:
        for message in exchange:
            if message.role == "tool":
                head = message.content.splitlines()[:DIGEST_LINES]
                lines.append(f"- {message.name}: " + "\n  ".join(head))
            elif message.role == "user" and message.content:
                lines.append(message.content)
    return "\n".join(lines)


async def summarize_exchanges(services: TurnServices, question: str, exchanges: Sequence[tuple[Message, ...]]) -> tuple[str, str]:
    """The summary text and how it was made (``model`` or ``digest``)."""
    provider = services.provider
    if services.offline:
        return digest(exchanges), "digest"
    limit_chars = int(provider.context_window("summarization") * SUMMARY_INPUT_SHARE * BYTES_PER_TOKEN)
    rendered = render_exchanges(exchanges)
    if len(rendered) > limit_chars:
        rendered = rendered[:limit_chars] + "\n... (cut)"
    prompt = await load_prompt("summarization")
    request = ChatRequest(
        messages=(
            Message("system", prompt.text),
            Message("user", f"The question being answered: {question}\n\nTool calls and results to summarize:\n\n{rendered}"),
        ),
        purpose="summarization",
        prompt_name=prompt.name,
        prompt_version=prompt.version,
    )
    try:
        completion = await provider.complete(request)
    except LLMError:
        return digest(exchanges), "digest"
    services.usage.add(completion.usage, completion.model)
    if not completion.text.strip():
        return digest(exchanges), "digest"
    return completion.text.strip(), "model"


async def compact_if_needed(
    runtime: Runtime[TurnServices],
    *,
    question: str,
    fixed: Sequence[Message],
    tools: Sequence[ToolSpec],
    transcript: tuple[Message, ...],
) -> tuple[Message, ...]:
    """``transcript`` itself when the next request fits; else older exchanges summarized into one message.

    ``fixed`` is the part of the request that is not this turn's transcript
    (system prompt, dialog, question). Precondition: no tool call is pending.
    """
    services = runtime.services
    window = services.provider.context_window("main")
    limit = services.config.summarize_at * window
    before = request_tokens((*fixed, *transcript), tools)
    if before <= limit:
        return transcript
    exchanges = split_exchanges(transcript)
    if len(exchanges) < 2:
        return transcript
    older, latest = exchanges[:-1], exchanges[-1]
    started = time.perf_counter()
    summary, method = await summarize_exchanges(services, question, older)
    compacted = (Message("user", SUMMARY_HEADER + summary), *latest)
    after = request_tokens((*fixed, *compacted), tools)
    await runtime.emit(
        AgentEvent(
            type="step",
            node="summarize_tool_results",
            depth=runtime.depth + 1,
            duration_ms=(time.perf_counter() - started) * 1000,
            detail={
                "exchanges": len(older),
                "tokens_before": before,
                "tokens_after": after,
                "window": window,
                "method": method,
            },
        )
    )
    return compacted

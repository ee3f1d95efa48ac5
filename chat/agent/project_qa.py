"""``project_qa``: questions about the chat's repository, answered with tools and citations.

The subgraph::

    start_project_qa --(no model)--> answer_from_index ----------------+
           |                                                            v
           +--> call_model --(an answer)---------------------------> cite_sources
                  ^    |
                  |    +--(tool calls)--> run_tools --> compact_transcript
                  |                                            |
                  +--------------------------------------------+

``start_project_qa`` searches the index with the question once, looks up the
lines that hold each text the question quotes (``search_text``) and the
declarations of each package it names (``list_dependencies``), and puts the
results (capped, see ``tools.Caps``) under the ``project_answer`` prompt as
the retrieved material. ``call_model`` streams the model's text to the page
and collects its tool calls; ``run_tools`` answers every call (errors
included) and records the spans it showed; ``compact_transcript`` summarizes
older tool exchanges when the next request would pass ``summarize_at`` of the
model's window. After ``max_tool_rounds`` rounds the model is called without
tools and must answer. ``cite_sources`` keeps the citations the answer
actually made.

State keys: ``transcript`` (this turn's messages after the question),
``pending`` (tool calls not answered yet), ``rounds``, ``answer``, ``spans``,
``citations``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from chat.agent.citing import Span, used_citations
from chat.agent.events import AgentEvent, Citation
from chat.agent.offline import extractive_answer
from chat.agent.prompting import load_prompt, system_message
from chat.agent.summarize import compact_if_needed
from rag.tools import ToolResult
from chat.agent.turn import TurnServices, answer_params, stream_model, structured_prompt_notes
from llm.graph import AgentContext, Graph, GraphBuilder, Runtime, node
from llm.types import ChatRequest, Message, ToolCall
from database_pool import in_database_pool
from rag import services as rag
from rag.query_analysis import quoted_texts

# Packages the question names whose declarations go with the retrieved material.
MAX_NAMED_PACKAGES = 3

FINAL_ROUND_NOTE = (
    "You have used all tool rounds for this question. Answer now from what the tools returned, "
    "citing code as path:start-end, and say what you could not check."
)


def _answer_so_far(ctx: AgentContext[Any]) -> str:
    return str(ctx.state.get("answer", ""))


@node(name="start_project_qa")
async def start_project_qa(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    services = runtime.services
    toolbox = services.toolbox
    assert toolbox is not None, "project_qa needs a repository with an index"
    state: dict[str, Any] = {
        "extractive": services.offline, "transcript": (), "pending": (), "rounds": 0, "answer": "", "spans": (),
        "citations": (),
    }
    if services.offline:
        return ctx.with_state(state)
    prompt = await load_prompt("project_answer")
    found = await call_tool(runtime, ToolCall(id="retrieve", name="search_code", arguments={"query": ctx.input}))
    await emit_sources(runtime, found.spans)
    notes = [
        f"The repository is {services.repository_name!r}." if services.repository_name else "",
        f"Retrieved material (a search of the index with the question):\n\n{found.content}",
    ]
    spans = tuple(found.spans)
    # A text the question quotes (`jackson-databind`, "Unknown format code"): where it is written, line by line.
    quoted = quoted_texts(ctx.input)
    for number, text in enumerate(quoted, start=1):
        lines = await call_tool(runtime, ToolCall(id=f"quoted_{number}", name="search_text", arguments={"pattern": text}))
        if lines.spans:
            await emit_sources(runtime, lines.spans)
            spans += tuple(lines.spans)
            notes.append(f"Where the question's quoted text is written:\n\n{lines.content}")
    # A package the question names ("which version of react?"): where the manifests declare it.
    shown = {text.lower() for text in quoted}  # a package quoted is shown where it is written, above
    named = await in_database_pool(rag.named_dependencies)(toolbox.repository, ctx.input)
    packages = [name for name in dict.fromkeys(d.name for d in named) if name.lower() not in shown][:MAX_NAMED_PACKAGES]
    for number, name in enumerate(packages, start=1):
        declared = await call_tool(runtime, ToolCall(id=f"package_{number}", name="list_dependencies", arguments={"name": name}))
        if declared.spans:
            await emit_sources(runtime, declared.spans)
            spans += tuple(declared.spans)
            notes.append(f"Where the manifests declare the package {name!r}:\n\n{declared.content}")
    # A model that cannot call tools answers from the retrieved material alone.
    tools = toolbox.specs if services.provider.supports_tools else ()
    system = await system_message(prompt, *notes, *structured_prompt_notes(services, with_tools=bool(tools)))
    return ctx.evolve(system_prompt=system.content, tools=tools).with_state(
        state, spans=spans, prompt_name=prompt.name, prompt_version=prompt.version
    )


def request_messages(ctx: AgentContext[str], transcript: Sequence[Message]) -> tuple[Message, ...]:
    """The whole request of the next model call: system, dialog, question, this turn's exchanges."""
    return (Message("system", ctx.system_prompt), *ctx.history, Message("user", ctx.input), *transcript)


@node(name="call_model")
async def call_model(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    services = runtime.services
    transcript: tuple[Message, ...] = tuple(ctx.state["transcript"])
    rounds = int(ctx.state["rounds"])
    last_round = rounds >= services.config.max_tool_rounds
    if last_round:
        transcript = (*transcript, Message("user", FINAL_ROUND_NOTE))
    tools = () if last_round else ctx.enabled_tools
    request = ChatRequest(
        messages=request_messages(ctx, transcript),
        model=ctx.settings.model,
        tools=tools,
        model_params=answer_params(ctx, services, with_tools=bool(tools)),
        prompt_name=ctx.state.get("prompt_name"),
        prompt_version=ctx.state.get("prompt_version"),
    )
    answer = _answer_so_far(ctx)
    completion = await stream_model(
        runtime, request, lead="\n\n" if answer else "", structured_answer=services.structured_answers
    )
    if completion.text:
        answer = f"{answer}\n\n{completion.text}" if answer else completion.text
    calls = () if last_round else completion.tool_calls
    assistant = Message("assistant", completion.text, tool_calls=tuple(calls))
    return ctx.with_state(transcript=(*transcript, assistant), pending=tuple(calls), answer=answer)


def after_model(ctx: AgentContext[Any]) -> str:
    return "run_tools" if ctx.state["pending"] else "cite_sources"


def _arguments(call: ToolCall) -> Any:
    return dict(call.arguments) or _short(call.raw_arguments)


def _short(value: Any, limit: int = 300) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + "..."


async def call_tool(runtime: Runtime[TurnServices], call: ToolCall) -> ToolResult:
    """Run one tool call: said as it starts (so the page tells what runs while it runs), and a
    trace step one level below the node that made it when it finishes."""
    toolbox = runtime.services.toolbox
    assert toolbox is not None
    await runtime.emit(AgentEvent(type="tool", detail={"tool": call.name, "arguments": _arguments(call)}))
    started = time.perf_counter()
    outcome = await toolbox.call(call)
    await runtime.emit(
        AgentEvent(
            type="step",
            node=f"tool:{call.name}",
            depth=runtime.depth + 1,
            duration_ms=(time.perf_counter() - started) * 1000,
            detail={
                "tool": call.name,
                "arguments": _arguments(call),
                "result": _short(outcome.summary),
                "ok": not outcome.error,
            },
        )
    )
    return outcome


async def emit_sources(runtime: Runtime[TurnServices], spans: Sequence[Span]) -> None:
    """The spans just seen, so an answer stopped before ``cite_sources`` still cites against them."""
    if spans:
        await runtime.emit(AgentEvent(type="sources", citations=tuple(Citation(**asdict(span)) for span in spans)))


@node(name="run_tools")
async def run_tools(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    """Answer every pending call, in order; a failing or unknown tool answers with its error."""
    pending: tuple[ToolCall, ...] = tuple(ctx.state["pending"])
    results: list[Message] = []
    spans: list[Span] = list(ctx.state["spans"])
    for call in pending:
        outcome = await call_tool(runtime, call)
        results.append(Message("tool", outcome.content, tool_call_id=call.id, name=call.name))
        spans.extend(outcome.spans)
        await emit_sources(runtime, outcome.spans)
    transcript = (*ctx.state["transcript"], *results)
    return ctx.with_state(transcript=transcript, pending=(), rounds=int(ctx.state["rounds"]) + 1, spans=tuple(spans))


@node(name="compact_transcript")
async def compact_transcript(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    """Summarize older tool exchanges when the next request would not fit; runs only with no call pending."""
    assert not ctx.state["pending"], "every tool call must be answered before summarizing"
    transcript: tuple[Message, ...] = tuple(ctx.state["transcript"])
    compacted = await compact_if_needed(
        runtime,
        question=ctx.input,
        fixed=request_messages(ctx, ()),
        tools=ctx.enabled_tools,
        transcript=transcript,
    )
    if compacted is transcript:
        return ctx
    return ctx.with_state(transcript=compacted)


@node(name="answer_from_index")
async def answer_from_index(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    """Without a model: the most relevant symbols, entrypoints and code spans, in prose from templates."""
    toolbox = runtime.services.toolbox
    assert toolbox is not None
    answer = await extractive_answer(toolbox, ctx.input)
    await runtime.emit(AgentEvent(type="text", text=answer.text))
    return ctx.with_state(answer=answer.text, spans=answer.spans)


@node(name="cite_sources")
async def cite_sources(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    citations = used_citations(_answer_so_far(ctx), ctx.state["spans"])
    await runtime.emit(AgentEvent(type="citations", citations=citations))
    return ctx.with_state(citations=citations)


def build_project_qa() -> Graph:
    return (
        GraphBuilder("project_qa")
        .entry(start_project_qa)
        .route(
            start_project_qa,
            lambda ctx: "answer_from_index" if ctx.state["extractive"] else "call_model",
            targets=[answer_from_index, call_model],
        )
        .route(call_model, after_model, targets=[run_tools, cite_sources])
        .edge(run_tools, compact_transcript)
        .edge(compact_transcript, call_model)
        .edge(answer_from_index, cite_sources)
        .exit(cite_sources)
        .build()
    )

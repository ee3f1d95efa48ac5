"""The agent's top graph: route the turn, then answer it with the intent's subgraph.

::

    route_intent --> general_answer
                 --> project_qa        (a subgraph: chat/agent/project_qa.py)
                 --> docs              (a subgraph: chat/agent/docs/)
                 --> project_edits     (a subgraph: chat/agent/edits/)
                 --> index_not_ready

Each answer is an exit. An intent's answer is any node, a built graph
included, registered in ``intent_nodes``. ``agent_graph()`` is the graph every
turn runs, built once per process (a graph is immutable).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from dataclasses import dataclass, field
from typing import Any

from chat.agent.events import AgentEvent, Intent
from chat.agent.docs import build_docs_graph
from chat.agent.edits import build_edits_graph
from chat.agent.general import general_answer
from chat.agent.project_qa import build_project_qa
from chat.agent.router import route_intent as decide_intent
from chat.agent.turn import TurnServices
from llm.graph import AgentContext, Graph, GraphBuilder, Node, Runtime, node

INDEX_NOT_READY_TEXT = (
    "This chat's repository has no ready index yet, so I cannot look at its code. "
    "Wait for indexing to finish on the Repositories page (or start a reindex there), then ask again."
)


@dataclass(frozen=True)
class StepNote:
    """Extra detail for the trace of the node that emits it (not shown as an event of its own)."""

    detail: Mapping[str, Any] = field(default_factory=dict)


@node(name="route_intent")
async def route_intent(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    services = runtime.services
    has_repository = bool(ctx.state.get("has_repository"))
    decision = await decide_intent(services, ctx.input, ctx.history, has_repository=has_repository)
    await runtime.emit(AgentEvent(type="intent", intent=decision.intent))
    await runtime.emit(StepNote({"intent": decision.intent, "method": decision.method, "reason": decision.reason}))
    return ctx.with_state(intent=decision.intent)


@node(name="index_not_ready")
async def index_not_ready(ctx: AgentContext[str], runtime: Runtime[TurnServices]) -> AgentContext[str]:
    await runtime.emit(AgentEvent(type="text", text=INDEX_NOT_READY_TEXT))
    return ctx.with_state(answer=INDEX_NOT_READY_TEXT)


def intent_nodes() -> dict[Intent, Node[Any, Any]]:
    """The node answering each intent."""
    return {
        "general": general_answer,
        "project_qa": build_project_qa(),
        "docs": build_docs_graph(),
        "edits": build_edits_graph(),
    }


def build_agent_graph(nodes: Mapping[Intent, Node[Any, Any]] | None = None) -> Graph:
    answers = dict(nodes or intent_nodes())
    names = {intent: answer.name for intent, answer in answers.items()}

    def choose(ctx: AgentContext[Any]) -> str:
        intent: Intent = ctx.state["intent"]
        if intent == "project_qa" and not ctx.state.get("index_ready"):
            return index_not_ready.name
        return names[intent]

    builder = GraphBuilder("agent").entry(route_intent)
    for answer in answers.values():
        builder.add(answer)
    targets: list[Node[Any, Any] | str] = [*answers.values(), index_not_ready]
    return builder.route(route_intent, choose, targets=targets).exit(*targets).build()


@cache
def agent_graph() -> Graph:
    """The agent graph with its subgraphs, built at the first turn and shared by every turn of the process."""
    return build_agent_graph()

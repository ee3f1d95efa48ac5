"""The entry point of one agent turn: ``run_turn(turn)`` streams ``AgentEvent``s.

The turn runs through the agent graph (``chat/agent/graph.py``): the router
picks the intent, its subgraph answers. See ``chat/agent/agent.py`` for how
graph steps and emitted events become the stream.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

from chat.agent.agent import stream_turn
from chat.agent.events import AgentEvent
from llm.types import Message


@dataclass(frozen=True)
class TurnInput:
    session_id: int
    user_id: int
    repository_id: int | None
    text: str
    # Recent messages before this one, oldest first.
    history: tuple[Message, ...]
    # Links the LLM calls of this turn to the answer in the audit (``llm.audit.correlation``).
    correlation_id: str
    # The room left for the answer in the model's window (the conversation manager's answer reserve).
    max_answer_tokens: int | None = None


def run_turn(turn: TurnInput) -> AsyncIterator[AgentEvent]:
    """The events of one turn; close the iterator (``aclosing``) to stop the turn early."""
    return stream_turn(turn)

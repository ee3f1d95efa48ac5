"""What an agent turn streams to its caller (the websocket consumer, tests, the eval).

The consumer turns these into websocket frames and stored message fields; it
never needs to know which graph or provider produced them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal

Intent = Literal["general", "project_qa", "docs", "edits"]


@dataclass(frozen=True)
class Citation:
    path: str
    start_line: int
    end_line: int
    layer: str = ""
    score: float = 0.0


@dataclass(frozen=True)
class AgentEvent:
    """One event of a turn.

    - ``intent``: ``intent`` chosen by the router.
    - ``tool``: a tool call is starting: ``detail`` holds ``{"tool", "arguments"}``
      (its ``step`` follows when it finishes).
    - ``step``: a finished node: ``node``, ``depth``, ``duration_ms``, and
      ``detail`` (tool name, arguments and a short result for tool calls); made
      as the node finishes, so ``at`` minus the duration is when it started.
    - ``text``: ``text`` is a new delta of the answer.
    - ``citations``: the citations the answer used.
    - ``sources``: ``citations`` holds code spans the agent has just seen; an
      answer stopped before it is cited is cited against them.
    - ``artifact``: ``detail`` holds ``{"kind": "markdown"|"patch", "name", "content"}``.
    - ``usage``: ``detail`` holds ``{"tokens_in", "tokens_out", "tokens_thinking", "model"}``.
    - ``verdict``: structured answers only: ``detail["is_safe"]``, the turn's
      safety verdict so far; sent before the first text delta that follows it.
    - ``structured``: structured answers only, at the end of the turn:
      ``detail`` holds ``{"is_safe", "internal_thoughts"}`` for the staff's
      record. The thoughts must never reach the page or the stored answer.
    - ``done``: the turn is complete.
    - ``error``: ``text`` is a user-facing message; the turn is over.
    """

    type: Literal["intent", "tool", "step", "text", "citations", "sources", "artifact", "usage", "verdict", "structured", "done", "error"]
    text: str = ""
    intent: Intent | None = None
    node: str = ""
    depth: int = 0
    duration_ms: float = 0.0
    citations: tuple[Citation, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)
    # When the event was made (``time.monotonic()``): whoever reads it may do so later.
    at: float = field(default_factory=time.monotonic, compare=False, repr=False)

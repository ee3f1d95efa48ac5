"""Trace steps below a node: one per section written or checked, per diff written or applied.

A document or a patch takes several model calls inside one node; these steps
show each one in the answer's trace as it finishes, so a long run shows its
progress, in the same shape as the agent's tool steps.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from chat.agent.events import AgentEvent
from chat.agent.turn import TurnServices
from llm.graph import Runtime


async def report_step(
    runtime: Runtime[TurnServices],
    action: str,
    started: float,
    *,
    arguments: Mapping[str, Any],
    result: str,
    ok: bool = True,
) -> None:
    """Emit a finished sub-step ``action`` (``write_section``, ``apply_diff``...) started at ``started`` (perf_counter)."""
    await runtime.emit(
        AgentEvent(
            type="step",
            node=f"{runtime.node}:{action}",
            depth=runtime.depth + 1,
            duration_ms=(time.perf_counter() - started) * 1000,
            detail={"tool": action, "arguments": dict(arguments), "result": result, "ok": ok},
        )
    )

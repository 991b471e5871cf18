"""ToolRec's tool calls as `ToolCallRecord`s in the campaign's `ToolCallLog`."""

from __future__ import annotations

from typing import Any

from macrs_sim.llm.context import current_call
from macrs_sim.protocol import ToolCallRecord
from macrs_sim.tools import ToolCallLog


def record_call(
    log: ToolCallLog | None,
    tool: str,
    given: dict[str, Any],
    output: str,
    latency_s: float,
    error: str | None = None,
) -> None:
    """Attributed like the toolkit's tools: to the `calling` context around the call."""
    if log is None:
        return
    ctx = current_call()
    log.record(
        ToolCallRecord(
            dialogue_id=ctx.dialogue_id, system=ctx.system, role=ctx.role, turn=ctx.turn,
            tool=tool, input=given, output_chars=len(output), latency_s=latency_s,
            ok=error is None, error=error,
        )
    )  # fmt: skip

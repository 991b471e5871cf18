"""What one run of a ToolRec loop leaves: a typed record per round, the stored sets, the
final list and why it stopped; `top_up` fills a short list from the plain ranker."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from macrs_sim.agents.toolrec.memory import ItemSet
from macrs_sim.protocol import Record

# plan_end: a "w/ Plan" plan ran out without finish.
Stop = Literal["finish", "round_limit", "model_error", "plan_end"]


class RoundRecord(Record):
    round: int
    thought: str = ""
    # The action as the model wrote it.
    action: str = ""
    tool: Literal["retrieve", "rank", "finish", "invalid", "model_error"]
    attribute: str | None = None
    k: int | None = None
    # The validated items the tool returned (stored in memory under the round's mark).
    items: tuple[str, ...] = ()
    # Items the memory refused (not in the catalog, not a candidate, or in the history).
    invalid: tuple[str, ...] = ()
    reprompts: int = 0
    error: str | None = None
    # The candidate list's size after the round.
    candidates: int = 0


class LoopResult(Record):
    rounds: tuple[RoundRecord, ...]
    sets: tuple[ItemSet, ...]
    final: tuple[str, ...]
    stop: Stop
    # Model requests (surrogate-user steps and rank attempts; a schema repair inside one
    # request is not counted again: the call log has those).
    llm_calls: int


def top_up(
    items: Sequence[str], extra: Sequence[str], k: int, skip: Sequence[str] = ()
) -> list[str]:
    """`items` then `extra` (the plain ranker's list), each id once, `skip` left out, first k."""
    out: list[str] = []
    left = set(skip)
    for i in (*items, *extra):
        if i not in left and i not in out:
            out.append(i)
            if len(out) == k:
                break
    return out

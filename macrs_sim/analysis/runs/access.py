"""Who knew what in a run (DESIGN.md §3 "A fair contest"): the history each system was
given and the limits every system ran under, as the campaign recorded them in its store.

Runs made before these were recorded have neither: their tables stay as they were.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

# Store meta keys the campaign writes when it starts (campaign/resume.py).
HISTORY_META = "system_history"
LIMITS_META = "protocol_limits"
# System name (and "(simulator)") -> "paper" | "chat": where its prompts put the dialogue.
LAYOUT_META = "prompt_layouts"


@dataclass(frozen=True)
class RunAccess:
    # System name -> "none" | "pre-target" (SystemSpec.history).
    history: Mapping[str, str]
    max_turns: int
    final_list_k: int
    max_items_per_turn: int

    def history_of(self, system: str) -> str:
        return self.history.get(system, "?")

    def limits_line(self) -> str:
        """The rules every system of the run shared, in one line."""
        n = self.max_items_per_turn
        return (
            f"Every system: at most {n} item{'s' if n != 1 else ''} a turn, "
            f"{self.max_turns} turns, then {self.final_list_k} items in the fallback list."
        )


def limits_meta(max_turns: int, final_list_k: int, max_items_per_turn: int) -> str:
    return json.dumps(
        {"max_turns": max_turns, "final_list_k": final_list_k,
         "max_items_per_turn": max_items_per_turn}
    )  # fmt: skip


def run_access(meta: Mapping[str, str]) -> RunAccess | None:
    """The run's access record from its store meta; None for a run that has none (or a
    damaged one: an old or hand-edited store reports without the column, never fails)."""
    try:
        history = json.loads(meta[HISTORY_META])
        limits = json.loads(meta[LIMITS_META])
        return RunAccess(
            history={str(k): str(v) for k, v in history.items()},
            max_turns=int(limits["max_turns"]),
            final_list_k=int(limits["final_list_k"]),
            max_items_per_turn=int(limits["max_items_per_turn"]),
        )
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def merged_access(accesses: list[RunAccess | None]) -> RunAccess | None:
    """One record for several runs shown in one table: None unless every run has one and
    all share their limits (`compare` refuses runs whose protocols differ)."""
    if not accesses or any(a is None for a in accesses):
        return None
    first = accesses[0]
    assert first is not None
    history: dict[str, str] = {}
    for a in accesses:
        assert a is not None
        if (a.max_turns, a.final_list_k, a.max_items_per_turn) != (
            first.max_turns, first.final_list_k, first.max_items_per_turn
        ):  # fmt: skip
            return None
        history |= dict(a.history)
    return RunAccess(history, first.max_turns, first.final_list_k, first.max_items_per_turn)

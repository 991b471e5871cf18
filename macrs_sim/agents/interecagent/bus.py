"""The candidate bus (one per turn, a funnel over all items) and the tracker of tool calls."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from macrs_sim.protocol import Record

# The tool output a tracker record keeps (the whole text goes to the model).
SUMMARY_CHARS = 300


class CandidateBus:
    """Ordered item ids; tools narrow or reorder it, never add items that were filtered out.

    Initialised with every item (best-known first), except after `store` (items the user named).
    """

    def __init__(self, items: Sequence[str]) -> None:
        self.items: list[str] = list(items)
        self.full = True
        # Item-to-item scores the last soft retrieval saved (rank by similarity reads them).
        self.similarity: dict[str, float] = {}

    def __len__(self) -> int:
        return len(self.items)

    def store(self, items: Iterable[str]) -> None:
        self.items = list(dict.fromkeys(items))
        self.full = False
        self.similarity = {}

    def keep(self, kept: Iterable[str], *, order_by_kept: bool = False) -> None:
        """Narrow to `kept` ∩ bus; the bus order stays unless `order_by_kept`."""
        keep = list(dict.fromkeys(kept))
        present = set(self.items)
        if order_by_kept:
            self.items = [i for i in keep if i in present]
        else:
            wanted = set(keep)
            self.items = [i for i in self.items if i in wanted]
        self.full = False

    def drop(self, items: Iterable[str]) -> None:
        gone = set(items)
        if gone & set(self.items):
            self.items = [i for i in self.items if i not in gone]
            self.full = False


class TrackRecord(Record):
    step: int
    tool: str
    input: dict[str, Any] | str
    ok: bool
    output: str
    candidates_before: int
    candidates_after: int
    error: str | None = None
    note: str | None = None


def summary(text: str) -> str:
    one = " / ".join(line.strip() for line in text.splitlines() if line.strip())
    return one if len(one) <= SUMMARY_CHARS else one[: SUMMARY_CHARS - 1] + "…"


class Tracker:
    """Every tool call of one attempt, in order (the paper's tracker, fed to the critic)."""

    def __init__(self) -> None:
        self.records: list[TrackRecord] = []
        self.last_output = ""
        # The items the last fetch showed (what the reply presents).
        self.shown: list[str] = []

    def add(self, rec: TrackRecord, full_output: str) -> None:
        self.records.append(rec)
        self.last_output = full_output

    def render(self) -> str:
        if not self.records:
            return "(no tool was called)"
        lines = []
        for r in self.records:
            status = "ok" if r.ok else f"error: {r.error}"
            lines.append(
                f"{r.step}. {r.tool} {_input_text(r.input)} -> {status}; candidates "
                f"{r.candidates_before} -> {r.candidates_after}; output: {r.output}"
            )
        return "\n".join(lines)


def _input_text(value: dict[str, Any] | str) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)

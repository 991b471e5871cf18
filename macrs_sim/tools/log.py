"""Tool-call accounting: records kept per dialogue until the dialogue is finished."""

from __future__ import annotations

import heapq
import threading

from macrs_sim.protocol import ToolCallRecord


class ToolCallLog:
    """Collects `ToolCallRecord`s grouped by dialogue, like `llm.accounting.CallLog`.

    Tools may run in worker threads, so recording takes a lock.
    """

    def __init__(self) -> None:
        self._by_dialogue: dict[str | None, list[tuple[int, ToolCallRecord]]] = {}
        self._seq = 0
        self._lock = threading.Lock()

    def record(self, rec: ToolCallRecord) -> None:
        with self._lock:
            self._seq += 1
            self._by_dialogue.setdefault(rec.dialogue_id, []).append((self._seq, rec))

    def pop(self, dialogue_id: str | None) -> list[ToolCallRecord]:
        """Remove and return `dialogue_id`'s records, in call order."""
        with self._lock:
            return [rec for _, rec in self._by_dialogue.pop(dialogue_id, [])]

    def all(self) -> list[ToolCallRecord]:
        """Every record not popped yet, in call order."""
        with self._lock:
            merged = heapq.merge(*self._by_dialogue.values(), key=lambda pair: pair[0])
            return [rec for _, rec in merged]

    def pending(self) -> int:
        with self._lock:
            return sum(len(recs) for recs in self._by_dialogue.values())

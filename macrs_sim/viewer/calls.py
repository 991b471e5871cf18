"""A dialogue's model and tool calls, read beside its dialogue: a second cursor over a
calls table in the order the dialogues are stored, merged one dialogue at a time.

    calls, tool_calls = DialogueCalls.of(store)
    for result in store.iter_results():
        mine = calls.take(result.dialogue_id)
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from macrs_sim.protocol import LLMCallRecord, ToolCallRecord
from macrs_sim.store import RunStore
from macrs_sim.store.read import call, decode_rows
from macrs_sim.store.rows import TOOL_COLS, tool_record

# Call fields the dialogue already says (its id and system) are left out of each call.
_CALL_SKIP = {"dialogue_id", "system"}
# A table in a format 1 store (absent from one made before tool calls), a view in format 2.
_HAS_TOOLS = "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = 'tool_calls'"


class DialogueCalls:
    """Each dialogue's model (or tool) calls as plain dicts (every field of the record but
    the two skipped), handed out one dialogue at a time as the dialogues are read.

    Read field by field rather than with model_dump: a large run has ~50 calls a dialogue,
    and this is several times faster; the fields are JSON values (a tool's `input` a dict).
    """

    def __init__(self, records: Iterator[LLMCallRecord | ToolCallRecord]) -> None:
        self._records = records
        self._fields: list[str] | None = None
        self._pending = next(records, None)

    def take(self, dialogue_id: str) -> list[dict[str, Any]]:
        """The calls of `dialogue_id`: the next dialogue of the order they are read in."""
        found: list[dict[str, Any]] = []
        while self._pending is not None and self._pending.dialogue_id == dialogue_id:
            rec = self._pending
            if self._fields is None:
                self._fields = [f for f in type(rec).model_fields if f not in _CALL_SKIP]
            found.append({f: getattr(rec, f) for f in self._fields})
            self._pending = next(self._records, None)
        return found

    @classmethod
    def of(cls, store: RunStore) -> tuple[DialogueCalls, DialogueCalls]:
        """The store's model calls and tool calls, each in the dialogues' store order."""
        llm = store.calls_in_dialogue_order("llm_calls", list(LLMCallRecord.model_fields))
        tools: Iterable[sqlite3.Row] = ()
        if store.query(_HAS_TOOLS).fetchone() is not None:
            columns = [c.strip() for c in TOOL_COLS.split(",")]
            tools = store.calls_in_dialogue_order("tool_calls", columns)
        return (
            cls(decode_rows(store.path, "llm_calls", llm, lambda r: r["id"], call)),
            cls(decode_rows(store.path, "tool_calls", tools, lambda r: r["id"], tool_record)),
        )

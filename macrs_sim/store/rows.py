"""The run store's rows: records to rows of format 2's tables (format.py) and back.

Kept apart from `run_store.py` (the RunStore's transactions and queries) so each stays small.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from macrs_sim.protocol import DialogueResult, LLMCallRecord, ToolCallRecord
from macrs_sim.store.stream import iter_results

CALL_COLS = ", ".join(LLMCallRecord.model_fields)
TOOL_COLS = "dialogue_id, system, role, turn, tool, input_json, output_chars, latency_s, ok, error"
# Format 2's tables (format.py): a call's dialogue and names are keys, looked up here.
_LABEL = "(SELECT id FROM labels WHERE text = ?)"
INSERT_CALL = (
    "INSERT INTO call_rows (dialogue, other_dialogue, system, role, turn, model, prompt_tokens,"
    " completion_tokens, latency_s, cached, ok, error)"
    f" VALUES (?, ?, {_LABEL}, {_LABEL}, ?, {_LABEL}, ?, ?, ?, ?, ?, ?)"
)
INSERT_TOOL_CALL = (
    "INSERT INTO tool_rows (dialogue, other_dialogue, system, role, turn, tool, input_json,"
    f" output_chars, latency_s, ok, error) VALUES (?, ?, {_LABEL}, {_LABEL}, ?, {_LABEL},"
    " ?, ?, ?, ?, ?)"
)
TURN_COLS = (
    "dialogue, turn, act, system_text, items_json, explain_json, user_text, accepted,"
    " leak_retries, redacted, ended"
)
# Pydantic serializes what plain json cannot (tuples, models, enums) in event payloads.
JSON_DICT = TypeAdapter(dict[str, Any])


def compact_json(value: Any) -> str:
    """JSON without the spaces after separators, read back the same: 7% of a turn's JSON
    (measured: a scripted MACRS turn's explain, 565 -> 526 bytes)."""
    return json.dumps(value, separators=(",", ":"))


def set_meta(conn: sqlite3.Connection, meta: Mapping[str, str]) -> None:
    conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", meta.items())


def insert_dialogue(
    conn: sqlite3.Connection, result: DialogueResult, calls: Sequence[LLMCallRecord]
) -> None:
    row = result.model_dump(mode="json")
    exchanges = row.pop("exchanges")
    row["opening_json"] = compact_json(row.pop("opening"))
    row["final_list_json"] = compact_json(row.pop("final_list"))
    row["turns_taken"] = result.turns_taken
    cols, params = ", ".join(row), ", ".join(f":{c}" for c in row)
    key = conn.execute(f"INSERT INTO dialogues ({cols}) VALUES ({params})", row).lastrowid
    turns = [turn_row(int(key or 0), ex) for ex in exchanges]
    conn.executemany(f"INSERT INTO turn_rows ({TURN_COLS}) VALUES ({', '.join('?' * 11)})", turns)
    insert_calls(conn, calls)


def _dialogue_keys(
    conn: sqlite3.Connection, ids: Iterable[str | None]
) -> Callable[[str | None], tuple[int | None, str | None]]:
    """A call's (dialogue key, other_dialogue) from its dialogue id: the key of a stored
    dialogue, else the id as text (a dialogue the store does not hold)."""
    keys: dict[str, int] = {}
    for dialogue_id in {i for i in ids if i is not None}:
        row = conn.execute("SELECT id FROM dialogues WHERE dialogue_id = ?", (dialogue_id,))
        found = row.fetchone()
        if found is not None:
            keys[dialogue_id] = int(found[0])

    def ref(dialogue_id: str | None) -> tuple[int | None, str | None]:
        if dialogue_id is None:
            return None, None
        key = keys.get(dialogue_id)
        return (key, None) if key is not None else (None, dialogue_id)

    return ref


def _add_labels(conn: sqlite3.Connection, names: Iterable[str | None]) -> None:
    rows = [(n,) for n in dict.fromkeys(names) if n is not None]  # keys in first-use order
    conn.executemany("INSERT OR IGNORE INTO labels (text) VALUES (?)", rows)


def insert_calls(conn: sqlite3.Connection, calls: Sequence[LLMCallRecord]) -> None:
    """Model calls, inside the caller's transaction."""
    ref = _dialogue_keys(conn, (c.dialogue_id for c in calls))
    _add_labels(conn, (n for c in calls for n in (c.system, c.role, c.model)))
    rows = [
        (*ref(c.dialogue_id), c.system, c.role, c.turn, c.model, c.prompt_tokens,
         c.completion_tokens, c.latency_s, c.cached, c.ok, c.error)
        for c in calls
    ]  # fmt: skip
    conn.executemany(INSERT_CALL, rows)


def insert_tool_calls(conn: sqlite3.Connection, calls: Sequence[ToolCallRecord]) -> None:
    """Tool calls, inside the caller's transaction."""
    ref = _dialogue_keys(conn, (c.dialogue_id for c in calls))
    _add_labels(conn, (n for c in calls for n in (c.system, c.role, c.tool)))
    conn.executemany(INSERT_TOOL_CALL, [(*ref(c.dialogue_id), *tool_row(c)[1:]) for c in calls])


def tool_row(rec: ToolCallRecord) -> tuple[Any, ...]:
    return (
        rec.dialogue_id, rec.system, rec.role, rec.turn, rec.tool,
        JSON_DICT.dump_json(rec.input).decode(), rec.output_chars, rec.latency_s, rec.ok,
        rec.error,
    )  # fmt: skip


def tool_record(row: sqlite3.Row) -> ToolCallRecord:
    data = dict(row)
    data.pop("id", None)
    data["input"] = json.loads(data.pop("input_json"))
    return ToolCallRecord.model_validate(data)


def turn_row(dialogue: int, ex: dict[str, Any]) -> tuple[Any, ...]:
    """One `turn_rows` row (of the dialogue keyed `dialogue`) from an Exchange dumped with
    mode="json"."""
    s, u = ex["system"], ex["user"]
    return (
        dialogue, ex["turn"], s["act"], s["text"], compact_json(s["items"]),
        compact_json(s["explain"]), u["text"], u["accepted"], u["leak_retries"], u["redacted"],
        u["ended"],
    )  # fmt: skip


def read_results(conn: sqlite3.Connection, path: Path, system: str | None) -> list[DialogueResult]:
    """The stored dialogues (of `system`, or all) with their turns, in the order written."""
    return list(iter_results(conn, path, system))

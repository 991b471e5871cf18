"""The run store's tables and rows: the schema, and records to rows and back.

Kept apart from `store.py` (the RunStore's transactions and queries) so each stays small.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter

from macrs_sim.protocol import DialogueResult, LLMCallRecord, ToolCallRecord
from macrs_sim.store_stream import iter_results

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE samples (sample_id TEXT PRIMARY KEY, json TEXT NOT NULL);
CREATE TABLE dialogues (
    dialogue_id TEXT PRIMARY KEY, system TEXT NOT NULL, sample_id TEXT NOT NULL,
    target_id TEXT NOT NULL, status TEXT NOT NULL, success_turn INTEGER,
    turns_taken INTEGER NOT NULL, max_turns INTEGER NOT NULL, error TEXT,
    leaks INTEGER NOT NULL, opening_json TEXT NOT NULL, final_list_json TEXT NOT NULL);
CREATE TABLE turns (
    dialogue_id TEXT NOT NULL REFERENCES dialogues(dialogue_id) ON DELETE CASCADE,
    turn INTEGER NOT NULL, act TEXT NOT NULL, system_text TEXT NOT NULL,
    items_json TEXT NOT NULL, explain_json TEXT NOT NULL, user_text TEXT NOT NULL,
    accepted INTEGER NOT NULL, leak_retries INTEGER NOT NULL, redacted INTEGER NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (dialogue_id, turn));
CREATE TABLE llm_calls (
    id INTEGER PRIMARY KEY AUTOINCREMENT, dialogue_id TEXT, system TEXT, role TEXT NOT NULL,
    turn INTEGER, model TEXT NOT NULL, prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL, latency_s REAL NOT NULL, cached INTEGER NOT NULL,
    ok INTEGER NOT NULL, error TEXT);
CREATE INDEX llm_calls_dialogue ON llm_calls(dialogue_id);
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, ts REAL NOT NULL, kind TEXT NOT NULL,
    json TEXT NOT NULL);
"""
# Added after format 1 shipped: `open` adds it to older stores; their turns never ended.
ENDED_COLUMN = "ALTER TABLE turns ADD COLUMN ended INTEGER NOT NULL DEFAULT 0"
# Added after format 1 shipped: `open` creates it in older stores (IF NOT EXISTS).
TOOL_SCHEMA = """
CREATE TABLE IF NOT EXISTS tool_calls (
    id INTEGER PRIMARY KEY AUTOINCREMENT, dialogue_id TEXT, system TEXT, role TEXT NOT NULL,
    turn INTEGER, tool TEXT NOT NULL, input_json TEXT NOT NULL, output_chars INTEGER NOT NULL,
    latency_s REAL NOT NULL, ok INTEGER NOT NULL, error TEXT);
CREATE INDEX IF NOT EXISTS tool_calls_dialogue ON tool_calls(dialogue_id);
"""

CALL_COLS = ", ".join(LLMCallRecord.model_fields)
INSERT_CALL = (
    f"INSERT INTO llm_calls ({CALL_COLS}) "
    f"VALUES ({', '.join(':' + c for c in LLMCallRecord.model_fields)})"
)
TOOL_COLS = "dialogue_id, system, role, turn, tool, input_json, output_chars, latency_s, ok, error"
INSERT_TOOL_CALL = f"INSERT INTO tool_calls ({TOOL_COLS}) VALUES ({', '.join('?' * 10)})"
TURN_COLS = (
    "dialogue_id, turn, act, system_text, items_json, explain_json, user_text, accepted,"
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
    turns = [turn_row(result.dialogue_id, ex) for ex in exchanges]
    cols, params = ", ".join(row), ", ".join(f":{c}" for c in row)
    conn.execute(f"INSERT INTO dialogues ({cols}) VALUES ({params})", row)
    conn.executemany(f"INSERT INTO turns ({TURN_COLS}) VALUES ({', '.join('?' * 11)})", turns)
    conn.executemany(INSERT_CALL, [c.model_dump() for c in calls])


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


def turn_row(dialogue_id: str, ex: dict[str, Any]) -> tuple[Any, ...]:
    """One `turns` row from an Exchange dumped with mode="json"."""
    s, u = ex["system"], ex["user"]
    return (
        dialogue_id, ex["turn"], s["act"], s["text"], compact_json(s["items"]),
        compact_json(s["explain"]), u["text"], u["accepted"], u["leak_retries"], u["redacted"],
        u["ended"],
    )  # fmt: skip


def read_results(conn: sqlite3.Connection, path: Path, system: str | None) -> list[DialogueResult]:
    """The stored dialogues (of `system`, or all) with their turns, in the order written."""
    return list(iter_results(conn, path, system))

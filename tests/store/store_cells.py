"""Damaging one cell of a run store in tests, through format 2's tables (macrs_sim/store/format.py):
the views `turns`, `llm_calls` and `tool_calls` cannot be written."""

from __future__ import annotations

import sqlite3

_LABELS = {"system", "role", "model", "tool"}
_TABLES = {"llm_calls": "call_rows", "tool_calls": "tool_rows"}


def set_call_cell(
    conn: sqlite3.Connection, table: str, column: str, value: object, where: str = "1"
) -> int:
    """Set `column` of the `table` ("llm_calls" or "tool_calls") rows matching `where` to
    `value`; a name column points at a new label holding it. Returns the rows changed."""
    rows = _TABLES[table]
    if column in _LABELS:
        key = conn.execute("INSERT INTO labels (text) VALUES (?)", (value,)).lastrowid
        return conn.execute(f"UPDATE {rows} SET {column} = ? WHERE {where}", (key,)).rowcount
    return conn.execute(f"UPDATE {rows} SET {column} = ? WHERE {where}", (value,)).rowcount


def set_turn_cell(
    conn: sqlite3.Connection, column: str, value: object, dialogue_id: str | None, turn: int
) -> int:
    """Set `column` of turn `turn` of `dialogue_id` (of every dialogue when None)."""
    sql = f"UPDATE turn_rows SET {column} = ? WHERE turn = ?"
    args: tuple[object, ...] = (value, turn)
    if dialogue_id is not None:
        sql += " AND dialogue = (SELECT id FROM dialogues WHERE dialogue_id = ?)"
        args += (dialogue_id,)
    return conn.execute(sql, args).rowcount


def delete_dialogue(conn: sqlite3.Connection, dialogue_id: str) -> None:
    """Remove a dialogue, its turns and its calls, as if it had never been written."""
    key = "(SELECT id FROM dialogues WHERE dialogue_id = ?)"
    for table in ("turn_rows", "call_rows", "tool_rows"):
        conn.execute(f"DELETE FROM {table} WHERE dialogue = {key}", (dialogue_id,))
    conn.execute("DELETE FROM dialogues WHERE dialogue_id = ?", (dialogue_id,))

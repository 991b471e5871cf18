"""Old run stores for tests: a format 2 store rewritten as format 1, as an older macrs-sim
left it (optionally from before `tool_calls`, or before `turns.ended`)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from macrs_sim.store.format import SCHEMA_V1, statements

_V1_TABLES = ("dialogues", "turns", "llm_calls", "tool_calls")
_COPY = """
INSERT INTO v1_dialogues (rowid, dialogue_id, system, sample_id, target_id, status,
    success_turn, turns_taken, max_turns, error, leaks, opening_json, final_list_json)
SELECT id, dialogue_id, system, sample_id, target_id, status, success_turn, turns_taken,
    max_turns, error, leaks, opening_json, final_list_json FROM dialogues;
INSERT INTO v1_turns SELECT * FROM turns;
INSERT INTO v1_llm_calls SELECT * FROM llm_calls;
INSERT INTO v1_tool_calls SELECT * FROM tool_calls;
DROP VIEW turns;
DROP VIEW llm_calls;
DROP VIEW tool_calls;
DROP TABLE turn_rows;
DROP TABLE call_rows;
DROP TABLE tool_rows;
DROP TABLE dialogues;
DROP TABLE labels;
"""


def _v1_schema() -> list[str]:
    """Format 1's tables (not meta, samples, events: those are the same) named v1_*."""
    same = ("CREATE TABLE meta ", "CREATE TABLE samples ", "CREATE TABLE events ")
    keep = [s for s in statements(SCHEMA_V1) if not s.startswith(same)]
    for table in _V1_TABLES:
        keep = [
            s.replace(f"TABLE {table} ", f"TABLE v1_{table} ").replace(
                f"ON {table}(", f"ON v1_{table}("
            )
            for s in keep
        ]
    return keep


def as_format_1(path: Path, *, tool_calls: bool = True, ended: bool = True) -> Path:
    """Rewrite the format 2 store at `path` as format 1, keeping every row and rowid."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("BEGIN")
    for sql in [*_v1_schema(), *statements(_COPY)]:
        conn.execute(sql)
    for table in _V1_TABLES:
        conn.execute(f"ALTER TABLE v1_{table} RENAME TO {table}")
    if not tool_calls:
        conn.execute("DROP TABLE tool_calls")
    if not ended:
        conn.execute("ALTER TABLE turns DROP COLUMN ended")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.execute("COMMIT")
    conn.close()
    return path

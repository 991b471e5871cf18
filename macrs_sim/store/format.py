"""The run store's file formats: format 2's tables and views, and the upgrade from format 1.

Format 1 kept a dialogue's text id in every turn and call row and in three indexes, and
each call's system, role and model as text: 17% of a scripted MACRS store (10,120 bytes a
dialogue in format 1, 8,400 in format 2). Format 2 stores each once: turns and calls point at their
dialogue by its integer key, and a call's names are keys of the `labels` table. The views
`turns`, `llm_calls` and `tool_calls` show format 1's columns (a call naming a dialogue
the store does not hold, which a campaign never writes, keeps that id as text in
`other_dialogue`), so every query written for
format 1 (ours, and a researcher's in the sqlite3 shell) reads either format unchanged;
only the writers (rows.py) know the tables behind them.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from contextlib import suppress
from pathlib import Path

from macrs_sim.errors import DataError

FORMAT = "2"

# Format 1 as it was last written (`ended` and `tool_calls` came late; a store from before
# them lacks them). Kept to read what `upgrade` copies, and to make old stores in tests.
SCHEMA_V1 = """
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
CREATE TABLE tool_calls (
    id INTEGER PRIMARY KEY AUTOINCREMENT, dialogue_id TEXT, system TEXT, role TEXT NOT NULL,
    turn INTEGER, tool TEXT NOT NULL, input_json TEXT NOT NULL, output_chars INTEGER NOT NULL,
    latency_s REAL NOT NULL, ok INTEGER NOT NULL, error TEXT);
CREATE INDEX tool_calls_dialogue ON tool_calls(dialogue_id);
"""

_TABLES = """
CREATE TABLE dialogues (
    id INTEGER PRIMARY KEY,
    dialogue_id TEXT UNIQUE, system TEXT NOT NULL, sample_id TEXT NOT NULL,
    target_id TEXT NOT NULL, status TEXT NOT NULL, success_turn INTEGER,
    turns_taken INTEGER NOT NULL, max_turns INTEGER NOT NULL, error TEXT,
    leaks INTEGER NOT NULL, opening_json TEXT NOT NULL, final_list_json TEXT NOT NULL);
CREATE TABLE labels (id INTEGER PRIMARY KEY, text TEXT NOT NULL UNIQUE);
CREATE TABLE turn_rows (
    dialogue INTEGER NOT NULL REFERENCES dialogues(id) ON DELETE CASCADE,
    turn INTEGER NOT NULL, act TEXT NOT NULL, system_text TEXT NOT NULL,
    items_json TEXT NOT NULL, explain_json TEXT NOT NULL, user_text TEXT NOT NULL,
    accepted INTEGER NOT NULL, leak_retries INTEGER NOT NULL, redacted INTEGER NOT NULL,
    ended INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (dialogue, turn));
CREATE TABLE call_rows (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    dialogue INTEGER REFERENCES dialogues(id) ON DELETE SET NULL,
    system INTEGER REFERENCES labels(id), role INTEGER NOT NULL REFERENCES labels(id),
    turn INTEGER, model INTEGER NOT NULL REFERENCES labels(id), prompt_tokens INTEGER NOT NULL,
    completion_tokens INTEGER NOT NULL, latency_s REAL NOT NULL, cached INTEGER NOT NULL,
    ok INTEGER NOT NULL, error TEXT, other_dialogue TEXT);
CREATE INDEX call_rows_dialogue ON call_rows(dialogue);
CREATE TABLE tool_rows (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    dialogue INTEGER REFERENCES dialogues(id) ON DELETE SET NULL,
    system INTEGER REFERENCES labels(id), role INTEGER NOT NULL REFERENCES labels(id),
    turn INTEGER, tool INTEGER NOT NULL REFERENCES labels(id), input_json TEXT NOT NULL,
    output_chars INTEGER NOT NULL, latency_s REAL NOT NULL, ok INTEGER NOT NULL, error TEXT,
    other_dialogue TEXT);
CREATE INDEX tool_rows_dialogue ON tool_rows(dialogue);
"""

# Format 1's columns, in its order, over format 2's tables.
VIEWS = """
CREATE VIEW turns AS SELECT d.dialogue_id AS dialogue_id, t.turn AS turn, t.act AS act,
    t.system_text AS system_text, t.items_json AS items_json, t.explain_json AS explain_json,
    t.user_text AS user_text, t.accepted AS accepted, t.leak_retries AS leak_retries,
    t.redacted AS redacted, t.ended AS ended
FROM turn_rows t JOIN dialogues d ON d.id = t.dialogue;
CREATE VIEW llm_calls AS SELECT c.id AS id,
    COALESCE(d.dialogue_id, c.other_dialogue) AS dialogue_id, s.text AS system,
    r.text AS role, c.turn AS turn, m.text AS model, c.prompt_tokens AS prompt_tokens,
    c.completion_tokens AS completion_tokens, c.latency_s AS latency_s, c.cached AS cached,
    c.ok AS ok, c.error AS error
FROM call_rows c LEFT JOIN dialogues d ON d.id = c.dialogue LEFT JOIN labels s ON s.id = c.system
    JOIN labels r ON r.id = c.role JOIN labels m ON m.id = c.model;
CREATE VIEW tool_calls AS SELECT c.id AS id,
    COALESCE(d.dialogue_id, c.other_dialogue) AS dialogue_id, s.text AS system,
    r.text AS role, c.turn AS turn, k.text AS tool, c.input_json AS input_json,
    c.output_chars AS output_chars, c.latency_s AS latency_s, c.ok AS ok, c.error AS error
FROM tool_rows c LEFT JOIN dialogues d ON d.id = c.dialogue LEFT JOIN labels s ON s.id = c.system
    JOIN labels r ON r.id = c.role JOIN labels k ON k.id = c.tool;
"""

SCHEMA = f"""
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE samples (sample_id TEXT PRIMARY KEY, json TEXT NOT NULL);
{_TABLES}
CREATE TABLE events (
    id INTEGER PRIMARY KEY AUTOINCREMENT, ts REAL NOT NULL, kind TEXT NOT NULL,
    json TEXT NOT NULL);
{VIEWS}
"""

# Format 1's tables under new names while format 2's are filled from them.
_SET_ASIDE = """
ALTER TABLE dialogues RENAME TO v1_dialogues;
ALTER TABLE turns RENAME TO v1_turns;
ALTER TABLE llm_calls RENAME TO v1_llm_calls;
DROP INDEX IF EXISTS llm_calls_dialogue;
"""
_TOOLS_ASIDE = """
ALTER TABLE tool_calls RENAME TO v1_tool_calls;
DROP INDEX IF EXISTS tool_calls_dialogue;
"""
# A store from before tool calls were recorded: an empty table to copy from.
_NO_TOOLS = """
CREATE TABLE v1_tool_calls (
    id INTEGER PRIMARY KEY, dialogue_id TEXT, system TEXT, role TEXT NOT NULL,
    turn INTEGER, tool TEXT NOT NULL, input_json TEXT NOT NULL, output_chars INTEGER NOT NULL,
    latency_s REAL NOT NULL, ok INTEGER NOT NULL, error TEXT);
"""
_COPY = """
INSERT INTO dialogues (id, dialogue_id, system, sample_id, target_id, status, success_turn,
    turns_taken, max_turns, error, leaks, opening_json, final_list_json)
SELECT rowid, dialogue_id, system, sample_id, target_id, status, success_turn, turns_taken,
    max_turns, error, leaks, opening_json, final_list_json FROM v1_dialogues ORDER BY rowid;
INSERT OR IGNORE INTO labels (text)
    SELECT system FROM v1_llm_calls WHERE system IS NOT NULL
    UNION ALL SELECT role FROM v1_llm_calls UNION ALL SELECT model FROM v1_llm_calls
    UNION ALL SELECT system FROM v1_tool_calls WHERE system IS NOT NULL
    UNION ALL SELECT role FROM v1_tool_calls UNION ALL SELECT tool FROM v1_tool_calls;
INSERT INTO turn_rows SELECT d.id, t.turn, t.act, t.system_text, t.items_json, t.explain_json,
    t.user_text, t.accepted, t.leak_retries, t.redacted, {ended}
FROM v1_turns t JOIN dialogues d ON d.dialogue_id = t.dialogue_id ORDER BY d.id, t.turn;
INSERT INTO call_rows SELECT c.id, d.id, (SELECT id FROM labels WHERE text = c.system),
    (SELECT id FROM labels WHERE text = c.role), c.turn,
    (SELECT id FROM labels WHERE text = c.model), c.prompt_tokens, c.completion_tokens,
    c.latency_s, c.cached, c.ok, c.error, {other}
FROM v1_llm_calls c LEFT JOIN dialogues d ON d.dialogue_id = c.dialogue_id ORDER BY c.id;
INSERT INTO tool_rows SELECT c.id, d.id, (SELECT id FROM labels WHERE text = c.system),
    (SELECT id FROM labels WHERE text = c.role), c.turn,
    (SELECT id FROM labels WHERE text = c.tool), c.input_json, c.output_chars, c.latency_s,
    c.ok, c.error, {other}
FROM v1_tool_calls c LEFT JOIN dialogues d ON d.dialogue_id = c.dialogue_id ORDER BY c.id;
INSERT INTO sqlite_sequence (name, seq) SELECT 'call_rows', 0
    WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'call_rows');
INSERT INTO sqlite_sequence (name, seq) SELECT 'tool_rows', 0
    WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'tool_rows');
UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT MAX(seq) FROM sqlite_sequence
    WHERE name IN ('llm_calls', 'v1_llm_calls')), 0)) WHERE name = 'call_rows';
UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE((SELECT MAX(seq) FROM sqlite_sequence
    WHERE name IN ('tool_calls', 'v1_tool_calls')), 0)) WHERE name = 'tool_rows';
DROP TABLE v1_turns;
DROP TABLE v1_llm_calls;
DROP TABLE v1_tool_calls;
DROP TABLE v1_dialogues;
UPDATE meta SET value = '2' WHERE key = 'schema_version';
"""


def statements(script: str) -> list[str]:
    """A script's statements, to run one by one (executescript would commit first)."""
    return [s.strip() for s in script.split(";") if s.strip()]


def store_format(conn: sqlite3.Connection) -> str | None:
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
    return None if row is None else str(row[0])


def _has_table(conn: sqlite3.Connection, name: str) -> bool:
    found = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"
    return conn.execute(found, (name,)).fetchone() is not None


def _upgrade_script(conn: sqlite3.Connection) -> list[str]:
    ended = any(r[1] == "ended" for r in conn.execute("PRAGMA table_info(turns)"))
    tools = _TOOLS_ASIDE if _has_table(conn, "tool_calls") else _NO_TOOLS
    other = "CASE WHEN d.id IS NULL THEN c.dialogue_id END"
    copy = _COPY.format(ended="t.ended" if ended else "0", other=other)
    return statements(_SET_ASIDE + tools + _TABLES + copy + VIEWS)


def upgrade(conn: sqlite3.Connection) -> None:
    """Rewrite a format 1 store as format 2, in one transaction: a store is either format,
    never half of each. Raises sqlite3.OperationalError (rolled back) when the file cannot
    be written; the caller then reads it as format 1, through the same names. Row ids are
    kept: dialogues' rowids (the order written) and calls' ids.

    A call naming a dialogue the store does not hold keeps that id in `other_dialogue`;
    an id counter goes on from where format 1's stopped. A turn of no stored dialogue
    (only a hand-edited store has one: foreign keys forbid it) is not copied: no reader
    ever saw it.
    """
    conn.execute("PRAGMA foreign_keys=OFF")  # tables are renamed and dropped mid-copy
    # A rename must not rewrite the views a researcher made on the old tables: they name
    # `llm_calls` etc., which are format 2's views once the upgrade is done.
    conn.execute("PRAGMA legacy_alter_table=ON")
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            for sql in _upgrade_script(conn):
                conn.execute(sql)
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    finally:
        conn.execute("PRAGMA legacy_alter_table=OFF")
    # Format 1's pages are free now: give them back, or the file stays the size of both.
    with suppress(sqlite3.OperationalError):  # no room for the copy: the store is sound
        conn.execute("VACUUM")


# What each name format 1 had counts, without the views' joins.
_ROWS = {"dialogues": "dialogues", "turns": "turn_rows", "llm_calls": "call_rows",
         "tool_calls": "tool_rows"}  # fmt: skip


def count_sql(version: str, name: str) -> str:
    """SQL counting the rows of `name` (dialogues, turns, llm_calls or tool_calls)."""
    return f"SELECT COUNT(*) FROM {name if version == '1' else _ROWS[name]}"


def calls_in_dialogue_order(version: str, name: str, columns: Sequence[str]) -> str:
    """SQL: the calls of stored dialogues (`name` = llm_calls or tool_calls; its `id` and
    `columns`), in the order their dialogues were written and then by id, read along the
    index on the dialogue (format 2's `dialogue` is the dialogue's rowid): no sort."""
    if version == "1":
        cols = ", ".join(f"c.{c}" for c in ("id", *columns))
        return (
            f"SELECT {cols} FROM {name} c JOIN dialogues d USING (dialogue_id)"
            " ORDER BY d.rowid, c.id"
        )
    cols = ", ".join(f"v.{c}" for c in ("id", *columns))
    return (
        f"SELECT {cols} FROM {_ROWS[name]} r JOIN {name} v ON v.id = r.id"
        " WHERE r.dialogue IS NOT NULL ORDER BY r.dialogue, r.id"
    )


def upgraded(path: Path, conn: sqlite3.Connection) -> bool:
    """Rewrite a format 1 store as format 2. A file that cannot be written (a read-only
    copy) is read as format 1 (False when it is also too old for tool calls); one that is
    busy, full or otherwise cannot take the rewrite is a DataError, the file unchanged
    (schema.py has checked first that the names format 2 adds are free)."""
    try:
        upgrade(conn)
    except sqlite3.OperationalError as exc:
        error = getattr(exc, "sqlite_errorname", "")
        if not error.startswith("SQLITE_READONLY"):
            raise DataError(
                f"{path}: run store format 1 could not be rewritten as format 2 ({exc}); "
                f"nothing was changed{_UPGRADE_ADVICE.get(error.removeprefix('SQLITE_'), '')}"
            ) from None
        has = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tool_calls'"
        return conn.execute(has).fetchone() is not None
    return True


# What to do when the rewrite failed, by SQLite's error code (SQLITE_BUSY -> "BUSY").
_IN_USE = ": run again once no other macrs-sim uses it"
_UPGRADE_ADVICE = {
    "BUSY": _IN_USE,
    "LOCKED": _IN_USE,
    "FULL": ": free some disk space and run again",
}

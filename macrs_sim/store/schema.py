"""What a reader relies on in a run store, checked when the store is opened.

A store is a file anyone can edit: a dropped table, a view replaced by one of other
columns, a view whose table is gone would otherwise end `report` or `view` as an
`sqlite3.OperationalError` traceback mid-way. The tables and views each format holds, and
their columns, are those of format.py's own scripts (made once in memory, so the check
never drifts from what the store writes). A store may hold more (a researcher's own
tables, views and columns); it may not lack one of ours.

A format 1 store is rewritten as format 2 on open (format.py): names format 2 adds must
then be free, so a researcher's own table called `labels` is named before anything is
changed.
"""

from __future__ import annotations

import sqlite3
from functools import cache

from macrs_sim.store.format import SCHEMA, SCHEMA_V1

# A format 1 store from before tool calls were recorded has no `tool_calls`, and one from
# before `ended` lacks that column of `turns`: both are read as they are.
_V1_OPTIONAL = frozenset({"tool_calls", "turns.ended"})
# Names the upgrade to format 2 creates (format.py): taken by a store's own object, the
# upgrade cannot run.
UPGRADE_NAMES = (
    "labels", "turn_rows", "call_rows", "tool_rows", "call_rows_dialogue",
    "tool_rows_dialogue", "v1_dialogues", "v1_turns", "v1_llm_calls", "v1_tool_calls",
)  # fmt: skip

Shape = dict[str, tuple[str, tuple[str, ...]]]  # name -> (table or view, its columns)


def _columns(conn: sqlite3.Connection, name: str) -> tuple[str, ...]:
    cursor = conn.execute(f'SELECT * FROM "{name}" LIMIT 0')  # a view's tables are read too
    return tuple(d[0] for d in cursor.description)


def _shape(conn: sqlite3.Connection) -> Shape:
    found = "SELECT name, type FROM sqlite_master WHERE type IN ('table', 'view')"
    names = [(str(r[0]), str(r[1])) for r in conn.execute(found)]
    return {n: (t, _columns(conn, n)) for n, t in names if not n.startswith("sqlite_")}


@cache
def expected(version: str) -> Shape:
    """The tables and views of format `version` ("1" or "2") with their columns."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA_V1 if version == "1" else SCHEMA)
        return _shape(conn)
    finally:
        conn.close()


def _problem(conn: sqlite3.Connection, name: str, kind: str, columns: tuple[str, ...]) -> str:
    row = conn.execute("SELECT type FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    if row is None:
        return f"{kind} {name} is missing"
    if row[0] != kind:
        return f"{name} is a {row[0]}, not the {kind} the store needs"
    try:
        have = _columns(conn, name)
    except sqlite3.DatabaseError as exc:
        return f"{kind} {name} cannot be read ({exc})"
    lacking = [c for c in columns if c not in have]
    return f"{kind} {name} lacks column {', '.join(lacking)}" if lacking else ""


def schema_problems(conn: sqlite3.Connection, version: str) -> list[str]:
    """What the store lacks of format `version`, one phrase each; [] for a sound one."""
    problems = []
    for name, (kind, columns) in expected(version).items():
        optional = version == "1" and name in _V1_OPTIONAL
        if optional and not _exists(conn, name):
            continue
        if version == "1":
            columns = tuple(c for c in columns if f"{name}.{c}" not in _V1_OPTIONAL)
        found = _problem(conn, name, kind, columns)
        if found:
            problems.append(found)
    return problems


def _exists(conn: sqlite3.Connection, name: str) -> bool:
    row = conn.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)).fetchone()
    return row is not None


def taken_names(conn: sqlite3.Connection) -> list[str]:
    """Names the upgrade to format 2 needs that a format 1 store already uses."""
    return [name for name in UPGRADE_NAMES if _exists(conn, name)]

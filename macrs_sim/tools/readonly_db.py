"""A read-only, time- and size-limited connection to the dataset database.

Three locks, so that one mistake is not enough to change the file: the file is opened with
`mode=ro`, `query_only` is on, and an authorizer refuses every action but reading (writes,
ATTACH, DDL, transactions, pragmas other than schema look-ups).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from macrs_sim.tools.args import ToolInputError, first_line

_ALLOWED = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION}
_ALLOWED.add(getattr(sqlite3, "SQLITE_RECURSIVE", 33))
# Pragmas that only describe the schema (as statements or table-valued functions).
_SCHEMA_PRAGMAS = {
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
    "foreign_key_list",
}  # fmt: skip
# No single value may grow past this (randomblob/zeroblob/printf bombs).
_MAX_VALUE_BYTES = 1_000_000
# VM instructions between two clock checks: cheap, and a few ms at most between checks.
_PROGRESS_STEPS = 2_000


def _authorizer(hidden: frozenset[str]) -> Callable[..., int]:
    def authorize(action: int, arg1: str | None, arg2: str | None, *_: str | None) -> int:
        if action == sqlite3.SQLITE_READ and (arg1 or "").lower() in hidden:
            return sqlite3.SQLITE_DENY
        if action in _ALLOWED:
            return sqlite3.SQLITE_OK
        if action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() in _SCHEMA_PRAGMAS:
            return sqlite3.SQLITE_OK
        return sqlite3.SQLITE_DENY

    return authorize


def open_readonly(path: Path, hidden_tables: Iterable[str] = ()) -> sqlite3.Connection:
    """`hidden_tables` cannot be read at all (any column, COUNT(*), joins)."""
    if not path.is_file():
        raise ToolInputError(f"database {path} not found")
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    conn.execute("PRAGMA query_only = ON")
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_VALUE_BYTES)
    conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    conn.set_authorizer(_authorizer(frozenset(t.lower() for t in hidden_tables)))
    return conn


def query(
    path: Path,
    sql: str,
    params: tuple[Any, ...] = (),
    *,
    max_rows: int,
    time_limit_s: float,
    hidden_tables: Iterable[str] = (),
) -> tuple[list[str], list[tuple[Any, ...]], bool]:
    """Columns, up to `max_rows` rows, and whether more rows were left unread."""
    conn = open_readonly(path, hidden_tables)
    deadline = time.monotonic() + time_limit_s
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
    try:
        cur = conn.execute(sql, params)
        columns = [d[0] for d in cur.description or ()]
        rows = cur.fetchmany(max_rows + 1)
    except (sqlite3.Error, sqlite3.Warning) as err:
        raise ToolInputError(_explain(err, time_limit_s)) from None
    finally:
        conn.close()
    return columns, rows[:max_rows], len(rows) > max_rows


def _explain(err: Exception, time_limit_s: float) -> str:
    message = first_line(err)
    if "interrupted" in message:
        return f"the query ran past the time limit of {time_limit_s:g} s and was stopped"
    if any(
        w in message for w in ("not authorized", "authorization denied", "prohibited", "readonly")
    ):
        return f"refused: only SELECT queries over the listed tables are allowed ({message})"
    return f"SQL error: {message}"

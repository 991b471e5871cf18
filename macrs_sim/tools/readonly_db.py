"""A read-only, time- and size-limited connection to the dataset database.

Three locks, so that one mistake is not enough to change the file: the file is opened with
`mode=ro`, `query_only` is on, and an authorizer refuses every action but reading (writes,
ATTACH, DDL, transactions, pragmas other than schema look-ups).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from macrs_sim.tools.args import ToolInputError, first_line
from macrs_sim.tools.sql_guard import PrintfGuard

_ALLOWED = {sqlite3.SQLITE_SELECT, sqlite3.SQLITE_READ, sqlite3.SQLITE_FUNCTION}
_ALLOWED.add(getattr(sqlite3, "SQLITE_RECURSIVE", 33))
# Pragmas that only describe the schema (as statements or table-valued functions).
_SCHEMA_PRAGMAS = {
    "table_info", "table_xinfo", "table_list", "index_list", "index_info", "index_xinfo",
    "foreign_key_list",
}  # fmt: skip
# No single value may grow past this (randomblob/zeroblob/printf bombs).
_MAX_VALUE_BYTES = 1_000_000
# Query text and LIKE/GLOB patterns: far above any question about a catalog.
_MAX_SQL_CHARS = 100_000
_MAX_PATTERN_CHARS = 1_000
# VM instructions between two clock checks: cheap, and a few ms at most between checks.
_PROGRESS_STEPS = 2_000
# After an interrupt, how long the worker may take to stop before it is left behind.
_STOP_GRACE_S = 0.1


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
    uri = f"{path.resolve().as_uri()}?mode=ro"
    # Opened here, used by the worker thread of `query`, interrupted from here.
    conn = sqlite3.connect(uri, uri=True, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA query_only = ON")
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, _MAX_VALUE_BYTES)
    conn.setlimit(sqlite3.SQLITE_LIMIT_SQL_LENGTH, _MAX_SQL_CHARS)
    conn.setlimit(sqlite3.SQLITE_LIMIT_LIKE_PATTERN_LENGTH, _MAX_PATTERN_CHARS)
    conn.setlimit(sqlite3.SQLITE_LIMIT_ATTACHED, 0)
    conn.set_authorizer(_authorizer(frozenset(t.lower() for t in hidden_tables)))
    return conn


class _Answer:
    """What the worker thread leaves: rows, or the error it met."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.columns: list[str] = []
        self.rows: list[tuple[Any, ...]] = []
        self.error: Exception | None = None


def _work(
    conn: sqlite3.Connection, guard: PrintfGuard, sql: str, params: tuple[Any, ...], rows: int,
    answer: _Answer,
) -> None:  # fmt: skip
    try:
        cur = conn.execute(sql, params)
        answer.columns = [d[0] for d in cur.description or ()]
        answer.rows = cur.fetchmany(rows)
    except Exception as err:
        answer.error = err
    finally:
        conn.close()
        guard.close()
        answer.done.set()


def query(
    path: Path,
    sql: str,
    params: tuple[Any, ...] = (),
    *,
    max_rows: int,
    time_limit_s: float,
    hidden_tables: Iterable[str] = (),
) -> tuple[list[str], list[tuple[Any, ...]], bool]:
    """Columns, up to `max_rows` rows, and whether more rows were left unread.

    The query runs in a worker thread; at `time_limit_s` it is interrupted and the call
    answers, whatever the query does. A single step that no interrupt reaches (one call
    of a slow function) is left to finish in the background, its result thrown away.
    """
    conn = open_readonly(path, hidden_tables)
    guard = PrintfGuard(_MAX_VALUE_BYTES)
    guard.install(conn)
    deadline = time.monotonic() + time_limit_s
    conn.set_progress_handler(lambda: int(time.monotonic() > deadline), _PROGRESS_STEPS)
    answer = _Answer()
    worker = threading.Thread(
        target=_work, args=(conn, guard, sql, params, max_rows + 1, answer), daemon=True
    )
    worker.start()
    if not answer.done.wait(time_limit_s):
        with contextlib.suppress(sqlite3.ProgrammingError):  # closed meanwhile: it finished
            conn.interrupt()
        if not answer.done.wait(_STOP_GRACE_S):
            raise ToolInputError(_time_message(time_limit_s))
    if isinstance(answer.error, sqlite3.Error | sqlite3.Warning):
        raise ToolInputError(guard.refused or _explain(answer.error, time_limit_s))
    if answer.error is not None:
        raise answer.error
    rows = answer.rows
    return answer.columns, rows[:max_rows], len(rows) > max_rows


def _time_message(time_limit_s: float) -> str:
    return f"the query ran past the time limit of {time_limit_s:g} s and was stopped"


def _explain(err: Exception, time_limit_s: float) -> str:
    message = first_line(err)
    if "interrupted" in message:
        return _time_message(time_limit_s)
    if any(
        w in message for w in ("not authorized", "authorization denied", "prohibited", "readonly")
    ):
        return f"refused: only SELECT queries over the listed tables are allowed ({message})"
    return f"SQL error: {message}"

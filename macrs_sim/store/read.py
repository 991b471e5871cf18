"""Reading a run store back: every row decoded or one DataError naming the store, the
table and the row; the values the store itself writes into `meta` checked as they are read.

A store is a file anyone can edit or damage; what comes out of it must not end as a
traceback in `report` or `view`, nor carry control characters into a message.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from pydantic import ValidationError

from macrs_sim.errors import DataError
from macrs_sim.protocol import LLMCallRecord


@dataclass(frozen=True)
class StoredEvent:
    ts: float
    kind: str
    payload: dict[str, Any]


T = TypeVar("T")
# What the store itself writes into `meta`, checked when read back: JSON values, the run's
# status (campaign.resume.RunStatus, plus "running" while it runs), a count.
JSON_META = frozenset(
    {"systems", "system_history", "protocol_limits", "prompt_layouts", "prompt_sha256", "chat"}
)
RUN_STATUSES = ("running", "finished", "stopped_budget", "incomplete")
_UNDECODABLE = re.compile(r"Could not decode to UTF-8 column '([^']*)'")


def plain(text: object, limit: int = 80) -> str:
    """One printable line of at most `limit` characters: a damaged cell may hold anything."""
    line = "".join(c if c.isprintable() else "?" for c in str(text))
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _why(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors(include_url=False)[0]
        where = ".".join(str(part) for part in first["loc"])
        return f"{where}: {first['msg']}" if where else str(first["msg"])
    undecodable = _UNDECODABLE.search(str(exc))
    if undecodable:
        return f"column {undecodable.group(1)} holds text that is not UTF-8"
    return str(exc)


def damaged(path: Path, table: str, row: str, exc: Exception | str) -> DataError:
    why = exc if isinstance(exc, str) else _why(exc)
    return DataError(
        f"{path}: damaged run store: table {table}, row {plain(row)}: {plain(why, 160)}"
    )


def decode_rows(
    path: Path,
    table: str,
    rows: Iterable[sqlite3.Row],
    key: Callable[[sqlite3.Row], object],
    build: Callable[[sqlite3.Row], T],
) -> Iterator[T]:
    """`build` of each row; a row that cannot be read or built is one DataError naming the
    store, the table and the row (by `key`, or the row before it if SQLite cannot hand
    it over at all)."""
    found, last = iter(rows), None
    while True:
        try:
            row = next(found)
        except StopIteration:
            return
        except sqlite3.DatabaseError as exc:
            raise damaged(path, table, "first" if last is None else f"after {last}", exc) from None
        last = str(key(row))
        try:
            built = build(row)
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            # RecursionError: JSON nested past the parser's depth (a hostile cell)
            raise damaged(path, table, last, exc) from None
        yield built


def check_meta(path: Path, key: str, value: str) -> str:
    """`value` if it is what the store wrote under `key`, else a DataError."""
    problem = None
    if key in JSON_META:
        try:
            json.loads(value)
        except ValueError as exc:
            problem = f"not JSON ({exc})"
    elif key == "status" and value not in RUN_STATUSES:
        problem = f"unknown run status {value!r} (known: {', '.join(RUN_STATUSES)})"
    elif key == "expected_dialogues" and not (value.isascii() and value.isdigit()):
        problem = f"not a count of dialogues: {value!r}"
    if problem is not None:
        raise damaged(path, "meta", key, problem)
    return value


def event(row: sqlite3.Row) -> StoredEvent:
    payload = json.loads(row["json"])
    if not isinstance(payload, dict):
        raise ValueError("the payload is not a JSON object")
    return StoredEvent(float(row["ts"]), str(row["kind"]), payload)


def call(row: sqlite3.Row) -> LLMCallRecord:
    data = dict(row)
    data.pop("id", None)
    return LLMCallRecord.model_validate(data)


def integrity_problem(conn: sqlite3.Connection) -> str | None:
    """What SQLite's quick check finds wrong with the file's pages, in one line; None if ok."""
    try:
        row = conn.execute("PRAGMA quick_check").fetchone()
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None if row[0] == "ok" else " ".join(str(row[0]).split())

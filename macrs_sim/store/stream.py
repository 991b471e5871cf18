"""Reading dialogues back one at a time, in the order they were written.

A report on a million dialogues must not hold them all: `iter_results` walks the
`dialogues` and `turns` tables side by side (both ordered by the dialogue's rowid) and
yields each DialogueResult as soon as its turns are read, so memory holds one dialogue.
`iter_calls` does the same for a table of calls keyed by dialogue.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from macrs_sim.protocol import DialogueResult
from macrs_sim.store.read import damaged, decode_rows

T = TypeVar("T")
DIALOGUE_COLS = (
    "dialogue_id, system, sample_id, target_id, status, success_turn, max_turns, error, leaks"
)


def exchange(t: sqlite3.Row) -> dict[str, Any]:
    """An Exchange (as validation input) from a `turns` row; 0/1 columns validate as bools."""
    items, explain = json.loads(t["items_json"]), json.loads(t["explain_json"])
    system = {"act": t["act"], "text": t["system_text"], "items": items, "explain": explain}
    user = {k: t[k] for k in ("accepted", "leak_retries", "redacted")} | {"text": t["user_text"]}
    if "ended" in t.keys():  # noqa: SIM118 (a Row's `in` looks at values)
        user["ended"] = t["ended"]
    return {"turn": t["turn"], "system": system, "user": user}


def _turn_key(t: sqlite3.Row) -> str:
    return f"{t['dialogue_id']} turn {t['turn']}"


def _where(
    system: str | None, ids: Sequence[str] | None, upto: int | None
) -> tuple[str, tuple[Any, ...]]:
    """A filter on the dialogues table `d`: one system, or a list of dialogue ids; and
    (`upto`) no dialogue stored after the one of that rowid (a run still being written)."""
    parts: list[str] = []
    args: list[Any] = []
    if ids is not None:
        parts.append(f"d.dialogue_id IN ({', '.join('?' * len(ids))})")
        args += ids
    elif system is not None:
        parts.append("d.system = ?")
        args.append(system)
    if upto is not None:
        parts.append("d.rowid <= ?")
        args.append(upto)
    return (" WHERE " + " AND ".join(parts) if parts else ""), tuple(args)


def _result(row: sqlite3.Row, exchanges: list[dict[str, Any]]) -> DialogueResult:
    data = {k: row[k] for k in row.keys() if k != "rid" and not k.endswith("_json")}  # noqa: SIM118
    data["opening"] = json.loads(row["opening_json"])
    data["final_list"] = json.loads(row["final_list_json"])
    data["exchanges"] = exchanges
    return DialogueResult.model_validate(data)


def iter_results(
    conn: sqlite3.Connection,
    path: Path,
    system: str | None = None,
    ids: Sequence[str] | None = None,
    upto: int | None = None,
) -> Iterator[DialogueResult]:
    """The stored dialogues (of `system`, of `ids`, or all; none after rowid `upto`) with
    their turns, in the order written; a damaged row is one DataError naming the store,
    the table and the row."""
    where, args = _where(system, ids, upto)
    # The dialogues first: while its statement is open, the turns read the same snapshot.
    dialogue_rows = conn.execute(
        f"SELECT d.rowid AS rid, {DIALOGUE_COLS}, opening_json, final_list_json FROM dialogues d"
        f"{where} ORDER BY d.rowid",
        args,
    )
    turn_rows = conn.execute(
        f"SELECT d.rowid AS rid, t.* FROM turns t JOIN dialogues d USING (dialogue_id){where}"
        " ORDER BY d.rowid, t.turn",
        args,
    )
    turns = decode_rows(path, "turns", turn_rows, _turn_key, lambda t: (int(t["rid"]), exchange(t)))
    pending = next(turns, None)
    for row in dialogue_rows_checked(path, dialogue_rows):
        rid, exchanges = int(row["rid"]), []
        while pending is not None and pending[0] <= rid:
            if pending[0] == rid:
                exchanges.append(pending[1])
            pending = next(turns, None)
        try:
            yield _result(row, exchanges)
        except (ValueError, TypeError, KeyError, RecursionError) as exc:
            raise damaged(path, "dialogues", str(row["dialogue_id"]), exc) from None


def dialogue_rows_checked(path: Path, rows: sqlite3.Cursor) -> Iterator[sqlite3.Row]:
    """The cursor's rows; a row SQLite cannot hand over is a DataError (as decode_rows)."""
    return decode_rows(path, "dialogues", rows, lambda r: r["dialogue_id"], lambda r: r)


def grouped(
    rows: Iterator[T], key: Callable[[T], str], order: Iterator[str]
) -> Iterator[tuple[str, list[T]]]:
    """For each id of `order`, the rows of `rows` with that key: `rows` must come in the
    same order as `order` (both sorted by the dialogue's rowid)."""
    pending = next(rows, None)
    for dialogue_id in order:
        found: list[T] = []
        while pending is not None and key(pending) == dialogue_id:
            found.append(pending)
            pending = next(rows, None)
        yield dialogue_id, found

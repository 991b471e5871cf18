"""The run store's samples a page at a time, and the dialogues a campaign has still to run.

A campaign of any size holds one page of samples: it stores them in chunks, and its jobs
name a sample by id and read it when the dialogue starts (campaign.stored_jobs).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from macrs_sim.protocol import Sample
from macrs_sim.store.read import decode_rows

# campaign.users.is_prepared, in SQL: a sample with an opening utterance.
PREPARED = "COALESCE(json_extract(json, '$.opening'), '') != ''"
# A prepared sample whose dialogue with the system bound first is not stored.
# NOT EXISTS, not NOT IN: one NULL dialogue id would make NOT IN null for every sample.
TO_RUN = (
    f"{PREPARED} AND NOT EXISTS (SELECT 1 FROM dialogues d"
    " WHERE d.dialogue_id = ? || ':' || samples.sample_id)"
)
_IN_BATCH = 500  # ids bound to one query (SQLite's variable limit is far above)


def count_samples(conn: sqlite3.Connection, unprepared: bool, upto: int | None) -> int:
    where = [f"NOT ({PREPARED})"] if unprepared else []
    if upto is not None:
        where.append(f"rowid <= {int(upto)}")
    sql = "SELECT COUNT(*) FROM samples" + (" WHERE " + " AND ".join(where) if where else "")
    return int(conn.execute(sql).fetchone()[0])


def last_sample_rowid(conn: sqlite3.Connection) -> int:
    return int(conn.execute("SELECT COALESCE(MAX(rowid), 0) FROM samples").fetchone()[0])


def unprepared_page(
    conn: sqlite3.Connection, path: Path, after: int, upto: int, limit: int
) -> list[tuple[int, Sample]]:
    """(rowid, sample) of up to `limit` samples without an opening, after rowid `after` and
    up to `upto`, in the order stored."""
    rows = conn.execute(
        f"SELECT rowid, sample_id, json FROM samples WHERE rowid > ? AND rowid <= ?"
        f" AND NOT ({PREPARED}) ORDER BY rowid LIMIT ?",
        (after, upto, limit),
    )
    return list(
        decode_rows(
            path,
            "samples",
            rows,
            lambda r: r["sample_id"],
            lambda r: (int(r["rowid"]), Sample.model_validate_json(r["json"])),
        )
    )


def stored_among(conn: sqlite3.Connection, table: str, column: str, ids: Sequence[str]) -> set[str]:
    """Which of `ids` the table holds (`table`, `column`: samples or dialogues, their key)."""
    found: set[str] = set()
    for i in range(0, len(ids), _IN_BATCH):
        batch = ids[i : i + _IN_BATCH]
        marks = ", ".join("?" * len(batch))
        sql = f"SELECT {column} FROM {table} WHERE {column} IN ({marks})"
        found.update(str(r[0]) for r in conn.execute(sql, batch))
    return found


def job_page(
    conn: sqlite3.Connection, system: str, after: int, limit: int
) -> list[tuple[int, str]]:
    """(rowid, sample_id) of up to `limit` prepared samples after rowid `after` whose
    dialogue with `system` is not stored, in the order stored."""
    rows = conn.execute(
        f"SELECT rowid, sample_id FROM samples WHERE rowid > ? AND {TO_RUN} ORDER BY rowid LIMIT ?",
        (after, system, limit),
    )
    return [(int(r[0]), str(r[1])) for r in rows]


def count_jobs(conn: sqlite3.Connection, system: str) -> int:
    """The prepared samples whose dialogue with `system` is not stored."""
    return int(
        conn.execute(f"SELECT COUNT(*) FROM samples WHERE {TO_RUN}", (system,)).fetchone()[0]
    )


def dialogue_counts(conn: sqlite3.Connection) -> dict[str, int]:
    """Stored dialogues per system."""
    rows = conn.execute("SELECT system, COUNT(*) FROM dialogues GROUP BY system")
    return {str(r[0]): int(r[1]) for r in rows}


def delete_error_dialogues(conn: sqlite3.Connection) -> int:
    """Remove every dialogue stored as an error, so that it is run again; its model and tool
    calls stay (they were made), no longer tied to a dialogue. The caller holds the
    transaction; the store is format 2 (format.py)."""
    errors = "SELECT id FROM dialogues WHERE status = 'error'"
    for table in ("call_rows", "tool_rows"):
        conn.execute(f"UPDATE {table} SET dialogue = NULL WHERE dialogue IN ({errors})")
    conn.execute(f"DELETE FROM turn_rows WHERE dialogue IN ({errors})")
    return int(conn.execute("DELETE FROM dialogues WHERE status = 'error'").rowcount)


class SamplePages:
    """The functions above over one store's connection (RunStore.pages)."""

    def __init__(self, conn: sqlite3.Connection, path: Path) -> None:
        self._conn, self._path = conn, path

    def count_samples(self, *, unprepared: bool = False, upto: int | None = None) -> int:
        """Stored samples (those without an opening; those up to rowid `upto`)."""
        return count_samples(self._conn, unprepared, upto)

    def last_sample_rowid(self) -> int:
        return last_sample_rowid(self._conn)

    def unprepared_samples(self, after: int, upto: int, limit: int) -> list[tuple[int, Sample]]:
        return unprepared_page(self._conn, self._path, after, upto, limit)

    def stored_sample_ids(self, ids: Sequence[str]) -> set[str]:
        return stored_among(self._conn, "samples", "sample_id", ids)

    def stored_dialogue_ids(self, ids: Sequence[str]) -> set[str]:
        return stored_among(self._conn, "dialogues", "dialogue_id", ids)

    def job_page(self, system: str, after: int, limit: int) -> list[tuple[int, str]]:
        return job_page(self._conn, system, after, limit)

    def count_jobs(self, system: str) -> int:
        return count_jobs(self._conn, system)

    def dialogue_counts(self) -> dict[str, int]:
        return dialogue_counts(self._conn)

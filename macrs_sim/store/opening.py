"""How a run store's file is opened: whether it can be written (else it is read as it is,
writing nothing beside it), its format, and its pages and schema checked first, so a
store that cannot be read is one line before any query runs (run_store.py opens it)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from macrs_sim.errors import DataError
from macrs_sim.store.format import FORMAT, store_format
from macrs_sim.store.read import integrity_problem, plain
from macrs_sim.store.schema import schema_problems, taken_names

READABLE = ("1", FORMAT)


def writable(path: Path) -> bool:
    """Whether the store and its folder (where SQLite keeps -wal and -shm) can be written."""
    return os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)


def read_only_mode(path: Path) -> str:
    """How to open a store that cannot be written, writing nothing beside it: immutable (no
    -wal or -shm made), unless a -wal beside it still holds writes the file lacks (a run
    stopped mid-write, or one running): those are read through SQLite's read-only mode."""
    wal = path.with_name(path.name + "-wal")
    if not (wal.is_file() and wal.stat().st_size > 0):
        return "ro&immutable=1"
    if not path.with_name(path.name + "-shm").is_file() and not os.access(path.parent, os.W_OK):
        raise DataError(
            f"{path}: its -wal file holds writes the store lacks, and reading them needs a "
            "-shm file this folder cannot take: copy the run folder somewhere writable and "
            "open the copy"
        )
    return "ro"


def has_tool_table(conn: sqlite3.Connection) -> bool:
    found = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tool_calls'"
    return conn.execute(found).fetchone() is not None


def _version(path: Path, conn: sqlite3.Connection) -> str:
    """The store's format, or a DataError saying why the file is not a store we read."""
    try:
        version = store_format(conn)
    except sqlite3.DatabaseError as exc:
        # A store whose schema pages are damaged cannot name its format either.
        what = "damaged run store" if "malformed" in str(exc) else "not a macrs-sim run store"
        tail = "; it cannot be read" if "malformed" in str(exc) else ""
        raise DataError(f"{path}: {what} ({exc}){tail}") from None
    if version is None:
        raise DataError(f"{path}: not a macrs-sim run store (no schema_version)")
    if version not in READABLE:
        raise DataError(
            f"{path}: run store format {version}, this macrs-sim reads formats "
            f"{' and '.join(READABLE)}: it was made by an incompatible version of macrs-sim"
        )
    return version


def checked_format(path: Path, conn: sqlite3.Connection, pages: bool) -> str:
    """The format of a store whose pages (unless `pages` is False) and schema are sound,
    and, for format 1, whose names format 2 adds are free; else one DataError."""
    version = _version(path, conn)
    # Damaged pages past the header would otherwise fail later, mid-report, as a traceback.
    problem = integrity_problem(conn) if pages else None
    if problem is not None:
        raise DataError(f"{path}: damaged run store ({problem}); it cannot be read")
    missing = schema_problems(conn, version)
    if missing:
        raise DataError(f"{path}: damaged run store: {plain('; '.join(missing), 400)}")
    taken = taken_names(conn) if version == "1" and writable(path) else []
    if taken:
        raise DataError(
            f"{path}: run store format 1 holds its own {', '.join(taken)}, a name format 2 "
            f"needs: rename it (ALTER TABLE {taken[0]} RENAME TO my_{taken[0]}) and open the "
            "store again; nothing was changed"
        )
    return version

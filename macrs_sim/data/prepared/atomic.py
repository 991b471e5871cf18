"""A database appears only when complete: built in a temporary file beside its path, then
renamed in. Anything that stops the build (bad input, a full disk, Ctrl-C) removes the
temporary file, so nothing half-written is ever left where a scenario would read it."""

from __future__ import annotations

import contextlib
import csv
import os
import secrets
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from macrs_sim.errors import DataError

T = TypeVar("T")

# Reader faults that no check above them foresaw; they still end in one line, not a traceback.
# RecursionError: a line nested thousands deep (json.loads and ast.literal_eval give up).
UNFORESEEN = (
    ValueError, KeyError, IndexError, TypeError, OverflowError, RecursionError, csv.Error,
)  # fmt: skip


def check_out(out: Path, overwrite: bool) -> None:
    if out.is_dir():
        raise DataError(f"{out}: is a folder; expected the path of the database file to write")
    if out.exists() and not overwrite:
        raise DataError(f"{out}: already exists; expected a new path (or allow overwriting)")


def remove(tmp: Path) -> None:
    for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()


def temp_beside(out: Path) -> Path:
    """A new empty file beside ``out``, mode 0666 less the umask like any file the user makes.

    (``tempfile.mkstemp`` would make it 0600, and the rename would keep that.)
    """
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(100):
            tmp = out.parent / f".{out.name}.{secrets.token_hex(4)}.tmp"
            with contextlib.suppress(FileExistsError):
                os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
                return tmp
        raise FileExistsError(f"no free temporary name beside {out.name}")
    except OSError as err:
        raise DataError(f"{out}: cannot write there ({err}); expected a writable folder") from None


def write_atomically(
    out: Path, overwrite: bool, build: Callable[[Path], T], source: Path, expected: str
) -> T:
    """`build(tmp)` writes the database into `tmp`; on success it is renamed to `out`.

    A reader fault nobody foresaw is one line naming `source` and what was `expected`
    ("an Amazon Reviews release as published")."""
    check_out(out, overwrite)
    tmp = temp_beside(out)
    try:
        built = build(tmp)
        os.replace(tmp, out)
    except sqlite3.Error as err:
        remove(tmp)
        raise DataError(f"{out}: could not write the database ({err})") from None
    except UNFORESEEN as err:
        remove(tmp)
        reason = (str(err).strip().splitlines() or [""])[0]
        raise DataError(
            f"{source}: could not be read ({type(err).__name__}: {reason}); expected {expected}"
        ) from None
    except BaseException:
        remove(tmp)
        raise
    return built


def open_for_build(path: Path, schema: str) -> sqlite3.Connection:
    """A new database at `path` with `schema`, a transaction open, no journal: it is a
    temporary file renamed into place only when complete (write_atomically)."""
    conn = sqlite3.connect(path, isolation_level=None)  # transactions by hand
    conn.execute("PRAGMA journal_mode = OFF")
    conn.execute("PRAGMA synchronous = OFF")
    conn.executescript(schema)
    conn.execute("BEGIN")
    return conn

"""`printf`/`format` that refuse a width or precision no value may reach.

SQLite's `printf('%.*c', 2147483647, 'x')` is a single VM step that appends one character
at a time long after the value has passed the length limit (tens of seconds, returning
NULL at the end): neither the progress handler nor an interrupt can stop it. The guard
reads the format's widths and precisions (written or taken from the arguments with `*`)
and refuses any over the length limit before SQLite's own printf, run on a private
in-memory connection with the same limit, formats the rest.
"""

from __future__ import annotations

import math
import re
import sqlite3
from typing import Any

_SPEC = re.compile(r"%[-+ #!0,]*(\*|\d*)(?:\.(\*|\d*))?(?:ll|l)?(.?)", re.DOTALL)


_LEADING_INT = re.compile(r"\s*[+-]?\d+")
_INT64 = 2**63 - 1


def _as_int(value: Any) -> int:
    """At least the size SQLite reads from a `*` argument: text and blobs by their leading
    integer ("2147483647x" is 2147483647, as sqlite3Atoi64 reads it) or, if larger, as a
    number ("2e9"); floats truncated; anything else 0. Saturates at 64 bits."""
    if isinstance(value, bool | int):
        return max(-_INT64, min(_INT64, int(value)))
    if isinstance(value, float):
        return int(max(-_INT64, min(_INT64, value))) if math.isfinite(value) else 0
    if isinstance(value, bytes):
        value = value.decode("utf-8", "replace")
    if not isinstance(value, str):
        return 0
    found = _LEADING_INT.match(value)
    prefix = int(found.group()) if found else 0
    try:
        number = float(value.strip())
    except ValueError:
        number = 0.0
    as_number = int(max(-_INT64, min(_INT64, number))) if math.isfinite(number) else 0
    return max(prefix, as_number, key=abs)


def widest(fmt: str, args: tuple[Any, ...]) -> int:
    """The largest width or precision `fmt` asks for, `*` ones read from `args`."""
    widest_seen, next_arg = 0, 0
    for match in _SPEC.finditer(fmt):
        if match.group(3) in ("%", "n", ""):
            continue
        for size in match.group(1, 2):
            if size == "*":
                taken = args[next_arg] if next_arg < len(args) else None
                widest_seen = max(widest_seen, abs(_as_int(taken)))
                next_arg += 1
            elif size:
                widest_seen = max(widest_seen, int(size))
        next_arg += 1
    return widest_seen


class PrintfGuard:
    """Installed as `printf` and `format` on one connection; `refused` says why it said no."""

    def __init__(self, max_length: int) -> None:
        self.max_length = max_length
        self.refused: str | None = None
        self._sqlite: sqlite3.Connection | None = None

    def install(self, conn: sqlite3.Connection) -> None:
        for name in ("printf", "format"):
            conn.create_function(name, -1, self, deterministic=True)

    def __call__(self, *values: Any) -> Any:
        if not values or values[0] is None:
            return None
        first = values[0]
        fmt = first.decode(errors="replace") if isinstance(first, bytes) else str(first)
        if widest(fmt, values[1:]) > self.max_length:
            self.refused = (
                f"refused: a printf/format width or precision over {self.max_length} characters"
            )
            raise ValueError(self.refused)
        return (
            self._builtin()
            .execute(f"SELECT printf({', '.join('?' * len(values))})", values)
            .fetchone()[0]
        )

    def _builtin(self) -> sqlite3.Connection:
        if self._sqlite is None:
            self._sqlite = sqlite3.connect(":memory:", check_same_thread=False)
            self._sqlite.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, self.max_length)
        return self._sqlite

    def close(self) -> None:
        if self._sqlite is not None:
            self._sqlite.close()

"""Reading a user's text file: one clear line when it is not UTF-8 or cannot be read.

Also the guards every reader of a user's file shares: only a regular file is read (a FIFO
or a device would block or never end), a line longer than `MAX_LINE_BYTES` is refused
before it is read whole, and JSON or TOML nested past what the parsers can take is a
decode error like any other (json and tomllib raise RecursionError there).
"""

from __future__ import annotations

import json
import stat
import tomllib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NoReturn, Protocol

from macrs_sim.errors import MacrsSimError

# The longest line a reader takes (a sample, a request, a catalog item): no real record
# comes near it, and a 2 GB line is refused without reading it whole.
MAX_LINE_BYTES = 16 * 1024 * 1024
# The largest file read whole (a scenario, a catalog, a demonstration list).
MAX_FILE_BYTES = 1024 * 1024 * 1024
_TOO_DEEP = "nested too deeply"


class _Lines(Protocol):
    def readline(self, size: int = -1, /) -> bytes: ...


def not_regular(path: Path) -> str | None:
    """Why `path` is not a regular file one can read to its end (None: it is one, or it
    does not exist, which the caller says in its own words)."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return None
    if stat.S_ISREG(mode):
        return None
    kind = "a folder" if stat.S_ISDIR(mode) else "a FIFO" if stat.S_ISFIFO(mode) else None
    return f"is {kind or 'not a regular file'}; expected a regular file"


def check_regular(path: Path, error: type[MacrsSimError], *, what: str = "file") -> None:
    """`error` in one line when `path` exists but is not a regular file."""
    problem = not_regular(path)
    if problem is not None:
        raise error(f"{path}: cannot read the {what} ({problem})")


def read_utf8(path: Path, error: type[MacrsSimError], *, what: str = "file") -> str:
    """The text of `path` (a UTF-8 byte-order mark is dropped); `error` names the problem.

    Undecodable bytes are reported with their line number, so the file can be fixed.
    """
    problem = not_regular(path)
    if problem is not None and not problem.startswith("is a folder"):
        raise error(f"{path}: cannot read the {what} ({problem})")
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise error(f"{path}: the {what} is larger than {MAX_FILE_BYTES:,} bytes")
        data = path.read_bytes()
    except OSError as err:
        raise error(f"{path}: cannot read the {what} ({err.strerror or err})") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise error(
            f"{path}:{line}: the {what} is not valid UTF-8 text ({err.reason} at byte"
            f" {err.start}); save it as UTF-8"
        ) from None


def capped_lines(f: _Lines, *, on_long: Callable[[int], NoReturn]) -> Iterator[bytes]:
    """The lines of `f` (endings kept), none longer than MAX_LINE_BYTES: `on_long(n)` is
    called with the 1-based number of a longer line (it raises) before that line is read
    past the cap."""
    n = 0
    while True:
        raw = f.readline(MAX_LINE_BYTES + 1)
        if not raw:
            return
        n += 1
        if len(raw) > MAX_LINE_BYTES:
            on_long(n)
        yield raw


def long_line(where: str) -> str:
    """The message for a line past MAX_LINE_BYTES at `where` ("path:line")."""
    return f"{where}: line longer than {MAX_LINE_BYTES:,} bytes; expected one record a line"


def loads_json(text: str | bytes) -> Any:
    """json.loads, with nesting too deep for the parser (or a number longer than int()
    takes) a JSONDecodeError too."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise json.JSONDecodeError(_TOO_DEEP, "", 0) from None
    except ValueError as err:  # a number of more digits than int() takes
        raise json.JSONDecodeError(str(err).split(";")[0], "", 0) from None


def loads_toml(text: str) -> dict[str, Any]:
    """tomllib.loads, with nesting too deep for the parser a TOMLDecodeError too."""
    try:
        return tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(_TOO_DEEP) from None

"""Reading a user's text file: one clear line when it is not UTF-8 or cannot be read."""

from __future__ import annotations

from pathlib import Path

from macrs_sim.errors import MacrsSimError


def read_utf8(path: Path, error: type[MacrsSimError], *, what: str = "file") -> str:
    """The text of `path` (a UTF-8 byte-order mark is dropped); `error` names the problem.

    Undecodable bytes are reported with their line number, so the file can be fixed.
    """
    try:
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

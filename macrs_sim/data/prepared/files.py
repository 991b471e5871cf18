"""Lines of a published data file, plain or .gz, streamed with their line numbers.

Bad input is one line naming the file and line: bytes that are not UTF-8, a .gz that ends
early or is not gzip at all. A last line cut short (no newline, not parseable) is the
loader's to judge; `SourceLine.last` says which line is the last one.
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from macrs_sim.errors import DataError
from macrs_sim.textfile import capped_lines, long_line, not_regular

_GZIP_MAGIC = b"\x1f\x8b"


@dataclass(frozen=True)
class SourceLine:
    text: str  # without its line ending ("\n" or "\r\n")
    number: int  # 1-based
    label: str  # the file, for messages: "meta_Beauty.json.gz"

    def where(self) -> str:
        return f"{self.label}:{self.number}"


def _binary(path: Path) -> io.BufferedIOBase:
    raw = path.open("rb")
    if raw.read(2) == _GZIP_MAGIC:
        raw.seek(0)
        return gzip.GzipFile(fileobj=raw, mode="rb")
    raw.seek(0)
    return raw


def read_lines(path: Path, label: str | None = None) -> Iterator[SourceLine]:
    """Each non-blank line of `path` (gzip or plain, told by its first bytes, not its name)."""
    label = label or path.name
    problem = not_regular(path)
    if problem is not None:
        raise DataError(f"{path}: {problem}")
    if not path.is_file():
        raise DataError(f"{path}: no such file")
    number = 0

    def too_long(at: int) -> NoReturn:
        raise DataError(long_line(f"{label}:{at}"))

    try:
        with _binary(path) as f:
            for number, raw in enumerate(capped_lines(f, on_long=too_long), start=1):
                try:
                    text = raw.decode("utf-8").rstrip("\r\n")
                except UnicodeDecodeError as err:
                    raise DataError(
                        f"{label}:{number}: byte {raw[err.start]:#04x} at column {err.start + 1}"
                        " is not UTF-8; expected the file as published (UTF-8 text)"
                    ) from None
                if text.strip():
                    yield SourceLine(text.lstrip("\ufeff") if number == 1 else text, number, label)
    except EOFError:
        raise DataError(
            f"{label}:{number + 1}: the compressed file ends early (truncated download?); "
            "expected a whole .gz file"
        ) from None
    except (OSError, zlib.error) as err:
        raise DataError(f"{label}: cannot be read ({err}); expected plain text or gzip") from None

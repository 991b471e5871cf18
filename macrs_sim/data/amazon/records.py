"""One record per line of a published file, and the policy for the lines that are not.

Real downloads are messy: an interrupted one ends mid-record, a scraped row may be
malformed, a field may be missing. Such a line is dropped and counted by reason (stored
in the database's meta, printed by `data prepare`); with `strict` it is instead a
DataError of one line naming file:line and what was expected. Bytes that are not UTF-8
and a .gz that ends early stop the run in files.py: nothing after them can be trusted.

The 2014 metadata is one Python dict literal per line (single quotes, u'' strings), read
with `ast.literal_eval`, never `eval`; every other file is JSON lines. Each parser falls
back on the other, so a re-encoded file still reads.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from macrs_sim.data.prepared import Dropped, SourceLine, read_lines
from macrs_sim.errors import DataError

# What a parser of either kind raises on a bad line (deep nesting included).
_PARSE_ERRORS = (ValueError, SyntaxError, TypeError, MemoryError, RecursionError)


@dataclass(frozen=True)
class Record:
    fields: dict[str, Any]
    line: SourceLine


class Policy:
    """Drop and count a bad row, or (strict) refuse the release at it."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.dropped = Dropped()

    def reject(self, where: str, reason: str, problem: str) -> None:
        """`reason` names the count ("unreadable review lines"); `problem` is the strict
        error after "FILE:LINE: " (what is wrong; what was expected)."""
        if self.strict:
            raise DataError(f"{where}: {problem} (--strict)")
        self.dropped.add(reason)


def _with_last(lines: Iterator[SourceLine]) -> Iterator[tuple[SourceLine, bool]]:
    """Each line and whether it is the file's last (a cut-off download ends there)."""
    previous: SourceLine | None = None
    for line in lines:
        if previous is not None:
            yield previous, False
        previous = line
    if previous is not None:
        yield previous, True


def _unreadable(err: BaseException) -> ValueError:
    column = getattr(err, "colno", None) or getattr(err, "offset", None)
    return ValueError(
        "cannot be read" + (f" at column {column}" if isinstance(column, int) else "")
    )


def _python(text: str) -> Any:
    return ast.literal_eval(text)


def _json(text: str) -> Any:
    return json.loads(text)


def parse(text: str, python_literal: bool) -> dict[str, Any]:
    """The line's dict; ValueError (naming the column where known) when it holds none.

    A JSON file's line that opens like a Python dict ("{'") is tried as one too."""
    text = text.strip()
    loaders: tuple[Callable[[str], Any], ...] = (_python, _json) if python_literal else (_json,)
    if not python_literal and text.startswith("{'"):
        loaders = (_json, _python)
    first_error: BaseException | None = None
    for load in loaders:
        try:
            found = load(text)
            break
        except _PARSE_ERRORS as err:
            first_error = first_error or err
    else:
        raise _unreadable(first_error or ValueError())
    if not isinstance(found, dict):
        raise ValueError(f"holds a {type(found).__name__}, not one record")
    return found


def records(
    path: Path, python_literal: bool, what: str, expected: str, policy: Policy
) -> Iterator[Record]:
    """The parsed records of `path`; `what` names its lines in counts ("review"), and
    `expected` says what a line should be ("one review per line, a JSON object")."""
    for line, last in _with_last(read_lines(path)):
        try:
            fields = parse(line.text, python_literal)
        except ValueError as err:
            if last:
                policy.reject(
                    line.where(),
                    f"{what} lines cut off at the end of the file",
                    f"the last line is cut short (an interrupted download?); expected {expected}",
                )
            else:
                policy.reject(
                    line.where(),
                    f"unreadable {what} lines",
                    f"{err}; expected {expected}",
                )
            continue
        yield Record(fields, line)

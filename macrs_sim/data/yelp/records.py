"""JSON lines as records, and what happens to a row the loader cannot use.

Real downloads are messy: an interrupted download cuts the last line mid-record, a
hand-edited file may hold a broken line. Such a row is dropped and counted under its reason
(`Dropped`, stored in meta and printed), or, with `strict`, refused: one line naming
file:line, what was found and what was expected. The last line is judged apart, so a cut
download is told from a broken line in the middle (their counts differ in name).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from macrs_sim.data.prepared import Dropped, SourceLine, read_lines
from macrs_sim.errors import DataError

Record = dict[str, Any]
_SHOWN = 60  # characters of a bad value quoted in a message


def show(value: object) -> str:
    """A value as a message quotes it: repr (one line, escapes shown), shortened."""
    text = repr(value)
    return text if len(text) <= _SHOWN else text[: _SHOWN - 3] + "..."


def _ends_early(err: ValueError | RecursionError) -> bool:
    """Whether the text stopped before its record did (cut), rather than being wrong."""
    if not isinstance(err, json.JSONDecodeError):
        return False
    text = err.doc.strip()
    if not text.startswith("{"):
        return False
    cut = not text.endswith("}") or err.pos >= len(err.doc.rstrip())  # {"a": {"b": 1}
    return cut or err.msg.startswith("Unterminated string")


class BadRow(Exception):
    """A row the loader cannot use: counted under `reason`, or refused in one line."""

    def __init__(self, reason: str, what: str, expected: str) -> None:
        super().__init__(what)
        self.reason = reason
        self.what = what
        self.expected = expected


class RowPolicy:
    """Drop and count a bad row, or (strict) refuse the input at it."""

    def __init__(self, strict: bool, dropped: Dropped) -> None:
        self.strict = strict
        self.dropped = dropped

    def reject(self, line: SourceLine, bad: BadRow) -> None:
        if self.strict:
            raise DataError(f"{line.where()}: {bad.what}; expected {bad.expected} (--strict)")
        self.dropped.add(bad.reason)


class JsonLines:
    """The records of one JSON-lines file, in file order, with their lines.

    `word` names the file in drop reasons ("business": "malformed lines of the business
    file"). `n_lines` counts the non-blank lines read so far, usable or not.
    """

    def __init__(self, path: Path, word: str, policy: RowPolicy) -> None:
        self.path = path
        self.word = word
        self.policy = policy
        self.n_lines = 0

    def __iter__(self) -> Iterator[tuple[SourceLine, Record]]:
        held: SourceLine | None = None  # one line behind, to know the last one
        for line in read_lines(self.path):
            self.n_lines += 1
            if held is not None:
                record = self._record(held, last=False)
                if record is not None:
                    yield held, record
            held = line
        if held is not None:
            record = self._record(held, last=True)
            if record is not None:
                yield held, record

    def _record(self, line: SourceLine, *, last: bool) -> Record | None:
        try:
            value = json.loads(line.text)
        except (ValueError, RecursionError) as err:  # bad JSON, a huge number, deep nesting
            self.policy.reject(line, self._unreadable(err, last))
            return None
        if not isinstance(value, dict):
            what = f"a JSON {type(value).__name__} where a record belongs"
            self.policy.reject(line, BadRow(self.malformed, what, "one JSON object per line"))
            return None
        return value

    @property
    def malformed(self) -> str:
        return f"malformed lines of the {self.word} file"

    def _unreadable(self, err: ValueError | RecursionError, last: bool) -> BadRow:
        if last and _ends_early(err):
            return BadRow(
                f"truncated last lines of the {self.word} file",
                "the last line ends mid-record (an interrupted download?)",
                "a whole JSON record",
            )
        if isinstance(err, json.JSONDecodeError):
            at = "" if err.msg.endswith(" at") else " at"  # "Unterminated string starting at"
            what = f"not JSON ({err.msg}{at} column {err.colno})"
        else:
            what = f"not JSON ({str(err).splitlines()[0] if str(err) else type(err).__name__})"
        return BadRow(self.malformed, what, "one JSON object per line")

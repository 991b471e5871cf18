"""Steam's files as published: one Python dict literal per line (single quotes, `u''`
strings, True/False/None), read with `ast.literal_eval`, never `eval`, so a line can only
ever be data.

Bad lines follow the loaders' policy: a line that is not a dict literal is dropped and
counted, and a last line that does not parse is counted as cut short (an interrupted
download); with `strict` either is one line naming file and line instead.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from macrs_sim.data.prepared import Dropped, SourceLine, read_lines
from macrs_sim.errors import DataError

# What `ast.literal_eval` raises on text that is not a literal: bad syntax, names or calls
# (ValueError), nesting too deep for the parser, an integer too long to convert.
_NOT_A_LITERAL = (ValueError, SyntaxError, TypeError, MemoryError, RecursionError)


def base_name(path: Path) -> str:
    """The file's published name without `.gz`, for drop reasons that read the same either way."""
    return path.name.removesuffix(".gz")


class Rejects:
    """Drops a bad row and counts it by reason, or, with `strict`, refuses it in one line."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.dropped = Dropped()

    def drop(self, reason: str, where: str, problem: str, n: int = 1) -> None:
        """`problem` says what is wrong and what was expected ("...; expected ...")."""
        if self.strict:
            raise DataError(f"{where}: {problem} (--strict)")
        self.dropped.add(reason, n)


def literal(text: str) -> object:
    """The value of one Python literal, or SyntaxError/ValueError... when it is not one.

    Warnings about odd escapes in a string ("\\d") are the file's, not the user's to see;
    they need a backslash, and silencing them costs a third of the parse, so only then."""
    if "\\" not in text:
        return ast.literal_eval(text.strip())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.literal_eval(text.strip())


def _parsed(line: SourceLine, last: bool, rejects: Rejects, what: str, name: str) -> Any:
    try:
        value = literal(line.text)
    except SyntaxError:
        if last:  # cut mid-record: the loader's to drop, not a broken file
            rejects.drop(
                f"truncated last line of {name}",
                line.where(),
                f"the last line is cut short (an interrupted download?); expected {what} per "
                "line, complete",
            )
            return None
        value = None
    except _NOT_A_LITERAL:
        value = None
    if isinstance(value, dict):
        return value
    rejects.drop(
        f"unreadable lines of {name}",
        line.where(),
        f"not a Python dict literal; expected {what} per line, as published",
    )
    return None


def records(path: Path, rejects: Rejects, what: str) -> Iterator[tuple[SourceLine, dict[Any, Any]]]:
    """Each line of `path` (plain or .gz) that is a dict literal, with its line.

    A line is parsed only once the next one is read, so the last line is known as last."""
    name = base_name(path)
    pending: SourceLine | None = None
    for line in read_lines(path):
        if pending is not None:
            value = _parsed(pending, False, rejects, what, name)
            if value is not None:
                yield pending, value
        pending = line
    if pending is not None:
        value = _parsed(pending, True, rejects, what, name)
        if value is not None:
            yield pending, value


def text_id(value: object) -> str | None:
    """An id as the files write it: a string ("761140"), sometimes a number; None if absent."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str) and value.strip():
        return value.strip()
    return None

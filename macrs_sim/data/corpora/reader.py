"""A corpus file read one line at a time (bounded memory at any size).

Each line is decoded and parsed alone: a line that is not UTF-8, not JSON (a truncated
last line) or neither form is skipped and counted by reason, so one damaged line does not
cost the corpus; a file with no readable dialogue at all is one clear error.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from macrs_sim.data.corpora.own import is_own, own_dialogue
from macrs_sim.data.corpora.records import CorpusDialogue
from macrs_sim.data.corpora.redial import is_redial, redial_dialogue
from macrs_sim.errors import DataError


@dataclass
class CorpusStats:
    """What a read found: dialogues kept, lines skipped (reason -> count, first line of
    each), markers with no title, and the form of the last line read."""

    dialogues: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    first_line: dict[str, int] = field(default_factory=dict)
    unknown_mentions: int = 0
    form: str = ""

    def skip(self, reason: str, line: int) -> None:
        self.skipped[reason] += 1
        self.first_line.setdefault(reason, line)

    def summary(self) -> str:
        parts = [f"{self.dialogues} dialogues ({self.form or 'no form'})"]
        parts += [
            f"{n} skipped: {r} (first at line {self.first_line[r]})"
            for r, n in self.skipped.items()
        ]
        if self.unknown_mentions:
            parts.append(f"{self.unknown_mentions} @id markers with no title")
        return "; ".join(parts)


def _parse(raw: bytes, stats: CorpusStats, line: int) -> CorpusDialogue | None:
    try:
        text = raw.decode("utf-8-sig" if line == 1 else "utf-8")
    except UnicodeDecodeError:
        stats.skip("not UTF-8", line)
        return None
    if not text.strip():
        return None
    try:
        row = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        stats.skip("not JSON (a truncated line?)", line)
        return None
    if not isinstance(row, dict):
        stats.skip("not a JSON object", line)
        return None
    try:
        if is_redial(row):
            stats.form = "ReDial"
            return redial_dialogue(row)
        if is_own(row):
            stats.form = "turns"
            return own_dialogue(row)
    except (ValueError, TypeError) as err:
        stats.skip(str(err), line)
        return None
    stats.skip("neither ReDial's form nor the turns form", line)
    return None


def read_corpus(path: Path, stats: CorpusStats | None = None) -> Iterator[CorpusDialogue]:
    """The file's dialogues in order; `stats` (when given) is filled as they are read."""
    stats = stats if stats is not None else CorpusStats()
    try:
        handle = path.open("rb")
    except OSError as err:
        raise DataError(f"{path}: cannot read the corpus ({err.strerror or err})") from None
    with handle:
        for number, raw in enumerate(handle, start=1):
            dialogue = _parse(raw, stats, number)
            if dialogue is None:
                continue
            stats.dialogues += 1
            stats.unknown_mentions += sum(not t for turn in dialogue.turns for t in turn.titles)
            yield dialogue
    if not stats.dialogues:
        why = "; ".join(f"{r} (line {stats.first_line[r]})" for r in stats.skipped) or "empty"
        raise DataError(f"{path}: no dialogue could be read ({why})")

"""Reading a solver's free-text answer back, validated against what was asked.

A ranking answer is read entry by entry: one per line, or comma-separated when the
answer is a single line (RecMind's "Finish [a, b, c]"). An entry names a candidate by
its id (the first word, after any list marker such as "1." or "-") or by its title, with
or without a wrong id before it (small models miscopy ids); a title shared by several
candidates (a remake, two films called "Heat") counts only with its year. Entries that
name no candidate are dropped and counted; repeats keep their first place. An answer
naming no candidate at all is unparsable.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from macrs_sim.protocol import Item

_MARKER = re.compile(r"^\s*(?:\d+\s*[.):]|[-*•]|#\d+)\s+")
_FINISH = re.compile(r"^\s*(?:finish|answer)\s*[:\[(]?\s*", re.IGNORECASE)
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_EDGE = " \t\"'`[](){}<>.,;:"


@dataclass(frozen=True)
class RankedAnswer:
    """The candidates an answer named, best first, and the entries that named none."""

    ranked: tuple[str, ...]
    unmatched: tuple[str, ...]

    @property
    def parsed(self) -> bool:
        return bool(self.ranked)


def _norm(text: str) -> str:
    return " ".join(text.casefold().split()).strip(_EDGE)


def _title_index(candidates: Sequence[str], items: Mapping[str, Item]) -> dict[str, str]:
    """Normalised name -> id: every display title, and each plain title that is unique."""
    index: dict[str, str] = {}
    plain: dict[str, list[str]] = {}
    for item_id in candidates:
        item = items[item_id]
        index[_norm(item.display_title)] = item_id
        plain.setdefault(_norm(item.title), []).append(item_id)
    for name, ids in plain.items():
        if len(ids) == 1:
            index.setdefault(name, ids[0])
    return index


def _entries(answer: str, ids: set[str], titles: dict[str, str]) -> list[str]:
    """Lines; a single line split at commas, unless only the whole line names a candidate
    (a title with a comma in it: "Shawshank Redemption, The")."""
    lines = [line for line in answer.splitlines() if line.strip()]
    if len(lines) != 1:
        return lines
    line = _FINISH.sub("", lines[0]).rstrip(" ]")
    parts = [part for part in line.split(",") if part.strip()]
    named = sum(1 for part in parts if _resolve(part, ids, titles) is not None)
    if named <= 1 and _resolve(line, ids, titles) is not None:
        return [line]
    return parts


def _resolve(entry: str, ids: set[str], titles: dict[str, str]) -> str | None:
    text = _MARKER.sub("", entry, count=1).strip()
    first = text.split(maxsplit=1)[0].strip(_EDGE) if text.split() else ""
    if first in ids:
        return first
    rest = text.split(maxsplit=1)[1] if len(text.split()) > 1 else ""
    return titles.get(_norm(text)) or titles.get(_norm(rest))


def parse_ranking(
    answer: str, candidates: Sequence[str], items: Mapping[str, Item]
) -> RankedAnswer:
    ids = set(candidates)
    titles = _title_index(candidates, items)
    ranked: list[str] = []
    unmatched: list[str] = []
    for entry in _entries(answer, ids, titles):
        found = _resolve(entry, ids, titles)
        if found is None:
            unmatched.append(entry.strip())
        elif found not in ranked:
            ranked.append(found)
    return RankedAnswer(tuple(ranked), tuple(unmatched))


def parse_rating(answer: str, low: float, high: float) -> float | None:
    """The first number in the answer, if it lies on the scale [low, high]; else None."""
    found = _NUMBER.search(answer)
    if found is None:
        return None
    value = float(found.group())
    return value if low <= value <= high else None


def parse_explanation(answer: str) -> str | None:
    """The explanation text; None when the answer is empty."""
    text = answer.strip()
    return text or None

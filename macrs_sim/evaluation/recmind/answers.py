"""Reading a solver's answer back, validated against what was asked.

A ranking answer is read line by line, and each line entry by entry: entries are split at
semicolons, commas, pipes, colons, " and ", inline numbers ("1. A 2. B") and inline bullets
(" - ", " • "). A title that contains a separator ("Crouching Tiger, Hidden Dragon", "Pride
and Prejudice", "2001: A Space Odyssey") is put back together: the longest run of
neighbouring entries that names one candidate wins. An entry names a candidate by its title
(decorations, a leading or MovieLens-style trailing article and the year as `grounding`
reads them), by its id (the first word, after any list marker), or by its title after a
wrong id (small models miscopy ids); a title shared by several candidates (a remake, two
films called "Heat") counts only with its year. Entries that name no candidate are kept
as written and counted; repeats keep their first place. An answer naming no candidate at
all is unparsable.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from macrs_sim.data.grounding import normalize_title, split_year, strip_decorations
from macrs_sim.protocol import Item

_MARKER = re.compile(r"^\s*(?:\d{1,3}\s*[.)]|[-*•–]|#\d+)\s+")
_FINISH = re.compile(r"^\s*(?:finish|answer)\s*(?:[:\[(]\s*|\s+)", re.IGNORECASE)
_SEPARATOR = re.compile(
    r"\s*[;|]\s*"  # semicolons, pipes
    r"|\s*,\s*(?:(?:and|&)\s+)?"  # commas, with the list's last "and"
    r"|:\s+"  # "My picks: A, B"
    r"|\s+(?:and|&)\s+"  # "A and B"
    r"|\s+\d{1,3}[.)]\s+"  # "1. A 2. B"
    r"|\s+[-–—•*]\s+",  # "A - B", "A • B"
    re.IGNORECASE,
)
# "Summary: ..." / "Title - ...": a label a model may put before its summary.
_LABEL = re.compile(r"^\s*(?:summary|title|headline)\s*[:\-–]\s*", re.IGNORECASE)
_QUOTES = "\"'“”‘’`"
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")
_EDGE = " \t\"'`[](){}<>.,;:*"
# What may wrap a whole title: never its year's brackets.
_WRAP = " \t\"'`.,;:*"
# The most entries one title may span ("Good, the Bad and the Ugly, The (1966)" spans 4).
MAX_JOIN = 6


@dataclass(frozen=True)
class RankedAnswer:
    """The candidates an answer named, best first, and the entries that named none."""

    ranked: tuple[str, ...]
    unmatched: tuple[str, ...]

    @property
    def parsed(self) -> bool:
        return bool(self.ranked)


class CandidateIndex:
    """The candidates by id, by (title, year) and by title alone where that is unique."""

    def __init__(self, candidates: Sequence[str], items: Mapping[str, Item]) -> None:
        self.ids = set(candidates)
        self.dated: dict[tuple[str, int | None], str | None] = {}
        self.plain: dict[str, str | None] = {}
        for item_id in candidates:
            key = normalize_title(items[item_id].title)
            dated = (key, items[item_id].year)
            self.dated[dated] = None if dated in self.dated else item_id
            self.plain[key] = None if key in self.plain else item_id

    def title(self, text: str, *, whole: bool = False) -> str | None:
        """`whole`: the text is the title and nothing else (a description after the year
        is no part of it)."""
        bare, year = split_year(text.strip(_WRAP)) if whole else strip_decorations(text)
        key = normalize_title(bare) if bare else ""
        if not key:
            return None
        if year is not None and self.dated.get((key, year)) is not None:
            return self.dated[(key, year)]
        return self.plain.get(key)

    def entry(self, text: str, *, joined: bool) -> str | None:
        """The candidate `text` names; a joined run of entries only by a title."""
        found = self.title(text, whole=joined)
        if found is not None:
            return found
        words = text.split(maxsplit=1)
        if not joined and words and words[0].strip(_EDGE) in self.ids:
            return words[0].strip(_EDGE)
        return self.title(words[1], whole=joined) if len(words) > 1 else None


def _lines(answer: str) -> list[str]:
    """Each line without a leading "Finish [" / "Answer:" (and its "]") or list marker."""
    out = []
    for line in answer.splitlines():
        text = line
        if _FINISH.match(text):
            text = _FINISH.sub("", text, count=1).rstrip().removesuffix("]").removesuffix(")")
        text = _MARKER.sub("", text, count=1).strip()
        if text.strip(_EDGE):
            out.append(text)
    return out


def _spans(line: str) -> list[tuple[int, int]]:
    """Where the line's entries lie: the line cut at every separator."""
    spans: list[tuple[int, int]] = []
    at = 0
    for m in _SEPARATOR.finditer(line):
        if m.end() > m.start():
            spans.append((at, m.start()))
            at = m.end()
    return [*spans, (at, len(line))]


def _read_line(line: str, index: CandidateIndex) -> list[tuple[str | None, str]]:
    """(candidate or None, text) per entry: at each place the longest run naming one."""
    spans = _spans(line)
    out: list[tuple[str | None, str]] = []
    i = 0
    while i < len(spans):
        for j in range(min(len(spans), i + MAX_JOIN) - 1, i - 1, -1):
            text = line[spans[i][0] : spans[j][1]].strip()
            found = index.entry(text, joined=j > i)
            if found is not None:
                break
        if text.strip(_EDGE):
            out.append((found, text))
        i = j + 1
    return out


def parse_ranking(
    answer: str, candidates: Sequence[str], items: Mapping[str, Item]
) -> RankedAnswer:
    index = CandidateIndex(candidates, items)
    ranked: list[str] = []
    unmatched: list[str] = []
    for line in _lines(answer):
        for found, text in _read_line(line, index):
            if found is None:
                unmatched.append(text)
            elif found not in ranked:
                ranked.append(found)
    return RankedAnswer(tuple(ranked), tuple(unmatched))


# A number the answer gives as its rating: after "I predict", "would rate it", "answer:" ...
_STRONG = re.compile(
    r"(?:predict(?:ed|ion|s)?|(?:would|will|'d|might|should)\s+(?:rate|give|score)|rate\s+it"
    r"|give\s+it|my\s+(?:final\s+)?(?:answer|guess|estimate)|answer\s*(?:is|:)|finish)"
    r"[^\d\n-]{0,30}?(-?\d+(?:\.\d+)?)",
    re.IGNORECASE,
)
# Weaker: "rating: 4", "rating is 4" (also "the average rating is 3.2": only when no
# stronger cue names a number).
_WEAK = re.compile(r"\b(?:rating|score|stars?)\s*(?:is|:|=|of|would be)?\s*(-?\d+(?:\.\d+)?)",
                   re.IGNORECASE)  # fmt: skip
# A number that is no rating: a user's id, the scale's top ("out of 5", "4/5"'s 5).
_NOT_RATING = re.compile(r"(?:\buser\s*(?:id\s*)?|\bid\s*|out\s+of\s+|/\s*)$", re.IGNORECASE)


def parse_rating(answer: str, low: float, high: float) -> float | None:
    """The rating the answer gives, if it lies on the scale [low, high]; else None.

    The last number after a cue that states the prediction ("I predict 4", "would rate it
    4", "Answer: 4"), else the last after "rating"/"score", else the last number on the
    scale that is no user id and no scale top ("Based on an average of 3.2, I predict 4."
    is 4; "User 42 would rate it 4." is 4; "4 out of 5" is 4).
    """
    for cue in (_STRONG, _WEAK):
        found = cue.findall(answer)
        if found:
            value = float(found[-1])
            return value if low <= value <= high else None
    values = [
        float(m.group())
        for m in _NUMBER.finditer(answer)
        if not _NOT_RATING.search(answer[: m.start()])
    ]
    on_scale = [v for v in values if low <= v <= high]
    return on_scale[-1] if on_scale else None


def parse_explanation(answer: str) -> str | None:
    """The explanation text; None when the answer is empty."""
    text = answer.strip()
    return text or None


def parse_summary(answer: str) -> str | None:
    """The summary: the answer's first non-empty line without a "Summary:" label or the
    quotes around it; None when nothing is left."""
    for line in answer.splitlines():
        text = _LABEL.sub("", line.strip(), count=1).strip().strip(_QUOTES).strip()
        if text:
            return text
    return None

"""Reading LLMRank's free-text ranking back into candidate ids.

The model answers one movie per line ("1. Heat (1995)"). A line names a candidate when
(a) a candidate's title with its year occurs in it (the earliest occurrence wins, then the
longest title: LLMRank matches by containment; a title without a year is left to (b)),
else (b) the line's head (before " - ", " – ", " — ") is a candidate's title alone, with
a year only if it is that candidate's, and only one candidate has that title. Titles
compare casefolded, punctuation as spaces, a trailing ", The" / ", A" / ", An" moved to
the front. A repeat counts as a duplicate; a numbered or bulleted line naming no
candidate counts as unknown; other lines (the model's reasoning) are skipped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from macrs_sim.protocol import Item, Record

_ENUMERATOR = re.compile(r"^\s*(?:[-*•]+\s*)?(?:(?:#|no\.\s*)?\d+\s*[.):\]]\s*)?", re.IGNORECASE)
_NUMBERED = re.compile(r"^\s*(?:[-*•]|(?:#|no\.\s*)?\d+\s*[.):\]])", re.IGNORECASE)
_EXPLANATION = re.compile(r"\s+[-–—]\s+")
_ARTICLE = re.compile(r"^(.*), (the|a|an)$", re.IGNORECASE)
_NON_WORD = re.compile(r"[\W_]+")
_YEAR = re.compile(r"^(.*) (\d{4})$")


class ParsedRanking(Record):
    # Candidate ids in the model's order, each once.
    items: tuple[str, ...]
    duplicates: int = 0
    # Ranked lines that name no candidate (as written).
    unknown: tuple[str, ...] = ()


def normalize(text: str) -> str:
    """'Matrix, The' and 'The Matrix:' -> 'the matrix'."""
    text = text.strip().strip("*\"'“”‘’`").strip()
    moved = _ARTICLE.match(text)
    if moved:
        text = f"{moved.group(2)} {moved.group(1)}"
    return " ".join(_NON_WORD.sub(" ", text.casefold()).split())


def _keys(item: Item) -> tuple[str | None, str]:
    """The normalized title with its year (None without a year), and the title alone."""
    title = normalize(item.title)
    return (f"{title} {item.year}" if item.year else None), title


def _by_full_title(line: str, keys: dict[str, tuple[str | None, str]]) -> str | None:
    padded = f" {line} "
    hits = [(padded.find(f" {full} "), -len(full), item_id)
            for item_id, (full, _) in keys.items() if full and f" {full} " in padded]  # fmt: skip
    return min(hits)[2] if hits else None


def _by_head(
    raw: str, keys: dict[str, tuple[str | None, str]], years: dict[str, int | None]
) -> str | None:
    head = normalize(_EXPLANATION.split(raw, maxsplit=1)[0])
    found = _YEAR.match(head)
    title, year = (found.group(1), int(found.group(2))) if found else (head, None)
    same = [i for i, (_, t) in keys.items() if t == title and year in (None, years[i])]
    return same[0] if len(same) == 1 else None


def parse_ranking(text: str, candidates: Sequence[Item]) -> ParsedRanking:
    keys = {item.item_id: _keys(item) for item in candidates}
    years = {item.item_id: item.year for item in candidates}
    items: list[str] = []
    unknown: list[str] = []
    duplicates = 0
    for raw in text.splitlines():
        body = _ENUMERATOR.sub("", raw, count=1)
        line = normalize(body)
        if not line:
            continue
        found = _by_full_title(line, keys) or _by_head(body, keys, years)
        if found is None:
            if _NUMBERED.match(raw):
                unknown.append(raw.strip())
        elif found in items:
            duplicates += 1
        else:
            items.append(found)
    return ParsedRanking(items=tuple(items), duplicates=duplicates, unknown=tuple(unknown))

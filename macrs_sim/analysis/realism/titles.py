"""Does a turn name a catalog title? A word-run lookup, the same on both sides.

A title of two words or more is found as a run of the turn's words (case, punctuation and
the year ignored; a leading "the" optional). A one-word title counts only when capitalised
and not the first word of a sentence ("Heat was great" does not, "I loved Heat" does),
and only from 4 letters: shorter one-word titles ("Up", "It", "Her") are common words.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from macrs_sim.data.grounding import split_year
from macrs_sim.protocol import Item

MAX_WORDS = 10
ONE_WORD_MIN = 4
_WORD = re.compile(r"[A-Za-z0-9']+|[.!?]")


def _key(title: str) -> tuple[str, ...]:
    base, _ = split_year(title)
    ws = tuple(w for w in _WORD.findall(base.lower()) if w not in ".!?")
    return ws[1:] if len(ws) > 1 and ws[0] == "the" else ws


class TitleIndex:
    def __init__(self, items: Iterable[Item]) -> None:
        self.long: set[tuple[str, ...]] = set()
        self.single: set[str] = set()
        for item in items:
            for title in (item.title, *item.aka):
                key = _key(title)
                if len(key) >= 2:
                    self.long.add(key[:MAX_WORDS])
                elif key and len(key[0]) >= ONE_WORD_MIN and key[0].isalpha():
                    self.single.add(key[0])
        self.lengths = sorted({len(k) for k in self.long})

    def names_title(self, text: str) -> bool:
        tokens = _WORD.findall(text)
        low = [t.lower() for t in tokens]
        for i, tok in enumerate(tokens):
            if tok in ".!?":
                continue
            if low[i] in self.single and tok[0].isupper() and i > 0 and tokens[i - 1] not in ".!?":
                return True
            start = i + 1 if low[i] == "the" else i
            for n in self.lengths:
                if tuple(low[start : start + n]) in self.long:
                    return True
        return False

"""Candidate keys for fuzzy search, so it never scans the catalog.

A key is filed under its numbers (which fuzzy matching never changes) and each of:
the first three letters of its first word, the first three of its last word, and the
last three of its last word with its word count (endings are few, "-ing", counts
many). Within a block, keys are kept sorted by length, and a query only looks at
those whose length `is_misspelling` could still accept.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict

from macrs_sim.data.grounding.keys import Part
from macrs_sim.data.grounding.spelling import MAX_LENGTH_GAP

BlockKey = tuple[tuple[int, ...], str]


def block_keys(part: Part) -> set[BlockKey]:
    words = part.words.split()
    if not words:
        return set()
    first, last, n = words[0], words[-1], len(words)
    ns = part.numbers
    return {(ns, first[:3]), (ns, "$" + last[:3]), (ns, f"{last[-3:]}${n}")}


class SpellingBlocks:
    def __init__(self) -> None:
        self._filling: dict[BlockKey, dict[str, None]] = defaultdict(dict)  # ordered sets
        self._blocks: dict[BlockKey, tuple[list[int], list[str]]] = {}

    def add(self, part: Part) -> None:
        for block in block_keys(part):
            self._filling[block][part.words] = None

    def freeze(self) -> None:
        for block, words in self._filling.items():
            ordered = sorted(words, key=len)
            self._blocks[block] = ([len(w) for w in ordered], ordered)
        self._filling.clear()

    def candidates(self, part: Part) -> list[str]:
        """Keys sharing a block with `part`, within MAX_LENGTH_GAP of its length (repeats
        possible: blocks overlap)."""
        size = len(part.words)
        found: list[str] = []
        for block in block_keys(part):
            lengths, words = self._blocks.get(block, ([], []))
            lo = bisect_left(lengths, size - MAX_LENGTH_GAP)
            found += words[lo : bisect_right(lengths, size + MAX_LENGTH_GAP, lo)]
        return found

    def largest(self) -> int:
        return max((len(w) for _, w in self._blocks.values()), default=0)

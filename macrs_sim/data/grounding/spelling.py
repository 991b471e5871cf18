"""When two keys' words differ only by a misspelling (numbers are compared elsewhere).

A whole-string ratio finds the candidates; this check then looks word by word, so
"Before Sunset" is no misspelling of "Before Sunrise" (one word, three edits) and
"Aliens" none of "Alien" (a plural names another film), while "The Godfater" is
one of "The Godfather".
"""

from __future__ import annotations

from rapidfuzz.distance import OSA

MAX_CHANGED_WORDS = 2
MAX_EDITS_PER_WORD = 2
# The most two keys' lengths can differ and still pass `is_misspelling`: two changed words
# of two edits each, or a word split or joined (a space) plus one edit.
MAX_LENGTH_GAP = MAX_CHANGED_WORDS * MAX_EDITS_PER_WORD


def allowed_edits(word: str) -> int:
    """Edits (insert, delete, substitute, swap neighbours) a word of this length may carry."""
    if len(word) <= 3:
        return 0
    return 1 if len(word) <= 8 else MAX_EDITS_PER_WORD


def is_misspelling(said: str, known: str) -> bool:
    a, b = said.split(), known.split()
    if len(a) != len(b):
        # A word split or joined ("Spiderman", "Wall E"): the letters must agree up to one edit.
        return OSA.distance("".join(a), "".join(b)) <= 1 and len("".join(b)) >= 6
    changed = [(x, y) for x, y in zip(a, b, strict=True) if x != y]
    if not changed or len(changed) > MAX_CHANGED_WORDS:
        return False
    for x, y in changed:
        if x.rstrip("s") == y.rstrip("s"):  # a plural: "Aliens", "Predators", "The Others"
            return False
        if OSA.distance(x, y) > allowed_edits(y):
            return False
    return True

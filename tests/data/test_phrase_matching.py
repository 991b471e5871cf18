"""Whole-word matching by word sets (data/attributes) says what the boundary regex it
replaced says, on hostile text: case folding that changes length, accents, apostrophes,
hyphens, digits glued to letters, multi-word and punctuated phrases."""

from __future__ import annotations

import random
import re

import pytest

from macrs_sim.data import attributes as at


def _by_pattern(text: str, phrase: str) -> bool:
    """The definition: the phrase, lower case, not preceded or followed by [a-z0-9]."""
    pattern = r"(?<![a-z0-9])" + re.escape(phrase.lower()) + r"(?![a-z0-9])"
    return re.search(pattern, text.lower()) is not None


PHRASES = ["war", "a", "sci-fi", "sci fi", "love story", "'90s", "90s", "1994", "nineties",
           "kind of", "don't mind", "", "k", "ss", "i", "é", "x-y", "old", "9"]  # fmt: skip
PIECES = list("abcXYZ09 -'’.,!éİıßK\u212a\t\n") + ["war", "award", "Sci-Fi", "love story"]


@pytest.mark.parametrize(
    ("text", "phrase", "expected"),
    [
        ("An AWARD-winning film", "war", False),
        ("a war-film", "war", True),
        ("Sci-Fi, please", "sci-fi", True),
        ("scifi", "sci-fi", False),
        ("the 1990s", "90s", False),
        ("the '90s", "90s", True),
        ("WAR", "war", True),
        ("İwar", "war", True),  # 'İ'.lower() is 'i' + a combining dot: no letter before 'war'
        ("\u212awar", "war", False),  # the Kelvin sign lowers to 'k', a letter
        ("strasse", "ss", False),
    ],
)
def test_worked_examples(text: str, phrase: str, expected: bool) -> None:
    assert at._contains_phrase(text, phrase) is expected
    assert _by_pattern(text, phrase) is expected


def test_random_hostile_texts_agree_with_the_pattern() -> None:
    rng = random.Random(11)
    for _ in range(20000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(12)))
        for phrase in PHRASES:
            assert at._contains_phrase(text, phrase) is _by_pattern(text, phrase), (text, phrase)
        slots = {s for s, cues in at.SLOT_CUES.items() if any(_by_pattern(text, c) for c in cues)}
        assert at.question_slots(text) == (slots or {"open"})
        genres = any(_by_pattern(text, w) for ws in at.GENRE_WORDS.values() for w in ws)
        assert at.mentions_any_genre(text) is genres

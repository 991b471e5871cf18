"""One dialogue's user-side measures (pure functions of a UserSide; the catalog only through
the title index and the target's attributes).

- words: a turn's length in words (runs of letters, digits and apostrophes).
- attributes: how many of the sought item's attribute values a turn names: its genres (as
  data/attributes.py's genre words), its year or decade, each attribute value (a person's
  full name, or a surname of 4 letters or more, for people attributes) and each keyword.
- questions: the question marks a turn ends a sentence with ("??" is one).
- titles: whether a turn names a title (a corpus marker, or the catalog title index).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from macrs_sim.analysis.realism.side import UserSide
from macrs_sim.analysis.realism.titles import TitleIndex
from macrs_sim.data.attributes import mentions_decade, mentions_genre, mentions_keyword, text_words
from macrs_sim.protocol import Item

PEOPLE = frozenset({"director", "cast", "actors", "writer", "writers", "starring", "creator"})
SURNAME_MIN = 4
_WORD = re.compile(r"[a-z0-9']+")
_QUESTION = re.compile(r"\?+")


@dataclass(frozen=True)
class DialogueMeasures:
    words: tuple[int, ...]
    attributes: tuple[int, ...] | None  # None: the sought item is not in the catalog
    titles: tuple[bool, ...]
    questions: tuple[int, ...]
    answers: tuple[str, ...]
    first_accept: int | None
    texts: tuple[str, ...]  # each turn's words, lower case, space-separated (distinct-n)


def turn_words(text: str) -> list[str]:
    return _WORD.findall(text.lower())


def question_count(text: str) -> int:
    return len(_QUESTION.findall(text))


def _names_person(text: str, name: str) -> bool:
    if mentions_keyword(text, name):
        return True
    parts = _WORD.findall(name.lower())
    return len(parts) >= 2 and len(parts[-1]) >= SURNAME_MIN and parts[-1] in text_words(text)


def attributes_named(text: str, item: Item) -> int:
    """Distinct attribute values of `item` the text names (see the module's rules)."""
    found = sum(mentions_genre(text, g) for g in item.categories)
    found += item.year is not None and mentions_decade(text, item.year)
    seen = {g.lower() for g in item.categories}
    for name, values in item.attributes:
        for value in values:
            if value.lower() in seen:
                continue
            seen.add(value.lower())
            named = _names_person(text, value) if name in PEOPLE else mentions_keyword(text, value)
            found += named
    found += sum(mentions_keyword(text, k) for k in item.keywords if k.lower() not in seen)
    return int(found)


def measure(side: UserSide, titles: TitleIndex) -> DialogueMeasures:
    target = side.target
    tokens = [turn_words(t) for t in side.turns]
    return DialogueMeasures(
        words=tuple(len(ws) for ws in tokens),
        attributes=None
        if target is None
        else tuple(attributes_named(t, target) for t in side.turns),
        titles=tuple(
            m or titles.names_title(t) for m, t in zip(side.marked, side.turns, strict=True)
        ),
        questions=tuple(question_count(t) for t in side.turns),
        answers=side.answers,
        first_accept=side.first_accept,
        texts=tuple(" ".join(ws) for ws in tokens),
    )

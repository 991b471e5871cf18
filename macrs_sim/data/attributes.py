"""An item's describable attributes, and whether a piece of text mentions them.

Shared by the rule-based user simulator (which states attributes) and the
validity statistics (which check that a user's reason names something true
about the target). Matching is lexical and deterministic so both are auditable.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from macrs_sim.protocol import Item

# Words people use for each catalog genre besides its name (MovieLens and demo genres).
GENRE_WORDS: dict[str, tuple[str, ...]] = {
    "Action": ("action",),
    "Adventure": ("adventure",),
    "Animation": ("animation", "animated", "cartoon"),
    "Children": ("children", "kids", "family"),
    "Comedy": ("comedy", "comedies", "funny", "comedic"),
    "Crime": ("crime", "gangster", "heist"),
    "Documentary": ("documentary", "documentaries"),
    "Drama": ("drama", "dramatic"),
    "Family": ("family", "kids", "children"),
    "Fantasy": ("fantasy",),
    "Film-Noir": ("noir",),
    "Horror": ("horror", "scary"),
    "IMAX": ("imax",),
    "Musical": ("musical", "musicals"),
    "Mystery": ("mystery", "mysteries", "whodunit"),
    "Romance": ("romance", "romantic", "love story"),
    "Sci-Fi": ("sci-fi", "sci fi", "science fiction", "scifi"),
    "Thriller": ("thriller", "suspense"),
    "War": ("war",),
    "Western": ("western",),
}

_NUMBER_WORDS = {
    1920: "twenties",
    1930: "thirties",
    1940: "forties",
    1950: "fifties",
    1960: "sixties",
    1970: "seventies",
    1980: "eighties",
    1990: "nineties",
}


@functools.lru_cache(maxsize=4096)
def _phrase_pattern(phrase: str) -> re.Pattern[str]:
    return re.compile(r"(?<![a-z0-9])" + re.escape(phrase.lower()) + r"(?![a-z0-9])")


_WORD = re.compile(r"[a-z0-9]+")


@functools.lru_cache(maxsize=4096)
def _phrase_key(phrase: str) -> str | re.Pattern[str]:
    """A one-word phrase as its lower-case word, any other as its pattern."""
    low = phrase.lower()
    return low if _WORD.fullmatch(low) else _phrase_pattern(phrase)


# A turn's text is checked against hundreds of phrases: lower it and split it once.
@functools.lru_cache(maxsize=1024)
def _lower_words(text: str) -> tuple[str, frozenset[str]]:
    low = text.lower()
    return low, frozenset(_WORD.findall(low))


def _contains_phrase(text: str, phrase: str) -> bool:
    """Whole-word, case-insensitive containment ('war' is not in 'award').

    A one-word phrase is whole in the text exactly when it is one of the text's maximal runs
    of [a-z0-9] (the pattern's boundaries), so a set lookup answers it; others use the pattern.
    """
    key = _phrase_key(phrase)
    low, words = _lower_words(text)
    if isinstance(key, str):
        return key in words
    return key.search(low) is not None


def genre_words(genre: str) -> tuple[str, ...]:
    return GENRE_WORDS.get(genre, (genre.lower(),))


def mentions_genre(text: str, genre: str) -> bool:
    return any(_contains_phrase(text, w) for w in genre_words(genre))


def decade_of(year: int) -> int:
    return year - year % 10


def decade_label(year: int) -> str:
    """1994 -> '1990s'."""
    return f"{decade_of(year)}s"


def mentions_decade(text: str, year: int) -> bool:
    """The exact year, its decade ('1990s', '90s', "'90s") or its name ('nineties')."""
    decade = decade_of(year)
    forms = [str(year), f"{decade}s", f"{decade % 100:02d}s"]
    if decade in _NUMBER_WORDS:
        forms.append(_NUMBER_WORDS[decade])
    return any(_contains_phrase(text, f) for f in forms)


_STOPWORDS = {"a", "an", "the", "of", "and", "in", "on", "with", "to", "for", "film", "movie"}


@functools.lru_cache(maxsize=4096)
def content_words(keyword: str) -> frozenset[str]:
    """The words mentions_keyword looks for (empty: the keyword is never mentioned)."""
    return frozenset(w for w in _WORD.findall(keyword.lower()) if w not in _STOPWORDS)


def text_words(text: str) -> frozenset[str]:
    """The text's whole words, lower case (its maximal runs of [a-z0-9])."""
    return _lower_words(text)[1]


def mentions_keyword(text: str, keyword: str) -> bool:
    """The keyword's content words all appear ('mafia family' matches 'a family of mafia')."""
    words = content_words(keyword)
    return bool(words) and words <= _lower_words(text)[1]


@dataclass(frozen=True)
class ItemAttributes:
    """What a user may say about an item without naming it or its people."""

    genres: tuple[str, ...]
    year: int | None
    keywords: tuple[str, ...]

    @classmethod
    def of(cls, item: Item, profile: tuple[str, ...] = ()) -> ItemAttributes:
        """Profile keywords (the simulator's view) first, then the catalog's own keywords."""
        seen: dict[str, str] = {}
        for kw in (*profile, *item.keywords):
            seen.setdefault(kw.lower(), kw)
        return cls(item.genres, item.year, tuple(seen.values()))

    def mentioned_in(self, text: str) -> list[str]:
        """Which attributes the text names, as 'genre:X', 'decade:1990s', 'keyword:X'."""
        found = [f"genre:{g}" for g in self.genres if mentions_genre(text, g)]
        if self.year is not None and mentions_decade(text, self.year):
            found.append(f"decade:{decade_label(self.year)}")
        found += [f"keyword:{k}" for k in self.keywords if mentions_keyword(text, k)]
        return found


# What a system question is about, by the words it uses. "open" = no recognised slot.
SLOT_CUES: dict[str, tuple[str, ...]] = {
    "genre": ("genre", "genres", "type of", "kind of", "sort of", "style"),
    "era": (
        "year",
        "years",
        "decade",
        "era",
        "old",
        "older",
        "recent",
        "new",
        "newer",
        "classic",
        "released",
        "release",
        "modern",
    ),
    "theme": (
        "about",
        "theme",
        "themes",
        "plot",
        "story",
        "mood",
        "topic",
        "feel",
        "vibe",
        "setting",
        "elements",
    ),
    "people": ("actor", "actors", "actress", "director", "directors", "star", "cast", "starring"),
}

_ERA_WORDS = (
    "recent",
    "new",
    "newer",
    "old",
    "older",
    "classic",
    "modern",
    "latest",
    "vintage",
    *_NUMBER_WORDS.values(),
)
_ERA_PATTERN = re.compile(r"(?<![0-9])(?:(?:19|20)\d\d|'?\d0s)(?![0-9])")
NO_PREFERENCE = (
    "no preference",
    "don't mind",
    "do not mind",
    "doesn't matter",
    "does not matter",
    "not really",
    "no particular",
    "anyone",
    "any actor",
    "no favorite",
    "no favourite",
)


class _Cues:
    """Phrases to look for in a text: the one-word ones as a set, met by one intersection
    with the text's words; the others (several words, punctuation) by their patterns."""

    def __init__(self, phrases: tuple[str, ...]) -> None:
        keys = [_phrase_key(p) for p in phrases]
        self.words = frozenset(k for k in keys if isinstance(k, str))
        self.patterns = tuple(k for k in keys if not isinstance(k, str))

    def any_in(self, text: str) -> bool:
        low, words = _lower_words(text)
        return not self.words.isdisjoint(words) or any(p.search(low) for p in self.patterns)


_SLOT_CUES = {slot: _Cues(cues) for slot, cues in SLOT_CUES.items()}
_ANY_GENRE = _Cues(tuple(w for words in GENRE_WORDS.values() for w in words))
_ERA_CUES = _Cues(_ERA_WORDS)


def question_slots(text: str) -> set[str]:
    """Slots a system utterance asks about; {'open'} when none is recognised."""
    slots = {slot for slot, cues in _SLOT_CUES.items() if cues.any_in(text)}
    return slots or {"open"}


def mentions_any_genre(text: str) -> bool:
    return _ANY_GENRE.any_in(text)


def mentions_era(text: str) -> bool:
    return bool(_ERA_PATTERN.search(text)) or _ERA_CUES.any_in(text)


def answers_slot(text: str, slot: str, target: ItemAttributes) -> bool:
    """Whether a user reply gives a value for the slot it was asked about."""
    if slot == "genre":
        return mentions_any_genre(text)
    if slot == "era":
        return mentions_era(text)
    if slot == "people":
        return any(p in text.lower() for p in NO_PREFERENCE) or bool(
            re.search(r"\b[A-Z][a-z]+ [A-Z][a-z]+\b", text)
        )
    # theme / open: any true fact about the target, or at least a genre or an era
    return bool(target.mentioned_in(text)) or mentions_any_genre(text) or mentions_era(text)

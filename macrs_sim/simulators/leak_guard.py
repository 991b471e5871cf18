"""Catches a simulated user naming its hidden target, and redacts it as a last resort.

Matching runs on the text with accents folded (Amélie = Amelie), character by character,
so a match maps back to the exact span of the original text for redaction.

Which spellings count as naming a title (its normalised form: no year, no punctuation):

* two or more words ("The Matrix Reloaded", "Toy Story"), or one long (6+ letters) or
  distinctive word (a digit or an accented letter: *Godfather*, *Se7en*, *Amélie*,
  *1917*): case-insensitive, any punctuation between the words, with or without a
  leading "the";
* one short word (*Up*, *Heat*, *The Game*): capitalised ("Up", "UP"), or quoted in any
  case ('"up"'), or, when the title has the article ("The Game", MovieLens "Game, The"),
  the article form in any case ("the game"); so everyday words ("cheer me up", "the heat
  of summer", "a game night") never fire. Titles that are function words (*It*, *Us*,
  *Her*) do not count capitalised at the start of a sentence ("It should be scary.").

A title of two or more words is read as the grounder reads it (title_patterns): a number
in any spelling ("Kill Bill Vol. I"), a trailing 1 optional ("Kill Bill"), and not when
another instalment's number follows ("Kill Bill Vol. 2", "Toy Story 2"). A film's shorter
names that the grounder maps to it are guarded too (`LeakGuard.for_item`, title_forms:
"Terminator 2", "Judgment Day", "Star Wars" for Episode IV); one of two words without a
number counts only capitalised, so an everyday phrase ("judgment day is near") never fires.

A product's long name is given away by its distinctive part too (`distinctive_forms`):
"Serendipity 3 gift card" names "Serendipity 3 $100.00 Gift Card", and "Hydro Boost
Water Gel" names "Neutrogena Hydro Boost Water Gel, 1.7 oz".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from functools import lru_cache

from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.data.grounding import normalize_title
from macrs_sim.protocol import Item
from macrs_sim.simulators.product_forms import distinctive_forms
from macrs_sim.simulators.title_forms import grounded_forms
from macrs_sim.simulators.title_patterns import (
    OTHER_NUMBER,
    inside_a_longer_name,
    tokens,
    words_core,
)

_SEP = r"[^a-z0-9]+"
_QUOTES = "\"'“”‘’*_"
# One-word titles that open everyday sentences: capitalised, they count only mid-sentence.
# fmt: off
FUNCTION_WORDS = frozenset({
    "it", "us", "her", "him", "them", "me", "we", "you", "she", "he", "they", "this", "that",
    "these", "those", "there", "here", "what", "why", "how", "when", "who", "where", "which",
    "so", "and", "but", "or", "if", "yes", "no", "now", "then", "all", "any", "some",
})
# fmt: on
# Mid-sentence: a word character (not . ! ? : ; quote, bracket or dash) and one space before.
_MID_SENTENCE = r"(?<=[^\s.!?:;\"“'‘(\-]\s)"
_LEADING_THE = re.compile(r"^\s*the\s+", re.IGNORECASE)
_TRAILING_THE = re.compile(r",\s*the\s*(\(\s*\d{4}\s*\))?\s*$", re.IGNORECASE)
_NO_SUBTITLE = r"(?!\s*:\s*[a-z0-9])"


def fold(text: str) -> tuple[str, list[int]]:
    """Accent-free text (case kept) and, per folded character, its index in `text`."""
    chars: list[str] = []
    index: list[int] = []
    for i, ch in enumerate(text):
        if ch == "&":  # as normalize_title does
            folded = " and "
        elif ch.isascii():
            folded = ch
        else:
            folded = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
        chars.append(folded)
        index.extend([i] * len(folded))
    return "".join(chars), index


def fold_text(text: str) -> str:
    """`fold(text)`'s text alone; ASCII text (most replies) skips the per-character walk."""
    if text.isascii():
        return text.replace("&", " and ")
    return fold(text)[0]


@lru_cache(maxsize=4096)  # a target's guard is built for its profile, opening and each system
def name_pattern(
    name: str, *, initials: bool = False, alone: bool = False, numbers: bool = True
) -> re.Pattern[str] | None:
    """The pattern that finds `name` in folded text (rules in the module docstring).

    `numbers` (titles, not product names): numbers in any spelling, a trailing 1 optional,
    never followed by another instalment's number (title_patterns). `initials`: a name of
    several words counts only with its capitals. `alone`: not followed by a colon and a
    subtitle (a shorter name followed by another film's subtitle names that film)."""
    words = normalize_title(name).split()
    if not words:
        return None
    after = (OTHER_NUMBER if numbers else "") + (_NO_SUBTITLE if alone else "")
    tail = f"(?i:{after})" if after else ""

    def bounded(body: str) -> str:
        return rf"(?<![A-Za-z0-9]){body}(?![A-Za-z0-9])" + tail

    if len(words) >= 2:
        said = tokens(name)[0]
        core = words_core(said, initials=initials, numbers=numbers)
        article = "(?:the|an|a)" if numbers else "the"  # a title's own: "A New Hope"
        return re.compile(bounded(rf"(?:{article}{_SEP})?{core}"), re.IGNORECASE)
    core = _SEP.join(re.escape(w) for w in words)
    word = words[0]
    distinctive = any(c.isdigit() for c in word) or not name.isascii()
    if len(word) >= 6 or distinctive or not word[0].isalpha():
        return re.compile(bounded(rf"(?:the{_SEP})?{core}"), re.IGNORECASE)
    mid = _MID_SENTENCE if word in FUNCTION_WORDS else ""
    forms = [
        f"{mid}{word[0].upper()}(?i:{re.escape(word[1:])})",  # capitalised
        f"[{re.escape(_QUOTES)}](?i:{core})[{re.escape(_QUOTES)}]",  # quoted
    ]
    if _LEADING_THE.match(name) or _TRAILING_THE.search(name):
        forms.insert(0, f"(?i:the{_SEP}{core})")
    return re.compile(bounded("(?:" + "|".join(forms) + ")"))


class LeakGuard:
    """Finds the target's title, or any of its alternative titles, in a text."""

    def __init__(
        self,
        title: str,
        *aka: str,
        noun: str = "movie",
        shorter: Sequence[str] = (),
        numbers: bool = True,
    ) -> None:
        """`shorter`: shorter names of the item (title_forms.grounded_forms), each not followed
        by a subtitle; one of two words without a number counts only with its capitals ("Star
        Wars", not "star wars"; "Judgment Day", not "judgment day"). `numbers`: read numbers
        as titles state them (title_patterns); off for product and business names."""
        self.title = title.strip()
        self.redaction = f"that {noun}"
        names = dict.fromkeys(n.strip() for n in (title, *aka) if n.strip())
        forms = [f.strip() for f in shorter if f.strip() and f.strip() not in names]
        whole = [(name_pattern(n, numbers=numbers), False) for n in names]
        short = [
            (name_pattern(f, initials=_everyday_shape(f), alone=True, numbers=numbers), True)
            for f in forms
        ]
        self._patterns = [(p, s) for p, s in (*whole, *short) if p is not None]

    @classmethod
    def for_item(cls, item: Item, domain: Domain = MOVIES) -> LeakGuard:
        """The item's title and alternative titles, plus, where the domain names its items
        by long names (products, businesses), their distinctive forms, and elsewhere (films,
        games) every shorter name the grounder maps to the item (title_forms); a redaction
        says "that <the domain's noun>"."""
        short: list[str] = []
        if domain.grounding.matcher == "names":
            brands = item.attribute("brand")
            short = [f for t in (item.title, *item.aka) for f in distinctive_forms(t, brands)]
            guard = cls(item.title, *item.aka, *short, noun=domain.noun, numbers=False)
        else:
            guard = cls(item.title, *item.aka, noun=domain.noun, shorter=grounded_forms(item))
        guard.title = item.title.strip()
        return guard

    def leaks(self, text: str) -> bool:
        folded = fold_text(text)
        return any(next(_found(p, folded, s), None) for p, s in self._patterns)

    def redact(self, text: str) -> str:
        for pattern, shorter in self._patterns:
            text = _redact_one(pattern, text, self.redaction, shorter)
        return text


def _everyday_shape(form: str) -> bool:
    """Two words and no digit: a shape everyday phrases share ("judgment day")."""
    return len(normalize_title(form).split()) == 2 and not any(c.isdigit() for c in form)


def _found(pattern: re.Pattern[str], text: str, shorter: bool) -> Iterator[re.Match[str]]:
    """The pattern's matches; a shorter name's only where it stands alone."""
    for m in pattern.finditer(text):
        if not (shorter and inside_a_longer_name(text, m)):
            yield m


def _redact_one(pattern: re.Pattern[str], text: str, redaction: str, shorter: bool) -> str:
    folded, index = fold(text)
    matches = _found(pattern, folded, shorter)
    spans = [(index[m.start()], index[m.end() - 1] + 1) for m in matches]
    for start, end in reversed(spans):
        text = text[:start] + redaction + text[end:]
    return text

"""Match keys: a title's words and numbers, whole and per part.

Parts are what colons and spaced dashes separate: "Star Wars: Episode IV - A New Hope"
has the parts "star wars", "" (numbers (4,)) and "new hope". Articles are dropped
everywhere, apostrophes are dropped inside words, accents are folded, dotted
acronyms are closed up ("E.T." -> "et").
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple

from macrs_sim.data.grounding.numbers import split_numbers

ARTICLES = frozenset({"the", "a", "an", "l"})  # "l" from the elided "L'"

# Dashes become "-", apostrophes "'"; letters NFKD does not decompose are spelled out;
# superscript numbers become numbers ("Alien³").
_SPECIAL = str.maketrans(
    {**dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
     **dict.fromkeys("’‘`´", "'"),
     "ø": "o", "Ø": "O", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ß": "ss", "ł": "l",
     "Ł": "L", "đ": "d", "Đ": "D", "²": " 2", "³": " 3"}
)  # fmt: skip
_ACRONYM = re.compile(r"(?<![a-z0-9])[a-z](?:\.[a-z])+\.?(?![a-z])")
_ELISION = re.compile(r"(?<![a-z])([a-z])'(?=[a-z])")
_ARTICLE_SUFFIX = re.compile(r",\s*(?:the|a|an)$")
# " or: " (Dr. Strangelove), a colon not between digits ("3:10 to Yuma" stays), " - ".
_SEPARATOR = re.compile(r"\s+(or:)\s*|\s*(?:(?<!\d):|:(?!\d))\s*|\s+-+\s+")
_NON_ALNUM = re.compile(r"[^a-z0-9]+")


class Part(NamedTuple):
    words: str
    numbers: tuple[int, ...]


class TitleKey(NamedTuple):
    """`numbers` never hold a 1 (a first film has no number, "Rocky 1" is "Rocky");
    `states_one` keeps that one was said, so "Star Wars: Episode I" is not "Star Wars"."""

    full: Part  # every part's words in order; all numbers, sorted
    parts: tuple[Part, ...]
    or_title: bool  # "X or: Y": X is the title's own short name
    states_one: bool


def fold(text: str) -> str:
    """Lowercase ASCII with dashes kept as '-', acronyms closed up, apostrophes gone.

    Each step runs only when its character is there: this is on every grounding's path.
    """
    text = text.translate(_SPECIAL)
    if not text.isascii():  # accents go; other symbols ("WALL·E") separate words
        text = unicodedata.normalize("NFKD", text)
        text = "".join(c if c.isascii() else "" if unicodedata.combining(c) else " " for c in text)
    text = text.lower()
    if "." in text:
        text = _ACRONYM.sub(lambda m: m.group(0).replace(".", ""), text)
    if "'" in text:
        text = _ELISION.sub(r"\1 ", text).replace("'", "")
    if "&" in text:
        text = text.replace("&", " and ")
    if "," in text:
        text = _ARTICLE_SUFFIX.sub("", text)
    return text.strip()


def _part(text: str) -> tuple[Part, bool]:
    words, numbers = split_numbers(_NON_ALNUM.sub(" ", text).split())
    kept = " ".join(w for w in words if w not in ARTICLES)
    return Part(kept, tuple(sorted(n for n in numbers if n != 1))), 1 in numbers


def title_key(title: str) -> TitleKey:
    text = fold(title)
    if ":" not in text and "-" not in text:  # one part: the common case, kept fast
        part, one = _part(text)
        return TitleKey(part, (part,), False, one)
    pieces = _SEPARATOR.split(text)
    # split() interleaves the captured "or:" (or None) between the pieces.
    texts = pieces[0::2]
    # "Dr. Strangelove or: How I ...", MovieLens' "Birdman: Or (The Unexpected ...)".
    or_title = len(texts) > 1 and (pieces[1] == "or:" or texts[1].split()[:1] == ["or"])
    if or_title and pieces[1] != "or:":
        texts[1] = texts[1].split(None, 1)[1] if " " in texts[1].strip() else ""
    read = [_part(t) for t in texts]
    parts = tuple(p for p, _ in read if p.words or p.numbers) or (Part("", ()),)
    words = " ".join(p.words for p in parts if p.words)
    numbers = tuple(sorted(n for p in parts for n in p.numbers))
    return TitleKey(Part(words, numbers), parts, or_title, any(one for _, one in read))

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

A product's long name is given away by its distinctive part too (`distinctive_forms`):
"Serendipity 3 gift card" names "Serendipity 3 $100.00 Gift Card", and "Hydro Boost
Water Gel" names "Neutrogena Hydro Boost Water Gel, 1.7 oz".
"""

from __future__ import annotations

import re
import unicodedata

from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.data.grounding import normalize_title
from macrs_sim.protocol import Item

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


def name_pattern(name: str) -> re.Pattern[str] | None:
    """The pattern that finds `name` in folded text (rules in the module docstring)."""
    words = normalize_title(name).split()
    if not words:
        return None
    core = _SEP.join(re.escape(w) for w in words)
    bounded = r"(?<![A-Za-z0-9]){}(?![A-Za-z0-9])"
    word = words[0]
    distinctive = any(c.isdigit() for c in word) or not name.isascii()
    if len(words) >= 2 or len(word) >= 6 or distinctive or not word[0].isalpha():
        return re.compile(bounded.format(rf"(?:the{_SEP})?{core}"), re.IGNORECASE)
    mid = _MID_SENTENCE if word in FUNCTION_WORDS else ""
    forms = [
        f"{mid}{word[0].upper()}(?i:{re.escape(word[1:])})",  # capitalised
        f"[{re.escape(_QUOTES)}](?i:{core})[{re.escape(_QUOTES)}]",  # quoted
    ]
    if _LEADING_THE.match(name) or _TRAILING_THE.search(name):
        forms.insert(0, f"(?i:the{_SEP}{core})")
    return re.compile(bounded.format("(?:" + "|".join(forms) + ")"))


# Amounts and sizes in a product's name: "$100.00", "1.7 oz", "16 GB", "4 Count", "Pack of 2".
_AMOUNT = re.compile(
    r"\$\s?\d[\d,]*(?:\.\d+)?"
    r"|(?<![A-Za-z0-9])\d+(?:\.\d+)?\s?(?:fl\.?\s?oz|oz|ml|g|kg|lbs?|gb|tb|count|ct|pack|pk"
    r"|pcs|pieces|inch|cm|mm)(?![A-Za-z0-9])"
    r"|(?:pack|set|box) of \d+",
    re.IGNORECASE,
)
_MIN_PRODUCT_WORDS = 4
# A shorter form must still be a name, not everyday words: "Soft Cream" is both.
_MIN_FORM_WORDS = 3


def distinctive_forms(title: str, brands: tuple[str, ...] = ()) -> list[str]:
    """The shorter forms that still name a product: its name without amounts and sizes, the
    part before its first comma, and that part without the brand in front. Only for names of
    four or more words that state an amount or size (no film title is touched)."""
    if len(title.split()) < _MIN_PRODUCT_WORDS or not _AMOUNT.search(title):
        return []
    bare = re.sub(r"\s+", " ", _AMOUNT.sub(" ", title)).strip(" ,-")
    head = bare.split(",")[0].strip()
    forms = [bare, head]
    for brand in brands:
        if head.lower().startswith(brand.lower() + " "):
            forms.append(head[len(brand) :].strip())
    return [f for f in dict.fromkeys(forms) if len(f.split()) >= _MIN_FORM_WORDS and f != title]


class LeakGuard:
    """Finds the target's title, or any of its alternative titles, in a text."""

    def __init__(self, title: str, *aka: str, noun: str = "movie") -> None:
        self.title = title.strip()
        self.redaction = f"that {noun}"
        names = dict.fromkeys(n.strip() for n in (title, *aka) if n.strip())
        self._patterns = [p for p in map(name_pattern, names) if p is not None]

    @classmethod
    def for_item(cls, item: Item, domain: Domain = MOVIES) -> LeakGuard:
        """The item's title and alternative titles, plus, where the domain names its items
        by long names (products, businesses), their distinctive forms; a redaction says
        "that <the domain's noun>"."""
        short: list[str] = []
        if domain.grounding.matcher == "names":
            brands = item.attribute("brand")
            short = [f for t in (item.title, *item.aka) for f in distinctive_forms(t, brands)]
        guard = cls(item.title, *item.aka, *short, noun=domain.noun)
        guard.title = item.title.strip()
        return guard

    def leaks(self, text: str) -> bool:
        folded = fold_text(text)
        return any(p.search(folded) for p in self._patterns)

    def redact(self, text: str) -> str:
        for pattern in self._patterns:
            text = _redact_one(pattern, text, self.redaction)
        return text


def _redact_one(pattern: re.Pattern[str], text: str, redaction: str) -> str:
    folded, index = fold(text)
    spans = [(index[m.start()], index[m.end() - 1] + 1) for m in pattern.finditer(folded)]
    for start, end in reversed(spans):
        text = text[:start] + redaction + text[end:]
    return text

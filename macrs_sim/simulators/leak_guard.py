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
"""

from __future__ import annotations

import re
import unicodedata

from macrs_sim.data.grounding import normalize_title

REDACTION = "that movie"

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


class LeakGuard:
    """Finds the target's title, or any of its alternative titles, in a text."""

    def __init__(self, title: str, *aka: str) -> None:
        self.title = title.strip()
        names = dict.fromkeys(n.strip() for n in (title, *aka) if n.strip())
        self._patterns = [p for p in map(name_pattern, names) if p is not None]

    def leaks(self, text: str) -> bool:
        folded = fold_text(text)
        return any(p.search(folded) for p in self._patterns)

    def redact(self, text: str) -> str:
        for pattern in self._patterns:
            text = _redact_one(pattern, text)
        return text


def _redact_one(pattern: re.Pattern[str], text: str) -> str:
    folded, index = fold(text)
    spans = [(index[m.start()], index[m.end() - 1] + 1) for m in pattern.finditer(folded)]
    for start, end in reversed(spans):
        text = text[:start] + REDACTION + text[end:]
    return text

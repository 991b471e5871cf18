"""The regular expression of a title of two or more words, read as the grounder reads it.

The grounder compares a title's words and its numbers apart (data/grounding/numbers.py), so
the guard does too: a number matches in any of its spellings, with or without a marker
("Kill Bill: Volume 1" is said "Kill Bill Vol. 1", "Kill Bill vol I"; "Terminator 2" is
"Terminator II"); a trailing 1 may be left out, as the grounder drops it (a first film has
no number: "Kill Bill" names Volume 1); and a title followed by another instalment's number
(`OTHER_NUMBER`: "Kill Bill Vol. 2", "Toy Story 2") names that instalment, not this one. A
year is no instalment number ("Heat 1995").
"""

from __future__ import annotations

import re
import unicodedata

from macrs_sim.data.grounding import split_year
from macrs_sim.data.grounding.numbers import (
    AFTER_MARKER,
    MARKERS,
    ORDINALS,
    ROMAN,
    ROMAN_FINAL,
    SPELLED,
)

SEP = r"[^a-z0-9]+"
_ARTICLE_SUFFIX = re.compile(r",\s*(?:the|a|an)$", re.IGNORECASE)
_ARTICLES = frozenset({"the", "a", "an"})
_MARK = "(?:" + "|".join(sorted(MARKERS, key=len, reverse=True)) + ")"
# What starts another instalment's number after a title: a marker and a number, a number
# of up to three digits, a roman numeral of two letters or more.
_ROMANS = "|".join(sorted(ROMAN, key=len, reverse=True))
OTHER_NUMBER = rf"(?!{SEP}(?:{_MARK}{SEP}[a-z0-9]|\d{{1,3}}(?![a-z0-9])|(?:{_ROMANS})(?![a-z0-9])))"


def tokens(name: str) -> tuple[list[str], bool]:
    """A title's words with their case, as `normalize_title` splits them (no year, accents
    folded, no leading article), and whether it had an article ("The Game", "Game, The")."""
    base, _ = split_year(name.strip().strip("\"'“”‘’*"))
    text = unicodedata.normalize("NFKD", base).encode("ascii", "ignore").decode()
    suffixed = bool(_ARTICLE_SUFFIX.search(text))
    text = _ARTICLE_SUFFIX.sub("", text).replace("&", " and ")
    words = re.findall(r"[A-Za-z0-9]+", text)
    leading = bool(words) and words[0].lower() in _ARTICLES and len(words) > 1
    return (words[1:] if leading else words), suffixed or leading


def _spellings(value: int, marked: bool) -> list[str]:
    plain = {str(value)} | {w for w, n in {**SPELLED, **ROMAN}.items() if n == value}
    if marked:
        extra = {**AFTER_MARKER, **ORDINALS, **ROMAN_FINAL}
        plain |= {w for w, n in extra.items() if n == value}
    return sorted(plain, key=len, reverse=True)


def _number(said: str, value: int) -> str:
    """Any spelling of `value`, with a marker in front or not ("Vol. I" only with one);
    digits also as written ("007")."""
    literal = [said] if said.isdigit() else []
    bare = "|".join([*literal, *_spellings(value, marked=False)])
    marked = "|".join(_spellings(value, marked=True))
    return rf"(?:{_MARK}{SEP}(?:{marked})|(?:{bare}))"


def _segments(words: list[str]) -> list[tuple[str, int | None]]:
    """(word, None) or (text, number) per token; a marker and its number are one segment."""
    out: list[tuple[str, int | None]] = []
    i, last = 0, len(words) - 1
    while i <= last:
        low = words[i].lower()
        nxt = words[i + 1].lower() if i < last else ""
        if low in MARKERS and nxt and (nxt.isdigit() or nxt in AFTER_MARKER or nxt in ROMAN):
            value = int(nxt) if nxt.isdigit() else AFTER_MARKER.get(nxt, ROMAN.get(nxt, 0))
            out.append((f"{low} {nxt}", value))
            i += 2
            continue
        if low.isdigit() and len(low) < 4:
            out.append((low, int(low)))
        elif low in SPELLED or low in ROMAN:
            out.append((low, SPELLED.get(low, ROMAN.get(low))))
        else:
            out.append((words[i], None))
        i += 1
    return out


def _word(word: str, initials: bool) -> str:
    if initials and word[0].isupper():
        return f"(?-i:{re.escape(word[0])}){re.escape(word[1:].lower())}"
    return re.escape(word.lower())


def words_core(words: list[str], *, initials: bool = False, numbers: bool = True) -> str:
    """The pattern of two or more words (case-insensitive; with `initials`, the words the
    title capitalises must start with a capital); with `numbers`, each number in any
    spelling and a trailing 1 optional (OTHER_NUMBER goes after the whole name)."""
    if not numbers:
        return SEP.join(_word(w, initials) for w in words)
    segments = _segments(words)
    pieces = [_word(w, initials) if n is None else _number(w, n) for w, n in segments]
    if len(pieces) > 1 and segments[-1][1] == 1:
        return SEP.join(pieces[:-1]) + f"(?:{SEP}{pieces[-1]})?"
    return SEP.join(pieces)


_NEXT_WORD = re.compile(r"\s+([A-Za-z0-9]+)")
_PREVIOUS_WORD = re.compile(r"([A-Za-z0-9][A-Za-z0-9']*)\s+$")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;\"“(\-])\s*$")


def inside_a_longer_name(text: str, m: re.Match[str]) -> bool:
    """A shorter name next to a capitalised word is part of another name: "Seven" in "Seven
    Samurai" or "The Magnificent Seven" (a capital at a sentence's start, and "I", aside)."""
    after = _NEXT_WORD.match(text, m.end())
    if after and after.group(1)[0].isupper() and after.group(1) != "I":
        return True
    before = _PREVIOUS_WORD.search(text, 0, m.start())
    if not before or not before.group(1)[0].isupper() or before.group(1) == "I":
        return False
    return not _SENTENCE_START.search(text, 0, before.start())

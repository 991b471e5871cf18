"""Text clean-up before matching: model decorations off, the stated year split off.

`normalize_title` keeps its historical behaviour (the leak guard builds its patterns
from it); the grounder's own keys come from `keys.title_key`.
"""

from __future__ import annotations

import re
import unicodedata

_YEAR = re.compile(r"\s*[\(\[]\s*((?:19|20)\d\d)\s*[\)\]]\s*$")
_ARTICLE_SUFFIX = re.compile(r",\s*(the|a|an)$")
_LEADING_ARTICLE = re.compile(r"^(the|a|an)\s+")

# "1. ", "- ", "* ", "• " in front of a list entry.
_LIST_MARKER = re.compile(r"^\s*(?:[-*•·]|\d{1,2}[.)])\s+")
# A bracketed group holding a year: "(1995)", "[1995]", "(1995 film)", "(dir. Mann, 1995)".
_YEAR_GROUP = re.compile(r"[\(\[][^()\[\]]*?\b((?:19|20)\d\d)\b[^()\[\]]*?[\)\]]")
_YEAR_AFTER_COMMA = re.compile(r",\s*((?:19|20)\d\d)\s*$")
_NO_DOUBLE_QUOTES = str.maketrans(dict.fromkeys('"“”«»„'))
_MARKER_STARTS = frozenset("-*•·0123456789")
_SINGLE_QUOTES = frozenset("'‘’")
_TRAILING = frozenset(" .,;:*_'‘’")
_WRAPPING_SINGLE = re.compile(r"^['‘’](.+?)['‘’](?=\s|$)")
_TRAILING_PUNCT = re.compile(r"[\s.,;:]+$")


def split_year(title: str) -> tuple[str, int | None]:
    """'Heat (1995)' -> ('Heat', 1995)."""
    m = _YEAR.search(title)
    if not m:
        return title.strip(), None
    return title[: m.start()].strip(), int(m.group(1))


def normalize_title(title: str) -> str:
    """Lowercase, no accents/punctuation/year/leading article: 'The Matrix (1999)' -> 'matrix'."""
    base, _ = split_year(title.strip().strip("\"'“”‘’*"))
    text = unicodedata.normalize("NFKD", base).encode("ascii", "ignore").decode().lower()
    text = _ARTICLE_SUFFIX.sub("", text)  # MovieLens style "Matrix, The"
    text = text.replace("&", " and ")
    text = re.sub(r"[^a-z0-9]+", " ", text).strip()
    return _LEADING_ARTICLE.sub("", text)


def strip_decorations(said: str) -> tuple[str, int | None]:
    """A title as a model writes it -> (bare title, stated year or None).

    '**Heat** (1995) - a crime thriller.' -> ('Heat', 1995); '1. "Alien"' -> ('Alien', None).
    Whatever follows the year (a description) is dropped. Each step runs only when its
    character is there: this is on every grounding's path.
    """
    text = said.strip()
    if text[:1] in _MARKER_STARTS:
        text = _LIST_MARKER.sub("", text)
    if "*" in text or "_" in text:
        text = text.replace("**", "").replace("__", "").strip("*_ \t")
    text = text.translate(_NO_DOUBLE_QUOTES).strip()
    if text[:1] in _SINGLE_QUOTES:
        text = _WRAPPING_SINGLE.sub(r"\1", text)
    year: int | None = None
    group = _YEAR_GROUP.search(text) if "(" in text or "[" in text else None
    if group is not None and text[: group.start()].strip():
        text, year = text[: group.start()], int(group.group(1))
    elif "," in text:
        comma = _YEAR_AFTER_COMMA.search(text)
        if comma is not None and text[: comma.start()].strip():
            text, year = text[: comma.start()], int(comma.group(1))
    if text[-1:] in _TRAILING or text[:1] in _SINGLE_QUOTES:
        text = _TRAILING_PUNCT.sub("", text).strip(" *_'‘’")
    return text.strip(), year

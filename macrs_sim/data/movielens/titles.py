"""Pure helpers that turn MovieLens title and genre strings into display values.

MovieLens writes titles library-style: ``"Shawshank Redemption, The (1994)"``, with
alternative titles in parentheses before the year
(``"City of Lost Children, The (Cité des enfants perdus, La) (1995)"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

ARTICLES: tuple[str, ...] = (
    "The", "A", "An", "Les", "La", "Le", "L'", "Il", "Das", "Der", "Die", "El",
    "Los", "Las", "Lo", "Det", "Den", "O", "Os", "As", "Una", "Un", "Une", "I",
    "En", "Ett", "Ein", "Eine", "Het", "De", "Een", "Gli", "Uno",
)  # fmt: skip

_ARTICLE_SUFFIX = re.compile(
    r"^(?P<name>.+?),\s+(?P<article>" + "|".join(re.escape(a) for a in ARTICLES) + r")$"
)
# "(1994)", "(2006-2007)", "(2007-)", "(2015 )": the first year is the release year.
_YEAR_SUFFIX = re.compile(r"\s*\(\s*(?P<year>\d{4})\s*(?:[-\u2013]\s*(?:\d{4})?\s*)?\)\s*$")
_PAREN_SUFFIX = re.compile(r"\s*\((?P<inner>[^()]*)\)\s*$")
_AKA_PREFIX = re.compile(r"^(?:a\.k\.a\.?|aka)\s+", re.IGNORECASE)

NO_GENRES = "(no genres listed)"
_GENRE_RENAMES = {"Children's": "Children"}


@dataclass(frozen=True)
class ParsedTitle:
    title: str
    year: int | None
    aka: tuple[str, ...]


def move_article(name: str) -> str:
    """``"Shawshank Redemption, The"`` -> ``"The Shawshank Redemption"``; ``"Homme, L'"`` ->
    ``"L'Homme"``. Names without a trailing article come back stripped but otherwise unchanged.
    """
    name = " ".join(name.split())
    match = _ARTICLE_SUFFIX.match(name)
    if match is None:
        return name
    article = match.group("article")
    joiner = "" if article.endswith("'") else " "
    return f"{article}{joiner}{match.group('name')}"


def split_year(raw: str) -> tuple[str, int | None]:
    """The title without its trailing year, and the year (first year of a range) or None."""
    match = _YEAR_SUFFIX.search(raw)
    if match is None or not raw[: match.start()].strip():
        return raw.strip(), None
    return raw[: match.start()].strip(), int(match.group("year"))


def split_alternatives(name: str) -> tuple[str, list[str]]:
    """Peel trailing ``(...)`` groups off ``name``: the main name and the groups, left to right."""
    groups: list[str] = []
    while True:
        match = _PAREN_SUFFIX.search(name)
        if match is None or not name[: match.start()].strip():
            break
        groups.insert(0, match.group("inner"))
        name = name[: match.start()]
    return name.strip(), groups


def parse_title(raw: str) -> ParsedTitle:
    """Display title, year and alternative titles of one MovieLens title string."""
    rest, year = split_year(raw)
    name, groups = split_alternatives(rest)
    title = move_article(name)
    aka: list[str] = []
    for group in groups:
        alternative = move_article(_AKA_PREFIX.sub("", group.strip()))
        if alternative and alternative != title and alternative not in aka:
            aka.append(alternative)
    return ParsedTitle(title=title, year=year, aka=tuple(aka))


def parse_genres(raw: str) -> list[str]:
    """``"Adventure|Children's"`` -> ``["Adventure", "Children"]``; no genres -> ``[]``."""
    genres: list[str] = []
    for part in raw.split("|"):
        genre = part.strip()
        if not genre or genre == NO_GENRES:
            continue
        genre = _GENRE_RENAMES.get(genre, genre)
        if genre not in genres:
            genres.append(genre)
    return genres

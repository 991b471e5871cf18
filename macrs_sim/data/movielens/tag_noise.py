"""Which user tags say something about a film, and which are a user's own bookkeeping.

MovieLens users tag films with their own lists, dates, scores and shelves ("toplist07",
"06/2006", "9/10", "netflix queue", "dvd"). Those describe the user, not the film, and would
mislead a recommender that reads keywords. A tag is normalised (lowercase, single spaces),
then dropped when it matches one of these rules, each matched against the whole tag:

- ``date``: a year or a date: "2007", "06/2006", "2006-06-12", "12.06.2006", "june 2006".
- ``rating``: a score: "9/10", "4.5/5", "5 stars", "one star", "3 out of 5", "*****",
  "rated 8", a bare number below 100 ("10", "4.5"). "9/11" is not a score and is kept.
- ``list``: a list name: "toplist07", "top 10", "imdb top 250", "netflix queue",
  "watchlist", "favorites", "to see", "want to watch", "erlend's dvds",
  "less than 300 ratings", anything starting with "my ".
- ``viewing``: when or whether the user saw or owns it: "seen", "seen at cinema 2012",
  "watched 2007", "not seen", "owned", "rented".
- ``format``: a medium or a shop: "dvd", "on dvd", "vhs", "blu-ray", "bd-r", "clv",
  "dvd-video", "netflix", "tivo".
- ``symbols``: no letter or digit at all ("???", "-"), or a single character.

Tags that one user alone gave a film are dropped elsewhere (see ``tags.py``): that removes
most private words ("boring", "ei muista") without a list of them.
"""

from __future__ import annotations

import re

_YEAR = r"(?:18|19|20)\d{2}"
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
_NUMBER = r"\d+(?:[.,]\d+)?"
_WORD_NUMBER = r"(?:half|one|two|three|four|five|six|seven|eight|nine|ten)"
_MEDIA = (
    r"dvds?|vhs|blu-?rays?|bd|bd-?r|hd[ -]?dvd|laserdisc|clv|cav|betamax|dvd-?r|dvd-ram|"
    r"dvd-video|vcd|netflix|tivo|itunes|"
    r"amazon(?: prime)?|hulu|hbo|iplayer|dvr|recorded|tv recording"
)

NOISE_RULES: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (name, re.compile("|".join(f"(?:{p})" for p in patterns)))
    for name, patterns in (
        (
            "date",
            (
                _YEAR,
                rf"\d{{1,2}}\s*[./-]\s*{_YEAR}",
                rf"{_YEAR}[./-]\d{{1,2}}(?:[./-]\d{{1,2}})?",
                r"\d{1,2}[./-]\d{1,2}[./-]\d{2,4}",
                rf"{_MONTH}\s+(?:\d{{1,2}},?\s+)?{_YEAR}",
            ),
        ),
        (
            "rating",
            (
                rf"{_NUMBER}\s*/\s*(?:4|5|10|100)",
                rf"(?:{_NUMBER}|{_WORD_NUMBER})(?: and a half)?\s*-?\s*stars?",
                rf"{_NUMBER}\s+(?:out\s+)?of\s+\d+",
                r"\*+(?:\s*1/2)?",
                rf"(?:my\s+)?rat(?:ed|ing)\s*:?\s*{_NUMBER}.*",
                r"\d{1,2}(?:[.,]\d)?",
            ),
        ),
        (
            "list",
            (
                r"top\s*-?\s*(?:list|\d+).*",
                r".*\btop\s*\d+\b.*",
                r".*\b(?:watch\s*list|wish\s*list|queue|favou?rites?|faves?)\b.*",
                r"(?:to|want to|must|should|need to)\s+(?:see|watch|buy|rent|own)\b.*",
                r"my\s.+",
                r"\S+'s\s+(?:dvds?|list|collection)",
                r"(?:less|more|fewer) than \d+ ratings?",
            ),
        ),
        (
            "viewing",
            (r"(?:seen|watched|rewatched|not seen|unseen|owned?|own it|bought|rented)(?:\s.*)?",),
        ),
        ("format", (rf"(?:on\s+|in\s+)?(?:{_MEDIA})(?:\s+(?:collection|queue))?",)),
        ("symbols", (r"[^\w]*", r".")),
    )
)


def normalize_tag(raw: object) -> str:
    """Lowercase with single spaces: ``" Pixar  Animation "`` -> ``"pixar animation"``."""
    return " ".join(str(raw).lower().split())


def noise_rule(tag: str) -> str | None:
    """The name of the first rule that a normalised ``tag`` matches, else None (keep it)."""
    for name, pattern in NOISE_RULES:
        if pattern.fullmatch(tag):
            return name
    return None

"""steam_games.json: one game per line -> an `Item` of the games domain.

The fields, as Kang & McAuley's crawl of the Steam store writes them: `id` (the app id; a
few lines have none), `app_name` and/or `title`, `genres`, `tags` (most voted first, at
most 20), `specs`, `developer`, `publisher`, `release_date` ("2018-01-04", "Jan 2018",
"Coming Soon"), `price` (a number or a phrase: "Free to Play", "Install Now"),
`early_access`. The attribute names are the ones the games domain's simulated users hint
at (data/domain.py: "tags", "developer").
"""

from __future__ import annotations

import html
import math
import re
from typing import Any

from macrs_sim.protocol import Item

TAGS_KEPT = 10  # as the "tags" attribute; the next ten are the item's keywords
FALLBACK_CATEGORIES = 3  # tags that stand in for genres a game lacks

_TAG = re.compile(r"<!--.*?-->|</?[A-Za-z][^<>]*>", re.S)
# Control characters (C0, DEL, C1) would break a title's one line; they become spaces.
_CONTROL = {c: " " for c in (*range(32), *range(127, 160))}
_YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")
# Price phrases meaning the game itself costs nothing. Others ("Free Demo", "Free to Try",
# "Install Now", "Third-party") say nothing sure about the game's price: no price.
_FREE = {"free", "free to play", "free-to-play", "play for free", "play for free!"}


def clean(value: object) -> str:
    """One line of text: HTML tags stripped, entities unescaped, whitespace collapsed."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return ""
    text = _TAG.sub(" ", str(value))
    text = _TAG.sub(" ", html.unescape(text))  # "&lt;b&gt;" was a tag too
    return " ".join(text.translate(_CONTROL).split())


def clean_list(value: object) -> list[str]:
    """A list field's distinct non-empty strings in order (a lone string is a list of one)."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        return []
    return list(dict.fromkeys(v for v in map(clean, items) if v))


def game_title(record: dict[Any, Any]) -> str:
    """`app_name`, else `title`: the first one left non-empty once cleaned."""
    for key in ("app_name", "title"):
        text = clean(record.get(key))
        if text:
            return text
    return ""


def release_year(value: object) -> int | None:
    """The year of "2018-01-04" or "Jan 2018"; None for "Coming Soon" or no date."""
    found = _YEAR.search(value) if isinstance(value, str) else None
    return int(found.group(1)) if found else None


def price(value: object) -> tuple[str, str] | None:
    """(price, band): ("9.99", "under $10"), ("free", "free"); None when not a price."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        text = clean(value).lower()
        if text in _FREE:
            return "free", "free"
        try:
            value = float(text.removeprefix("$"))
        except ValueError:
            return None
    if not isinstance(value, int | float) or not math.isfinite(value) or value < 0:
        return None
    if value == 0:
        return "free", "free"
    band = "under $10" if value < 10 else "$10 to $30" if value <= 30 else "over $30"
    return f"{value:.2f}", band


def attributes(record: dict[Any, Any], tags: list[str]) -> dict[str, list[str]]:
    """The named attributes; an empty list is left out by `Item` itself."""
    priced = price(record.get("price"))
    return {
        "developer": [clean(record.get("developer"))],
        "publisher": [clean(record.get("publisher"))],
        "tags": tags[:TAGS_KEPT],
        "specs": clean_list(record.get("specs")),
        "price": [priced[0]] if priced else [],
        "price_band": [priced[1]] if priced else [],
        "early_access": ["yes"] if record.get("early_access") is True else [],
    }


def game_item(item_id: str, title: str, record: dict[Any, Any]) -> Item:
    """The item of one game line whose id and title are known good."""
    tags = clean_list(record.get("tags"))
    genres = clean_list(record.get("genres")) or tags[:FALLBACK_CATEGORIES]
    return Item.model_validate(
        {
            "item_id": item_id,
            "title": title,
            "year": release_year(record.get("release_date")),
            "categories": tuple(genres),
            "attributes": attributes(record, tags),
            "keywords": tuple(tags[TAGS_KEPT : 2 * TAGS_KEPT]),
            "description": None,
        }
    )

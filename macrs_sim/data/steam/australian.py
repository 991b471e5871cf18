"""australian_user_reviews.json: one line per user, `user_id` and `reviews`, a list of
{item_id, posted, recommend, review, ...}; each review is one interaction.

`posted` is "Posted November 5, 2011." or, for a review of the crawl's own year, without
the year: "Posted March 3.". Such a review is kept and dated in UNDATED_YEAR, the year the
data was crawled (2016: the dated reviews end in 2015), so it sorts after the user's dated
ones, as it was written; how many were dated so is printed and kept in meta. Within a user
the database orders by that date, ties in list order.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from macrs_sim.data.prepared import Interaction
from macrs_sim.data.steam.records import base_name, records, text_id
from macrs_sim.data.steam.reviews import NO_DATE, NO_GAME, NO_USER, Reviews, midnight

UNDATED_YEAR = 2016
UNREADABLE = "unreadable reviews"

_POSTED = re.compile(
    r"posted\s+([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?(?:\s*,\s*(\d{4}))?\s*\.?", re.I
)
_MONTHS = {
    name: number
    for number, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"),
        start=1,
    )
}


def posted_day(value: object) -> tuple[int, bool] | None:
    """("Posted November 5, 2011.") -> (its midnight, True); without a year, the midnight in
    UNDATED_YEAR and False; None when it is not such a date."""
    found = _POSTED.fullmatch(value.strip()) if isinstance(value, str) else None
    month = _MONTHS.get(found.group(1)[:3].lower()) if found else None
    if found is None or month is None:
        return None
    year = found.group(3)
    try:
        day = dt.date(int(year or UNDATED_YEAR), month, int(found.group(2)))
    except ValueError:  # "February 30"
        return None
    return midnight(day), year is not None


def _review(user: str, entry: object, where: str, reviews: Reviews) -> Interaction | None:
    rejects = reviews.rejects
    if not isinstance(entry, dict):
        rejects.drop(UNREADABLE, where, "not a dict; expected a review with 'item_id'")
        return None
    item_id = text_id(entry.get("item_id"))
    posted = posted_day(entry.get("posted"))
    if item_id is None:
        rejects.drop(NO_GAME, where, "a review with no game; expected 'item_id'")
    elif posted is None:
        rejects.drop(
            NO_DATE,
            where,
            f"posted {entry.get('posted')!r}: expected a date like 'Posted November 5, 2011.'",
        )
    elif reviews.listed(item_id, where):
        reviews.undated += not posted[1]
        return Interaction(user, item_id, None, posted[0], reviews.text(entry.get("review")))
    return None


def _entries(record: dict[Any, Any], where: str, reviews: Reviews, name: str) -> list[Any]:
    """The line's reviews; none (dropped and counted) when they cannot be used."""
    entries = record.get("reviews")
    if not isinstance(entries, list):
        problem = "no list of reviews; expected 'reviews': [...]"
        reviews.rejects.drop(f"unreadable lines of {name}", where, problem)
        return []
    if entries and text_id(record.get("user_id")) is None:
        problem = "a user with no id; expected 'user_id'"
        reviews.rejects.drop(NO_USER, where, problem, len(entries))
        return []
    return entries


def australian_reviews(path: Path, reviews: Reviews) -> Iterator[Interaction]:
    name = base_name(path)
    what = "one user's reviews"
    for line, record in records(path, reviews.rejects, what):
        entries = _entries(record, line.where(), reviews, name)
        user = text_id(record.get("user_id")) or ""
        for number, entry in enumerate(entries, start=1):
            row = _review(user, entry, f"{line.where()} (review {number})", reviews)
            if row is not None:
                yield row

"""The reviews pass, for both interaction files: each review is one interaction of its user
with its game, at UTC midnight of its date (the files give days, not times), written as
read so the database's rowid keeps file order for reviews of the same day.

Steam reviews give no stars (steam_reviews has playtime, the Australian file a thumbs up
or down), so every interaction's rating is None.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from macrs_sim.data.prepared import Interaction
from macrs_sim.data.steam.records import Rejects, records, text_id

UNKNOWN = "reviews of games with no metadata"
NO_USER = "reviews with no user"
NO_GAME = "reviews with no game id"
NO_DATE = "reviews with no readable date"

_EPOCH = dt.date(1970, 1, 1).toordinal()


def midnight(day: dt.date) -> int:
    """Seconds since the epoch at UTC midnight of `day`."""
    return (day.toordinal() - _EPOCH) * 86_400


@lru_cache(maxsize=8192)
def iso_day(value: str) -> int | None:
    """ "2017-12-17" -> its midnight; None when it is no date. Cached: days repeat a lot."""
    try:
        return midnight(dt.date.fromisoformat(value.strip()))
    except ValueError:
        return None


@dataclass
class Reviews:
    """What every review is checked against, and where the counts go."""

    known: set[str]  # the ids of the games written
    games_file: str  # "steam_games.json.gz", for messages
    rejects: Rejects
    keep_text: bool
    undated: int = 0  # Australian reviews posted without a year (the crawl's year assumed)

    def listed(self, item_id: str, where: str) -> bool:
        if item_id in self.known:
            return True
        self.rejects.drop(
            UNKNOWN,
            where,
            f"game {item_id} is not in {self.games_file}; expected every reviewed game to "
            "be listed there",
        )
        return False

    def text(self, value: object) -> str | None:
        """The review's text where kept; None when not kept or empty."""
        if self.keep_text and isinstance(value, str) and value.strip():
            return value
        return None


def steam_reviews(path: Path, reviews: Reviews) -> Iterator[Interaction]:
    """steam_reviews.json: one review per line; the user is `user_id`, else `username`."""
    rejects = reviews.rejects
    for line, record in records(path, rejects, "one review"):
        where = line.where()
        user = text_id(record.get("user_id")) or text_id(record.get("username"))
        item_id = text_id(record.get("product_id"))
        date = record.get("date")
        day = iso_day(date) if isinstance(date, str) else None
        if user is None:
            rejects.drop(NO_USER, where, "a review with no user; expected 'username'")
        elif item_id is None:
            rejects.drop(NO_GAME, where, "a review with no game; expected 'product_id'")
        elif day is None:
            rejects.drop(NO_DATE, where, f"date {date!r}: expected a date like '2017-12-17'")
        elif reviews.listed(item_id, where):
            yield Interaction(user, item_id, None, day, reviews.text(record.get("text")))

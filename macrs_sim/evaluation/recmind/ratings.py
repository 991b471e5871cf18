"""Ratings, aligned with `Interactions.sequences`: kept in the prepared database only.

A database prepared from MovieLens keeps each interaction's rating (`interactions.rating`);
the demo dataset's synthetic users have none. The rows are read in the order
`data.splits` reads the sequences (user, timestamp, file order), skipping items outside
the catalog as it does, so position i of a user's ratings is position i of their sequence.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from contextlib import closing
from dataclasses import dataclass

from macrs_sim.data.splits import Interactions
from macrs_sim.errors import DataError

_RATING_SQL = "SELECT user_id, item_id, rating FROM interactions ORDER BY user_id, timestamp, rowid"


@dataclass(frozen=True)
class Ratings:
    by_user: dict[str, tuple[float | None, ...]]
    # The scale, from the smallest and largest rating in the data (MovieLens: 0.5-5 or 1-5).
    low: float
    high: float

    @property
    def midpoint(self) -> float:
        return (self.low + self.high) / 2


def load_ratings(data: Interactions) -> Ratings:
    """Every user's ratings; DataError (one line) when the dataset keeps none."""
    if data.database is None:
        raise DataError(
            f"rating prediction needs ratings; dataset {data.dataset_name!r} has none "
            "(use a database made by `macrs-sim data prepare movielens`)"
        )
    known = set(data.item_ids)
    out: dict[str, list[float | None]] = defaultdict(list)
    uri = f"file:{data.database}?mode=ro"
    try:
        with closing(sqlite3.connect(uri, uri=True)) as conn:
            for user, item, rating in conn.execute(_RATING_SQL):
                if str(item) in known:
                    out[str(user)].append(None if rating is None else float(rating))
    except sqlite3.DatabaseError as err:
        raise DataError(f"{data.database}: cannot read ratings ({err})") from None
    values = [r for seq in out.values() for r in seq if r is not None]
    if not values:
        raise DataError(
            f"rating prediction needs ratings; {data.database} has no rated interaction"
        )
    return Ratings({u: tuple(s) for u, s in out.items()}, min(values), max(values))

"""Ratings, aligned with `Interactions.sequences`: kept in the prepared database only.

A database prepared from MovieLens keeps each interaction's rating (`interactions.rating`);
the demo dataset's synthetic users have none. The rows are read in the order
`data.splits` reads the sequences (user, timestamp, file order), skipping items outside
the catalog as it does, so position i of a user's ratings is position i of their sequence.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from macrs_sim.agents.recmind.memory import read_ratings
from macrs_sim.data.splits import Interactions
from macrs_sim.errors import DataError


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
    try:
        by_user = read_ratings(data)
    except sqlite3.DatabaseError as err:
        raise DataError(f"{data.database}: cannot read ratings ({err})") from None
    values = [r for seq in by_user.values() for r in seq if r is not None]
    if not values:
        raise DataError(
            f"rating prediction needs ratings; {data.database} has no rated interaction"
        )
    return Ratings(by_user, min(values), max(values))

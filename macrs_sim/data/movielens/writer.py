"""The prepared dataset database: schema and inserts (SQLite)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.data.movielens.records import RatingBatch
from macrs_sim.data.prepared.atomic import open_for_build

FORMAT_VERSION = "1"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE items (
  item_id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  year INTEGER,
  genres TEXT NOT NULL,
  director TEXT,
  "cast" TEXT NOT NULL,
  keywords TEXT NOT NULL,
  overview TEXT,
  aka TEXT NOT NULL,
  n_interactions INTEGER NOT NULL
);
CREATE TABLE item_genres (item_id TEXT NOT NULL, genre TEXT NOT NULL);
CREATE TABLE interactions (
  user_id TEXT NOT NULL, item_id TEXT NOT NULL, rating REAL, timestamp INTEGER NOT NULL
);
"""
INDEXES = """
CREATE INDEX interactions_user_time ON interactions(user_id, timestamp);
CREATE INDEX item_genres_genre ON item_genres(genre);
"""


@dataclass(frozen=True)
class ItemRow:
    item_id: str
    title: str
    year: int | None
    genres: list[str]
    director: str | None
    cast: list[str]
    keywords: list[str]
    overview: str | None
    aka: list[str]
    n_interactions: int


def _json(values: list[str]) -> str:
    return json.dumps(values, ensure_ascii=False)


class DatasetWriter:
    """Writes one database file; the caller owns the file's fate (commit, rename, delete)."""

    def __init__(self, path: Path) -> None:
        self._conn = open_for_build(path, SCHEMA)

    def add_interactions(self, batch: RatingBatch) -> None:
        users, items = map(str, batch.users), map(str, batch.items)
        rows = zip(users, items, batch.ratings, batch.timestamps, strict=True)
        self._conn.executemany("INSERT INTO interactions VALUES (?, ?, ?, ?)", rows)

    def add_items(self, items: Iterable[ItemRow]) -> None:
        for item in items:
            self._conn.execute(
                "INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    item.item_id, item.title, item.year, _json(item.genres), item.director,
                    _json(item.cast), _json(item.keywords), item.overview, _json(item.aka),
                    item.n_interactions,
                ),
            )  # fmt: skip
            self._conn.executemany(
                "INSERT INTO item_genres VALUES (?, ?)", ((item.item_id, g) for g in item.genres)
            )

    def finish(self, meta: Mapping[str, str]) -> None:
        """Indexes, meta rows, commit and close."""
        self._conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        self._conn.execute("COMMIT")
        self._conn.executescript(INDEXES)
        self._conn.close()

    def close(self) -> None:
        self._conn.close()

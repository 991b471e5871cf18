"""The prepared dataset database, format 2: any domain's items (SQLite).

Format 1 (MovieLens only) had film columns (genres, director, cast, overview); format 2
keeps what every domain has as columns and the rest as named attributes (JSON), and the
dataset's kind and domain in `meta`. Both are read (data/dataset.py).

Interactions go in as they are read, in file order: their rowid breaks timestamp ties, so
a user's sequence is the same on every machine. Items may be added before or after their
interactions; `finish` counts each item's interactions in one pass and, where asked, drops
items nobody interacted with (an Amazon metadata file lists every product of its category,
the 5-core review file a few of them).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import NamedTuple

from macrs_sim.data.prepared.atomic import open_for_build
from macrs_sim.errors import DataError
from macrs_sim.protocol import Item

DATABASE_FORMAT = "2"

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE items (
  item_id TEXT PRIMARY KEY,
  title TEXT NOT NULL,
  year INTEGER,
  categories TEXT NOT NULL,
  attributes TEXT NOT NULL,
  keywords TEXT NOT NULL,
  description TEXT,
  aka TEXT NOT NULL,
  n_interactions INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE item_categories (item_id TEXT NOT NULL, category TEXT NOT NULL);
CREATE TABLE interactions (
  user_id TEXT NOT NULL, item_id TEXT NOT NULL, rating REAL, timestamp INTEGER NOT NULL
);
CREATE TABLE reviews (
  interaction INTEGER PRIMARY KEY, summary TEXT, text TEXT NOT NULL
);
"""
INDEXES = """
CREATE INDEX interactions_user_time ON interactions(user_id, timestamp);
CREATE INDEX item_categories_category ON item_categories(category);
"""
_COUNT = """
UPDATE items SET n_interactions = coalesce(
  (SELECT n FROM item_counts WHERE item_counts.item_id = items.item_id), 0)
"""


class Interaction(NamedTuple):
    user_id: str
    item_id: str
    rating: float | None
    timestamp: int  # seconds since the epoch
    review: str | None = None  # kept only where the loader keeps review text
    summary: str | None = None


def _json(values: Iterable[str]) -> str:
    return json.dumps(list(values), ensure_ascii=False)


def item_values(item: Item) -> tuple[object, ...]:
    attributes = json.dumps(dict(item.attribute_map), ensure_ascii=False, sort_keys=True)
    return (
        item.item_id, item.title, item.year, _json(item.categories), attributes,
        _json(item.keywords), item.description, _json(item.aka),
    )  # fmt: skip


def k_core(conn: sqlite3.Connection, k: int) -> int:
    """Drop the interactions of users and of items with fewer than `k`, again until none is
    left short (dropping a user can leave an item short); the interactions dropped."""
    dropped = 0
    while True:
        removed = 0
        for column in ("user_id", "item_id"):
            cursor = conn.execute(
                f"DELETE FROM interactions WHERE {column} IN (SELECT {column} FROM interactions"
                f" GROUP BY {column} HAVING COUNT(*) < ?)",
                (k,),
            )
            removed += cursor.rowcount
        dropped += removed
        if not removed:
            break
    if dropped:
        conn.execute(
            "DELETE FROM reviews WHERE interaction NOT IN (SELECT rowid FROM interactions)"
        )
    return dropped


class DatabaseWriter:
    """Writes one database file; the caller owns the file's fate (write_atomically)."""

    def __init__(self, path: Path) -> None:
        self._conn = open_for_build(path, SCHEMA)

    def add_items(self, items: Iterable[Item]) -> None:
        for item in items:
            self._conn.execute(
                "INSERT INTO items (item_id, title, year, categories, attributes, keywords, "
                "description, aka) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                item_values(item),
            )
            self._conn.executemany(
                "INSERT INTO item_categories VALUES (?, ?)",
                ((item.item_id, c) for c in dict.fromkeys(item.categories)),
            )

    def has_item(self, item_id: str) -> bool:
        found = self._conn.execute("SELECT 1 FROM items WHERE item_id = ?", (item_id,))
        return found.fetchone() is not None

    def add_interactions(self, rows: Iterable[Interaction]) -> None:
        for row in rows:
            cursor = self._conn.execute("INSERT INTO interactions VALUES (?, ?, ?, ?)", row[:4])
            if row.review is not None:
                self._conn.execute(
                    "INSERT INTO reviews VALUES (?, ?, ?)",
                    (cursor.lastrowid, row.summary, row.review),
                )

    def finish(
        self, meta: Mapping[str, str], *, drop_unused_items: bool, core: int = 0
    ) -> tuple[int, int, int]:
        """Apply the `core`-core filter (0: none), count interactions per item, drop unused
        items where asked, write `meta` (with the format, sizes and what the filter
        dropped), index, commit, close. Returns (users, items, interactions)."""
        conn = self._conn
        outside = k_core(conn, core) if core > 1 else 0
        if outside and conn.execute("SELECT 1 FROM interactions LIMIT 1").fetchone() is None:
            raise DataError(
                f"--core {core}: no user and item has {core} or more interactions together; "
                "expected a smaller N"
            )
        conn.execute(
            "CREATE TEMP TABLE item_counts AS "
            "SELECT item_id, COUNT(*) AS n FROM interactions GROUP BY item_id"
        )
        conn.execute("CREATE INDEX temp.item_counts_id ON item_counts(item_id)")
        conn.execute(_COUNT)
        if drop_unused_items:
            conn.execute("DELETE FROM items WHERE n_interactions = 0")
            conn.execute(
                "DELETE FROM item_categories WHERE item_id NOT IN (SELECT item_id FROM items)"
            )
        n_users = conn.execute("SELECT COUNT(DISTINCT user_id) FROM interactions").fetchone()[0]
        n_items = conn.execute("SELECT COUNT(*) FROM items").fetchone()[0]
        n_rows = conn.execute("SELECT COUNT(*) FROM interactions").fetchone()[0]
        sizes = {"n_users": str(n_users), "n_items": str(n_items), "n_interactions": str(n_rows)}
        rows = {**meta, "format_version": DATABASE_FORMAT, **sizes, "core": str(core)}
        if outside:
            rows[f"dropped: interactions outside the {core}-core"] = str(outside)
        conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(rows.items()))
        conn.execute("COMMIT")
        conn.executescript(INDEXES)
        conn.close()
        return int(n_users), int(n_items), int(n_rows)

    def close(self) -> None:
        self._conn.close()

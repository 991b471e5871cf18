"""Datasets: the demo and a prepared database (built here by hand in the documented schema)."""

import json
import sqlite3
from pathlib import Path

import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import database_dataset, demo_dataset, open_dataset
from macrs_sim.data.info import dataset_info
from macrs_sim.errors import DataError

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE items (item_id TEXT PRIMARY KEY, title TEXT NOT NULL, year INTEGER,
  genres TEXT NOT NULL, director TEXT, cast TEXT NOT NULL, keywords TEXT NOT NULL,
  overview TEXT, aka TEXT NOT NULL, n_interactions INTEGER NOT NULL);
CREATE TABLE item_genres (item_id TEXT NOT NULL, genre TEXT NOT NULL);
CREATE TABLE interactions (user_id TEXT NOT NULL, item_id TEXT NOT NULL, rating REAL,
  timestamp INTEGER NOT NULL);
"""

ITEMS = [
    ("1", "Toy Story", 1995, ["Animation", "Children"], 3),
    ("2", "Jumanji", 1995, ["Adventure"], 2),
    ("3", "Heat", 1995, ["Crime"], 1),
    ("4", "Unwatched", None, [], 0),
]
# u1 rates 2 then 1 and 3 in the same second (file order breaks the tie); u2 rates 1, 2; u3 rates 1.
RATINGS = [
    ("u1", "3", 4.0, 200),
    ("u1", "1", 5.0, 200),
    ("u1", "2", 3.0, 100),
    ("u2", "1", 4.0, 10),
    ("u2", "2", 4.0, 20),
    ("u3", "1", 2.0, 5),
]


def make_db(path: Path, version: str = "1") -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    conn.executemany(
        "INSERT INTO meta VALUES (?, ?)",
        [("format_version", version), ("release", "ml-hand"), ("source", "movielens")],
    )
    for item_id, title, year, genres, n in ITEMS:
        conn.execute(
            "INSERT INTO items VALUES (?, ?, ?, ?, NULL, '[]', ?, NULL, '[]', ?)",
            (item_id, title, year, json.dumps(genres), json.dumps(["toys"]), n),
        )
    conn.executemany("INSERT INTO interactions VALUES (?, ?, ?, ?)", RATINGS)
    conn.commit()
    conn.close()
    return path


def test_database_dataset_reads_catalog_popularity_and_chronological_prefixes(
    tmp_path: Path,
) -> None:
    ds = database_dataset(make_db(tmp_path / "d.sqlite"))
    assert ds.name == "ml-hand" and len(ds.catalog) == 4
    assert ds.catalog["1"].genres == ("Animation", "Children")
    assert ds.catalog["1"].keywords == ("toys",) and ds.catalog["4"].year is None
    assert ds.popularity == {"1": 3, "2": 2, "3": 1, "4": 0}
    assert (ds.n_users, ds.n_interactions) == (3, 6)
    assert ds.prefixes(3) == {"u1": ["2", "3", "1"]}
    assert ds.prefixes(2) == {"u1": ["2", "3"], "u2": ["1", "2"]}
    assert ds.fingerprint.startswith("ml-hand|4 items|6 interactions|")


def test_open_dataset_dispatches_and_explains_a_missing_database(tmp_path: Path) -> None:
    assert open_dataset(DataConfig()).name == "demo"
    missing = tmp_path / "nope.sqlite"
    with pytest.raises(DataError, match=r"nope.sqlite: no such database; make one with"):
        open_dataset(DataConfig(dataset=str(missing)))


def test_not_a_database_and_wrong_version_are_clear(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_text("hello")
    with pytest.raises(DataError, match="not a prepared dataset database"):
        database_dataset(junk)
    old = make_db(tmp_path / "old.sqlite", version="0")
    with pytest.raises(DataError, match=r"database format '0', expected one of '1', '2'"):
        database_dataset(old)


def test_demo_dataset_is_reproducible() -> None:
    a, b = demo_dataset(DataConfig()), demo_dataset(DataConfig())
    assert a.fingerprint == b.fingerprint and a.prefixes(21) == b.prefixes(21)
    assert len(a.catalog) == 332 and a.n_users == 400
    assert sum(a.popularity.values()) == a.n_interactions


def test_info_counts_and_buckets(tmp_path: Path) -> None:
    info = dataset_info(database_dataset(make_db(tmp_path / "d.sqlite")))
    assert (info.n_users, info.n_items, info.n_rated_items, info.n_interactions) == (3, 4, 3, 6)
    assert info.genres == [("Adventure", 1), ("Animation", 1), ("Children", 1), ("Crime", 1)]
    # counts 3, 2, 1: ranks 1/3, 2/3, 1 -> 30-50%, bottom 50%, bottom 50%
    assert info.buckets["30-50%"] == (1, 3, 3)
    assert info.buckets["bottom 50%"] == (2, 1, 2)
    assert info.popularity_quantiles["p50"] == 2.0 and info.popularity_quantiles["max"] == 3.0
    assert info.users_with_21 == 0
    assert (
        info.lines()[0] == "dataset ml-hand: 3 users, 4 items (3 with interactions), 6 interactions"
    )

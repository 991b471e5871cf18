"""A prepared dataset database with damaged pages: one DataError line, never a traceback."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import DATABASE_FORMAT_VERSION, open_dataset
from macrs_sim.data.info import dataset_info
from macrs_sim.errors import DataError


def write_database(path: Path, n_users: int = 300) -> None:
    """The prepared-database schema with meta first, so its page stays readable."""
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
        db.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [("format_version", DATABASE_FORMAT_VERSION), ("release", "hand")],
        )
        db.execute(
            "CREATE TABLE items (item_id TEXT, title TEXT, year INT, genres TEXT, director TEXT,"
            " cast TEXT, keywords TEXT, overview TEXT, aka TEXT, n_interactions INT)"
        )
        db.executemany(
            "INSERT INTO items VALUES (?, ?, 2000, '[\"Drama\"]', NULL, '[]', '[]', ?, '[]', ?)",
            [(f"m{i}", f"Film {i}", "an overview " * 20, n_users) for i in range(100)],
        )
        db.execute("CREATE TABLE interactions (user_id TEXT, item_id TEXT, timestamp INT)")
        db.executemany(
            "INSERT INTO interactions VALUES (?, ?, ?)",
            [(f"u{u}", f"m{i}", i) for u in range(n_users) for i in range(0, 100, 4)],
        )
    db.close()


def damage_tail(path: Path, keep: int) -> None:
    """Garbage over every page after the first `keep` (meta lives in the first few)."""
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    for n in range(keep, len(data) // page):
        data[n * page : (n + 1) * page] = bytes((n * 7 + i) % 251 for i in range(page))
    path.write_bytes(bytes(data))


def test_sound_database_opens(tmp_path: Path) -> None:
    write_database(tmp_path / "d.sqlite")
    ds = open_dataset(DataConfig(dataset=str(tmp_path / "d.sqlite")))
    assert (ds.name, len(ds.catalog), ds.n_users, ds.n_interactions) == ("hand", 100, 300, 7500)


def test_damaged_pages_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    write_database(path)
    damage_tail(path, keep=3)
    with pytest.raises(DataError) as err:
        open_dataset(DataConfig(dataset=str(path)))
    assert str(err.value).startswith(f"data.dataset: {path}: damaged database (")
    assert str(err.value).endswith(
        "); prepare it again with `macrs-sim data prepare movielens PATH --overwrite`"
    )
    assert "\n" not in str(err.value)


def test_damage_found_only_by_the_prefix_query(tmp_path: Path) -> None:
    """Item rows sound, interactions damaged after the counts were read: `data info` and
    sample drawing query prefixes later, and still fail in one line."""
    path = tmp_path / "d.sqlite"
    write_database(path)
    ds = open_dataset(DataConfig(dataset=str(path)))
    damage_tail(path, keep=3)
    with pytest.raises(DataError, match="damaged database"):
        dataset_info(ds)


def test_rows_of_the_wrong_shape(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    write_database(path)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE items SET genres = 'not json' WHERE item_id = 'm3'")
    db.close()
    with pytest.raises(DataError) as err:
        open_dataset(DataConfig(dataset=str(path)))
    assert str(err.value).startswith(f"data.dataset: {path}: not a prepared dataset database (")

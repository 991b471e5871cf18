"""The tools' database: the catalog in the prepared schema, with no user's history in it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import database_dataset, demo_dataset
from macrs_sim.tools.database import tool_database
from macrs_sim.tools.sql import SqlQueryTool
from tests.tools.films import write_database


async def test_demo_catalog_database_matches_the_dataset(tmp_path: Path) -> None:
    demo = demo_dataset(DataConfig())
    path = tool_database(demo, tmp_path)
    assert path.parent == tmp_path and path.suffix == ".sqlite"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left
    # Read back by the dataset loader: same items and popularity, no interactions.
    again = database_dataset(path)
    assert list(again.catalog) == list(demo.catalog)
    assert again.popularity == demo.popularity
    assert (again.n_users, again.n_interactions) == (0, 0)
    first = next(iter(demo.catalog))
    text = await SqlQueryTool(path).run_text(
        f"SELECT title, n_interactions FROM items WHERE item_id = '{first.item_id}'"
    )
    assert text == f"title | n_interactions\n{first.title} | {demo.popularity[first.item_id]}"


def test_a_prepared_database_loses_its_interactions(tmp_path: Path) -> None:
    source = database_dataset(write_database(tmp_path / "films.sqlite"))
    path = tool_database(source, tmp_path / "cache")
    with sqlite3.connect(path) as conn:
        assert conn.execute("SELECT COUNT(*) FROM interactions").fetchone() == (0,)
        assert conn.execute("SELECT COUNT(*) FROM item_genres").fetchone() == (14,)
        assert conn.execute("SELECT n_interactions FROM items WHERE item_id = '1'").fetchone() == (
            30,
        )
    stamp = path.stat().st_mtime_ns
    assert tool_database(source, tmp_path / "cache") == path  # written once
    assert path.stat().st_mtime_ns == stamp

"""The demo dataset gets a database in the prepared schema, so SQL tools work on it too."""

from __future__ import annotations

from pathlib import Path

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import database_dataset, demo_dataset
from macrs_sim.tools.database import tool_database
from macrs_sim.tools.sql import SqlQueryTool


async def test_demo_database_matches_the_dataset(tmp_path: Path) -> None:
    cfg = DataConfig()
    demo = demo_dataset(cfg)
    path = tool_database(cfg, demo, tmp_path)
    assert path.parent == tmp_path and path.suffix == ".sqlite"
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left
    # Read back by the dataset loader: same items, popularity and sizes.
    again = database_dataset(path)
    assert [i.item_id for i in again.catalog] == [i.item_id for i in demo.catalog]
    assert again.popularity == demo.popularity
    assert (again.n_users, again.n_interactions) == (demo.n_users, demo.n_interactions)
    first = next(iter(demo.catalog))
    text = await SqlQueryTool(path).run_text(
        f"SELECT title, n_interactions FROM items WHERE item_id = '{first.item_id}'"
    )
    assert text == f"title | n_interactions\n{first.title} | {demo.popularity[first.item_id]}"


def test_written_once_and_a_prepared_database_is_used_as_is(tmp_path: Path) -> None:
    cfg = DataConfig()
    demo = demo_dataset(cfg)
    path = tool_database(cfg, demo, tmp_path)
    stamp = path.stat().st_mtime_ns
    assert tool_database(cfg, demo, tmp_path) == path and path.stat().st_mtime_ns == stamp
    prepared = DataConfig(dataset=str(tmp_path / "ml.sqlite"))
    assert tool_database(prepared, demo, tmp_path / "other") == tmp_path / "ml.sqlite"
    assert not (tmp_path / "other").exists()

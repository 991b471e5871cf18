"""The standard tool set: built from a dataset, parts that are missing leave their tool out."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.tools.items import ItemResolver
from macrs_sim.tools.log import ToolCallLog
from macrs_sim.tools.toolkit import ToolResources, standard_toolbox
from tests.tools.fakes import FakeIndexRanker, FakeItemCF


def test_minimal_resources_give_the_sql_tools(
    film_db: Path, films: Catalog, popularity: dict[str, int]
) -> None:
    res = ToolResources(database=film_db, resolver=ItemResolver(films), popularity=popularity)
    box = standard_toolbox(res)
    assert list(box.tools) == ["sql_query", "filter_items", "item_info", "rank_items"]


async def test_models_add_tools_and_history_binds_per_dialogue(
    film_db: Path, films: Catalog, popularity: dict[str, int]
) -> None:
    from macrs_sim.tools.scorer import RankerScorer

    res = ToolResources(
        database=film_db, resolver=ItemResolver(films), popularity=popularity,
        scorer=RankerScorer(FakeIndexRanker()), neighbours=FakeItemCF(),
    )  # fmt: skip
    log = ToolCallLog()
    box = standard_toolbox(res, log, history=["3"])
    assert "similar_items" in box.tools
    text = await box.run_action("rank_items[1; 2; 3]")
    assert [line.split(" | ")[0] for line in text.splitlines()] == ["2", "1"]
    assert [r.tool for r in log.all()] == ["rank_items"]


def test_for_the_demo_dataset(tmp_path: Path) -> None:
    pytest.importorskip("bm25s", reason="needs the recsys extra: pip install 'macrs-sim[recsys]'")
    cfg = DataConfig()
    res = ToolResources.for_dataset(demo_dataset(cfg), tmp_path, use_text_model=False)
    box = standard_toolbox(res)
    assert list(box.tools) == [
        "sql_query", "filter_items", "item_info", "rank_items", "search_items",
    ]  # fmt: skip
    assert res.database.parent == tmp_path
    res.warm()
    assert res.bm25 is not None and res.bm25._built is not None

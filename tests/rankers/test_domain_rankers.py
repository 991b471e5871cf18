"""Every ranker trains on a product catalog; ToolRec's attribute tables are the domain's
(its category path and hinted attributes), worked out by hand on tests/tools/shops.py."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from macrs_sim.data.dataset import Dataset
from macrs_sim.data.domain import PRODUCTS
from macrs_sim.data.splits import Interactions, from_pairs, leave_one_out
from macrs_sim.errors import ConfigError
from macrs_sim.protocol import Item
from macrs_sim.rankers.attribute_values import (
    UNKNOWN,
    attribute_table,
    available_tables,
    domain_patterns,
)
from tests.rankers.toy_data import TORCH_REASON
from tests.tools.shops import PRODUCTS_ITEMS, dataset_of

BRANDS = ("Neutrogena", "Cetaphil", "CeraVe")
SHELVES = ("Face", "Body", "Sun", "Lips")
# Tiny sizes: these tests show training runs on products, not that it learns.
TINY = {
    "popularity": {},
    "itemcf": {},
    "bpr": {"epochs": "2", "dim": "8"},
    "sasrec": {"epochs": "2", "min_epochs": "1", "dim": "8", "max_len": "8"},
    "bert4rec": {"epochs": "2", "min_epochs": "1", "dim": "8", "max_len": "8", "heads": "1"},
}


def test_product_patterns_and_tables() -> None:
    assert list(domain_patterns(PRODUCTS)) == ["category", "brand", "price_band", "features"]
    items = list(PRODUCTS_ITEMS)
    brand = attribute_table("brand", items, domain=PRODUCTS)
    assert brand.vocabulary == ("Neutrogena",)  # Cetaphil is on one product: unknown
    assert brand.rows[:, 0].tolist() == [0, 2, 2, UNKNOWN, 2]
    category = attribute_table("category", items, domain=PRODUCTS)
    assert category.vocabulary == ("Beauty", "Skin Care")  # the shelves are on one each
    assert category.rows.tolist() == [[0, 0], [2, 3], [2, 3], [2, 3], [2, 3]]
    band = attribute_table("price_band", items, domain=PRODUCTS)
    assert band.vocabulary == ("$$", "$") and band.rows[:, 0].tolist() == [0, 2, 2, 3, 3]
    # Every feature is on one product only: no table; "genre" is no pattern of products.
    assert list(available_tables(items, domain=PRODUCTS)) == ["category", "brand", "price_band"]
    assert list(available_tables(items, ("genre", "brand"), domain=PRODUCTS)) == ["brand"]


def _shop(n_items: int = 24, n_users: int = 30, length: int = 8) -> tuple[Interactions, Dataset]:
    rng = random.Random(5)
    items = [
        Item(item_id=f"s{n:02d}", title=f"Product {n}",
             categories=("Beauty", SHELVES[n % 4]),
             attributes={"brand": BRANDS[n % 3], "price": f"{5 + n}.99",
                         "price_band": "$" if n < 12 else "$$",
                         "features": tuple(rng.sample(("Oil-free", "Vegan", "SPF"), 2))})
        for n in range(n_items)
    ]  # fmt: skip
    dataset = dataset_of("shop", PRODUCTS, tuple(items), {i.item_id: 1 for i in items})
    ids = [i.item_id for i in items]
    rows = [(f"u{u:02d}", i) for u in range(n_users) for i in rng.sample(ids, length)]
    return from_pairs("shop", dataset.fingerprint, ids, rows), dataset


@pytest.mark.parametrize("kind", list(TINY))
def test_every_kind_trains_on_products(kind: str, tmp_path: Path) -> None:
    if kind not in ("popularity", "itemcf"):
        pytest.importorskip("torch", reason=TORCH_REASON)
    from macrs_sim.rankers.train import make_params, train_ranker

    data, _ = _shop()
    trained = train_ranker(kind, data, leave_one_out(data), make_params(kind, TINY[kind]),
                           tmp_path)  # fmt: skip
    scores = np.asarray(trained.ranker.score([[0, 1, 2]]))
    assert scores.shape == (1, 24)
    assert np.isfinite(scores[0, 3:]).all() and trained.checkpoint.is_file()


def test_toolrec_tables_and_retrieval_on_products(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason=TORCH_REASON)
    from macrs_sim.rankers.torch.toolrec import ToolRecParams
    from macrs_sim.rankers.torch.toolrec_train import train_toolrec

    data, dataset = _shop()
    tiny = {"epochs": 1, "min_epochs": 1, "dim": 8, "max_len": 8, "tune_epochs": 1}
    trained = train_toolrec(data, dataset, tmp_path, ToolRecParams.model_validate(tiny))
    retriever = trained.retriever
    assert retriever.attributes == ("category", "brand", "price_band", "features")
    assert trained.record["vocabulary_sizes"] == {
        "category": 5, "brand": 3, "price_band": 2, "features": 3,
    }  # fmt: skip
    found = retriever.retrieve(["s00", "s01"], "brand", 3)
    assert len(found) == 3 and not {"s00", "s01"} & set(found)


def test_toolrec_names_the_domains_patterns(tmp_path: Path) -> None:
    pytest.importorskip("torch", reason=TORCH_REASON)
    from macrs_sim.rankers.torch.toolrec import ToolRecParams
    from macrs_sim.rankers.torch.toolrec_train import train_toolrec

    data, dataset = _shop()
    params = ToolRecParams.model_validate({"attributes": "genre,brand"})  # a film pattern
    with pytest.raises(ConfigError) as err:
        train_toolrec(data, dataset, tmp_path, params)
    assert str(err.value) == (
        "toolrec: 'genre' is no attribute pattern of products; patterns: category, brand, "
        "price_band, features"
    )
    assert list(tmp_path.iterdir()) == []

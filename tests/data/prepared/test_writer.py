"""Format 2 of the prepared database: any domain's items, written and read back."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.domain import MOVIES
from macrs_sim.data.prepared import DatabaseWriter, Interaction, write_atomically
from macrs_sim.errors import DataError
from macrs_sim.protocol import Item

GEL = Item(
    item_id="B01",
    title="Neutrogena Hydro Boost Water Gel, 1.7 oz",
    categories=("Beauty", "Skin Care", "Face"),
    attributes=(("brand", ("Neutrogena",)), ("price", ("19.99",))),
    description="A gel.",
)
SOAP = Item(item_id="B02", title="Plain Soap", categories=("Beauty", "Bath"))
UNUSED = Item(item_id="B03", title="Nobody's Shampoo", categories=("Beauty",))


def write(path: Path) -> tuple[int, int, int]:
    writer = DatabaseWriter(path)
    writer.add_items([GEL, SOAP, UNUSED])
    writer.add_interactions(
        [
            Interaction("u1", "B02", 5.0, 100),
            Interaction("u1", "B01", 4.0, 100, review="Lovely gel.", summary="Nice"),
            Interaction("u2", "B01", None, 50),
        ]
    )
    return writer.finish({"kind": "movielens", "release": "hand"}, drop_unused_items=True)


def test_items_and_interactions_read_back_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    assert write(path) == (2, 2, 3)
    dataset = open_dataset(DataConfig(dataset=str(path)))
    assert [i.item_id for i in dataset.catalog] == ["B01", "B02"]  # B03: nobody's
    assert dataset.catalog["B01"] == GEL
    assert dataset.catalog["B01"].attribute("brand") == ("Neutrogena",)
    assert dataset.popularity == {"B01": 2, "B02": 1}
    # u1's two interactions share a timestamp: file order breaks the tie.
    assert dataset.prefixes(2) == {"u1": ["B02", "B01"]}
    assert dataset.domain is MOVIES  # the kind the meta names
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT summary, text FROM reviews").fetchall() == [
            ("Nice", "Lovely gel.")
        ]
        cats = db.execute("SELECT category FROM item_categories WHERE item_id = 'B01'")
        assert [c for (c,) in cats] == ["Beauty", "Skin Care", "Face"]
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    assert meta["format_version"] == "2" and meta["n_items"] == "2"


def test_an_unknown_kind_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "d.sqlite"
    writer = DatabaseWriter(path)
    writer.add_items([SOAP])
    writer.add_interactions([Interaction("u1", "B02", 5.0, 1)])
    writer.finish({"kind": "nosuchkind"}, drop_unused_items=False)
    with pytest.raises(
        DataError, match="unknown dataset kind 'nosuchkind'; expected one of movielens"
    ):
        open_dataset(DataConfig(dataset=str(path)))


def test_a_failed_build_leaves_nothing(tmp_path: Path) -> None:
    out = tmp_path / "d.sqlite"

    def build(tmp: Path) -> None:
        writer = DatabaseWriter(tmp)
        writer.add_items([SOAP])
        raise ValueError("bad row")

    with pytest.raises(
        DataError, match=r"src: could not be read \(ValueError: bad row\); expected x"
    ):
        write_atomically(out, False, build, Path("src"), "x")
    assert list(tmp_path.iterdir()) == []


def test_the_k_core_drops_again_until_no_user_or_item_is_short(tmp_path: Path) -> None:
    """2-core by hand: u3 has one interaction (B03) -> dropped; then B03 has one (u2's)
    -> dropped; then u2 has one (B01) -> dropped; u1 and u4 keep B01 and B02 twice each."""
    items = [Item(item_id=i, title=f"Thing {i}") for i in ("B01", "B02", "B03")]
    rows = [("u1", "B01"), ("u1", "B02"), ("u4", "B01"), ("u4", "B02"), ("u2", "B01"),
            ("u2", "B03"), ("u3", "B03")]  # fmt: skip
    path = tmp_path / "d.sqlite"
    writer = DatabaseWriter(path)
    writer.add_items(items)
    writer.add_interactions(
        Interaction(u, i, None, n, review="text") for n, (u, i) in enumerate(rows)
    )
    assert writer.finish({}, drop_unused_items=True, core=2) == (2, 2, 4)
    with sqlite3.connect(path) as db:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
        assert db.execute("SELECT COUNT(*) FROM reviews").fetchone() == (4,)
    assert meta["core"] == "2"
    assert meta["dropped: interactions outside the 2-core"] == "3"

"""`data prepare amazon` on each release, plain and .gz: the exact items, sequences and counts."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from macrs_sim.data.domain import PRODUCTS
from macrs_sim.protocol import Item
from tests.data.amazon.releases import (
    dataset,
    dropped,
    meta,
    query,
    release_2014,
    release_2018,
    release_2023,
    run,
)

GZ = pytest.mark.parametrize("gz", [False, True], ids=["plain", "gz"])


def item(item_id: str, title: str, categories: tuple[str, ...], **named: object) -> Item:
    description = named.pop("description", None)
    return Item.model_validate(
        {
            "item_id": item_id,
            "title": title,
            "categories": categories,
            "attributes": named,
            "description": description,
        }
    )


@GZ
def test_2014_python_literal_metadata_and_crlf_reviews(tmp_path: Path, gz: bool) -> None:
    source = release_2014(tmp_path / "src", gz=gz)
    db = tmp_path / "beauty.sqlite"
    result = run(source, db)
    assert (result.release, result.n_users, result.n_items, result.n_interactions) == (
        "amazon-2014:Beauty", 2, 3, 4,
    )  # fmt: skip
    data = dataset(db)
    assert data.domain is PRODUCTS
    assert list(data.catalog) == [
        item(
            "B001", "Rose Water Toner & Mist", ("Beauty", "Skin Care", "Face"),
            brand=["Rosa"], price=["12.50"], price_band=["$10 to $25"],
            description="A gentle toner. For every skin.",
        ),
        item(
            "B002", "Men's Shaving Gel", ("Beauty", "Shave"),
            brand=["Barbière"], price=["4.00"], price_band=["under $10"],
        ),
        item(
            "B005", "Café Soap Bar", ("Beauty", "Bath & Body"),
            price=["100.00"], price_band=["$50 to $100"],
        ),
    ]  # fmt: skip
    # A1: B002 is earlier; B001 and B005 share a time and keep their file order.
    assert data.sequences() == {"A1": ["B002", "B001", "B005"], "A2": ["B002"]}
    assert dict(data.popularity) == {"B001": 1, "B002": 2, "B005": 1}
    assert dropped(db) == {
        "items with no title": 1,  # B003: '<b> </b><br/>'
        "repeated metadata rows": 1,  # B001 again
        "metadata lines cut off at the end of the file": 1,
        "reviews of items with no metadata": 1,  # B999
        "reviews of items with no title": 1,  # B003
        "unreadable review lines": 1,  # line 4
        "reviews with a missing or bad field": 1,  # "overall": "five"
        "review lines cut off at the end of the file": 1,
    }
    assert result.lines[0] == "dropped 1 items with no title"
    assert len(result.lines) == 8
    assert query(db, "SELECT user_id, item_id, rating, timestamp FROM interactions") == [
        ("A1", "B001", 5.0, 1388534400),
        ("A1", "B002", 3.0, 1385856000),
        ("A1", "B005", 4.0, 1388534400),
        ("A2", "B002", 1.0, 1356998400),
    ]
    assert query(db, "SELECT COUNT(*) FROM reviews") == [(0,)]  # no --keep-text


@GZ
def test_2018_html_titles_prices_and_features(tmp_path: Path, gz: bool) -> None:
    source = release_2018(tmp_path / "src", gz=gz)
    db = tmp_path / "lux.sqlite"
    result = run(source.parent, db)  # the folder
    assert (result.release, result.n_users, result.n_items, result.n_interactions) == (
        "amazon-2018:Luxury_Beauty", 3, 4, 5,
    )  # fmt: skip
    data = dataset(db)
    features = ["Hydrates for 24 hours", "Paraben free", "Vegan", "Made in France"]
    features.append(" ".join(["soft"] * 15) + "…")  # 99 characters cut to 75
    assert list(data.catalog) == [
        item(
            "L01", "Velvet Night Cream & Serum", ("Luxury Beauty", "Skin Care", "Face"),
            brand=["Lumi & Co"], features=features, price=["1299.00"],
            price_band=["over $100"], description="Rich cream & more.",
        ),
        item(
            "L02", "Silk Shampoo", ("Luxury Beauty",), price=["3.99"],
            price_band=["under $10"],
        ),
        item(
            "L04", "Amber Eau de Parfum 50 ml", ("Luxury Beauty", "Fragrance"),
            brand=["Maison A"], description="One line only.",
        ),
        item(
            "L05", "Musk Oil 10 ml", ("Luxury Beauty", "Fragrance"), price=["25.00"],
            price_band=["$25 to $50"],
        ),
    ]  # fmt: skip
    assert data.sequences() == {"U1": ["L04", "L01"], "U2": ["L02", "L05"], "U3": ["L01"]}
    assert dict(data.popularity) == {"L01": 2, "L02": 1, "L04": 1, "L05": 1}
    assert dropped(db) == {
        "items with no title": 1,
        "repeated metadata rows": 1,
        "reviews of items with no title": 1,
    }
    assert result.lines == (
        "dropped 1 items with no title",
        "dropped 1 repeated metadata rows",
        "dropped 1 reviews of items with no title",
    )


@GZ
def test_2023_parent_asin_milliseconds_and_store(tmp_path: Path, gz: bool) -> None:
    source = release_2023(tmp_path / "src", gz=gz)
    db = tmp_path / "all.sqlite"
    result = run(source, db)
    assert (result.release, result.n_users, result.n_items, result.n_interactions) == (
        "amazon-2023:All_Beauty", 2, 3, 4,
    )  # fmt: skip
    data = dataset(db)
    assert list(data.catalog) == [
        item(
            "C01", "Howdy Hair Clips, 12 Pack", ("All Beauty",), brand=["Howdy Co"],
            store=["Howdy"], price=["9.99"], price_band=["under $10"],
            features=["Strong hold", "Rust-free metal"],
        ),
        item(
            "C02", "Plain Wide-Tooth Comb", ("Beauty & Personal Care", "Hair Care", "Combs"),
            brand=["CombCo"], store=["CombCo"],
            description=" ".join(["Lush"] * 99) + "…",  # 599 characters cut to 495
        ),
        item(
            "C03", "Big Ionic Dryer", ("Beauty & Personal Care", "Hair Care"),
            price=["25.00"], price_band=["$25 to $50"],
        ),
    ]  # fmt: skip
    # AU1's two reviews fall in one second: file order, though C02's milliseconds are earlier.
    assert data.sequences() == {"AU1": ["C01", "C02"], "AU2": ["C01", "C03"]}
    assert query(db, "SELECT item_id, timestamp FROM interactions ORDER BY rowid") == [
        ("C01", 1588687728),
        ("C02", 1588687728),
        ("C03", 1600000000),
        ("C01", 1599999999),
    ]
    assert dict(data.popularity) == {"C01": 2, "C02": 1, "C03": 1}
    assert dropped(db) == {"reviews of items with no metadata": 1}


def test_meta_rows_name_the_kind_release_and_options(tmp_path: Path) -> None:
    db = tmp_path / "all.sqlite"
    run(release_2023(tmp_path / "src"), db, strict=False, keep_text=True)
    found = meta(db)
    created = found.pop("created_at")
    assert created.endswith("+00:00") and len(created) == 25
    assert found == {
        "kind": "amazon",
        "release": "amazon-2023:All_Beauty",
        "reviews_file": "All_Beauty.jsonl",
        "meta_file": "meta_All_Beauty.jsonl",
        "core": "0",
        "strict": "false",
        "keep_text": "true",
        "dropped: reviews of items with no metadata": "1",
        "format_version": "2",
        "n_users": "2",
        "n_items": "3",
        "n_interactions": "4",
    }


def test_keep_text_stores_review_and_summary(tmp_path: Path) -> None:
    db = tmp_path / "lux.sqlite"
    run(release_2018(tmp_path / "src"), db, keep_text=True)
    rows = query(
        db,
        "SELECT i.user_id, i.item_id, r.summary, r.text FROM reviews r "
        "JOIN interactions i ON i.rowid = r.interaction ORDER BY r.interaction",
    )
    assert rows == [
        ("U1", "L01", "Five Stars", "Great cream."),
        ("U1", "L04", "Nice", ""),  # a summary and no text
        ("U2", "L02", "Meh", "Okay."),
        ("U2", "L05", "Good", "Warm scent."),
    ]  # U3's review has neither


def test_keep_text_2023_keeps_the_text_as_published(tmp_path: Path) -> None:
    db = tmp_path / "all.sqlite"
    run(release_2023(tmp_path / "src"), db, keep_text=True)
    assert query(db, "SELECT summary, text FROM reviews ORDER BY interaction LIMIT 1") == [
        ("Love it", "Works well.<br />Buy it."),
    ]


def test_meta_named_explicitly(tmp_path: Path) -> None:
    source = release_2018(tmp_path / "src")
    elsewhere = tmp_path / "other" / "lux-meta.json"
    elsewhere.parent.mkdir()
    (source.parent / "meta_Luxury_Beauty.json").rename(elsewhere)
    result = run(source, tmp_path / "lux.sqlite", meta=elsewhere)
    assert (result.n_items, result.n_interactions) == (4, 5)


def test_plain_meta_beside_gz_reviews(tmp_path: Path) -> None:
    """A folder may mix the forms: the .gz reviews find the plain meta file."""
    release_2023(tmp_path / "src")
    plain = tmp_path / "src" / "All_Beauty.jsonl"
    (tmp_path / "src" / "All_Beauty.jsonl.gz").write_bytes(gzip.compress(plain.read_bytes()))
    plain.unlink()
    assert run(tmp_path / "src", tmp_path / "x.sqlite").n_interactions == 4

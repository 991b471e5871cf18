"""`data prepare yelp`: the hostile miniature files (yelp_files.py) read back exactly,
plain, CRLF with trailing spaces, and gzip."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import open_dataset
from macrs_sim.data.domain import BUSINESSES
from macrs_sim.protocol import Item
from tests.data.conftest import Query
from tests.data.yelp.conftest import Prepare
from tests.data.yelp.yelp_files import (
    BUSINESS_LINES,
    BUSINESS_NAME,
    DROPPED,
    INTERACTIONS,
    ITEMS,
    POPULARITY,
    REVIEW_LINES,
    REVIEW_NAME,
    SEQUENCES,
    review,
    text_of,
    write,
    write_dataset,
)

SHAPES = [
    pytest.param({}, id="plain"),
    pytest.param({"crlf": True, "trailing": "  "}, id="crlf-trailing-spaces"),
    pytest.param({"gz": True}, id="gzip"),
]


def _meta(query: Query, db: Path) -> dict[str, str]:
    return {str(k): str(v) for k, v in query(db, "SELECT key, value FROM meta")}


@pytest.mark.parametrize("shape", SHAPES)
def test_items_sequences_and_drops(
    tmp_path: Path, run_prepare: Prepare, query: Query, shape: dict[str, bool | str]
) -> None:
    source = write_dataset(tmp_path / "src", **shape)  # type: ignore[arg-type]
    result = run_prepare(source)
    db = result.database
    assert (result.kind, result.release) == ("yelp", "yelp:2021")
    assert (result.n_users, result.n_items, result.n_interactions) == (3, 3, 5)
    dataset = open_dataset(DataConfig(dataset=str(db)))
    assert dataset.domain is BUSINESSES
    assert dataset.name == "yelp:2021"
    assert [item.item_id for item in dataset.catalog] == ["bA", "bB", "bD"]  # bE: unreviewed
    for item_id, fields in ITEMS.items():
        assert dataset.catalog[item_id] == Item(item_id=item_id, **fields)  # type: ignore[arg-type]
    assert dataset.sequences() == SEQUENCES
    assert dict(dataset.popularity) == POPULARITY
    rows = query(db, "SELECT user_id, item_id, rating, timestamp FROM interactions ORDER BY rowid")
    assert rows == INTERACTIONS
    assert query(db, "SELECT COUNT(*) FROM reviews") == [(0,)]  # no --keep-text
    meta = _meta(query, db)
    assert {k: v for k, v in meta.items() if k.startswith("dropped: ")} == DROPPED
    assert result.lines == tuple(
        f"dropped {n} {k.removeprefix('dropped: ')}" for k, n in sorted(DROPPED.items())
    )
    assert meta["kind"] == "yelp" and meta["release"] == "yelp:2021"
    assert meta["strict"] == "false" and meta["min_stars"] == "none"
    assert meta["businesses_listed"] == "4"  # bA, bB, bD, bE
    assert meta["newest_review"] == "2021-02-03 04:05:06+00:00"
    assert meta["created_at"].endswith("+00:00")
    assert (meta["n_users"], meta["n_items"], meta["n_interactions"]) == ("3", "3", "5")


def test_item_attribute_values_read_as_the_domain_hints_name_them(
    tmp_path: Path, run_prepare: Prepare
) -> None:
    dataset = open_dataset(DataConfig(dataset=str(run_prepare(write_dataset(tmp_path)).database)))
    hinted = {hint.name for hint in BUSINESSES.hints} - {"categories"}
    bd = dataset.catalog["bD"]
    assert hinted <= set(bd.attribute_map)  # bD has every hinted attribute
    assert bd.attribute("price_range") == ("$$$$",) and bd.description is None
    assert bd.year is None and bd.keywords == () and bd.aka == ()


def test_min_stars_keeps_reviews_at_or_above_and_counts_the_rest(
    tmp_path: Path, run_prepare: Prepare, query: Query
) -> None:
    result = run_prepare(write_dataset(tmp_path / "src"), min_stars=4)
    # Kept: line 1 (5 stars) and line 3 (4.0); lines 2, 5 and 8 (3, 2, 1) fall below.
    assert (result.n_users, result.n_items, result.n_interactions) == (2, 1, 2)
    assert result.release == "yelp:2021"  # the newest review names the release regardless
    dataset = open_dataset(DataConfig(dataset=str(result.database)))
    assert dataset.sequences() == {"u1": ["bA"], "u2": ["bA"]}
    meta = _meta(query, result.database)
    assert meta["dropped: reviews below --min-stars"] == "3"
    assert meta["dropped: reviews of businesses with no metadata"] == "2"  # bad rows first
    assert meta["min_stars"] == "4"
    assert "dropped 3 reviews below --min-stars" in result.lines


def test_min_stars_is_not_refused_under_strict(
    tmp_path: Path, run_prepare: Prepare, query: Query
) -> None:
    reviews = [review(1, "u1", "bA", 5, "2018-01-02 10:00:00", "a"),
               review(2, "u1", "bB", 2, "2018-01-03 10:00:00", "b")]  # fmt: skip
    result = run_prepare(write_dataset(tmp_path, BUSINESS_LINES[:2], reviews), min_stars=4.5,
                         strict=True)  # fmt: skip
    assert result.n_interactions == 1
    assert _meta(query, result.database)["dropped: reviews below --min-stars"] == "1"


def test_keep_text_stores_each_review_text(
    tmp_path: Path, run_prepare: Prepare, query: Query
) -> None:
    result = run_prepare(write_dataset(tmp_path), keep_text=True)
    texts = query(result.database, "SELECT summary, text FROM reviews ORDER BY interaction")
    assert texts == [
        (None, "Great crust."),
        (None, "Fine coffee.\nSlow."),
        (None, "Good."),
        (None, "Too salty."),
        (None, "Cold."),
    ]


def test_path_may_be_the_business_file_with_the_review_file_beside_it(
    tmp_path: Path, run_prepare: Prepare
) -> None:
    folder = tmp_path / "renamed"
    write(folder / "2019_business.json.gz", text_of(BUSINESS_LINES), gz=True)
    write(folder / "2019_review.json", text_of(REVIEW_LINES, end=False))
    result = run_prepare(folder / "2019_business.json.gz")
    assert (result.n_users, result.n_items, result.n_interactions) == (3, 3, 5)
    # The published names beside a business file of another name.
    other = tmp_path / "published"
    write(other / "biz.json", text_of(BUSINESS_LINES))
    write(other / REVIEW_NAME, text_of(REVIEW_LINES, end=False))
    assert run_prepare(other / "biz.json", tmp_path / "b.sqlite").n_interactions == 5


def test_plain_file_is_read_when_a_gzip_copy_sits_beside_it(
    tmp_path: Path, run_prepare: Prepare
) -> None:
    folder = write_dataset(tmp_path / "src")
    write(folder / (BUSINESS_NAME + ".gz"), b"not gzip at all")  # would fail if read
    write(folder / (REVIEW_NAME + ".gz"), b"not gzip at all")
    assert run_prepare(folder).n_interactions == 5


def test_older_release_shapes_read_the_same(
    tmp_path: Path, run_prepare: Prepare, query: Query
) -> None:
    """Before 2018: categories a JSON list, attributes real JSON values or (2017) a list of
    "Name: value" strings, neighborhoods a list, dates without a time."""
    business = [
        json.dumps({"business_id": "o1", "name": "Old Diner", "categories": ["Diners", " "],
                    "neighborhoods": ["Old Town"], "stars": 3.5, "city": "Akron",
                    "attributes": {"RestaurantsPriceRange2": 1,
                                   "Ambience": {"romantic": True, "casual": False}}}),
        json.dumps({"business_id": "o2", "name": "List Bar", "categories": None,
                    "attributes": ["RestaurantsPriceRange2: 3",
                                   "Ambience: {'divey': True, 'classy': False}"]}),
    ]  # fmt: skip
    reviews = [
        json.dumps({"user_id": "u", "business_id": "o1", "stars": 4, "date": "2012-03-04"}),
        json.dumps({"user_id": "u", "business_id": "o2", "stars": 5, "date": "2012-03-05"}),
    ]
    result = run_prepare(write_dataset(tmp_path, business, reviews))
    assert result.release == "yelp:2012"
    catalog = open_dataset(DataConfig(dataset=str(result.database))).catalog
    assert catalog["o1"] == Item(
        item_id="o1",
        title="Old Diner",
        categories=("Diners",),
        attributes=(("ambience", ("romantic",)), ("city", ("Akron",)),
                    ("neighborhood", ("Old Town",)), ("price_range", ("$",)),
                    ("stars", ("3.5",))),
    )  # fmt: skip
    assert catalog["o2"].attribute_map == {"ambience": ("divey",), "price_range": ("$$$",)}
    stamps = query(result.database, "SELECT timestamp FROM interactions ORDER BY rowid")
    assert stamps == [(1330819200,), (1330905600,)]  # 2012-03-04 and -05, midnight UTC

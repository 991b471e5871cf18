"""Item is domain-neutral; the film-only shape of older catalogs, sample sets and stores
still reads, and a user's catalog with odd attribute values is one line, not a traceback."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import DataError
from macrs_sim.protocol import Item

FILM = {"item_id": "m1", "title": "Heat", "year": 1995, "genres": ["Crime"],
        "director": "Michael Mann", "cast": ["Al Pacino", "Robert De Niro"],
        "overview": "LA."}  # fmt: skip


def test_the_film_shape_reads_into_the_neutral_one_and_back() -> None:
    item = Item.model_validate(FILM)
    assert item.categories == ("Crime",) and item.description == "LA."
    assert item.attributes == (
        ("cast", ("Al Pacino", "Robert De Niro")), ("director", ("Michael Mann",)),
    )  # fmt: skip
    assert (item.genres, item.director, item.cast, item.overview) == (
        ("Crime",), "Michael Mann", ("Al Pacino", "Robert De Niro"), "LA.",
    )  # fmt: skip
    dumped = item.model_dump(mode="json")
    assert dumped["attributes"] == {"cast": ["Al Pacino", "Robert De Niro"],
                                    "director": ["Michael Mann"]}  # fmt: skip
    assert Item.model_validate(dumped) == item and hash(Item.model_validate(dumped)) == hash(item)


def test_attribute_values_of_every_plain_kind() -> None:
    item = Item.model_validate(
        {"item_id": "p", "title": "Gel", "attributes": {"price": 19.99, "sizes": [1.7, 3.4],
                                                         "brand": "Lumera", "empty": ""}}
    )  # fmt: skip
    assert item.attribute_map == {
        "brand": ("Lumera",),
        "price": ("19.99",),
        "sizes": ("1.7", "3.4"),
    }
    assert (
        Item.model_validate({"item_id": "p", "title": "Gel", "attributes": None}).attributes == ()
    )


@pytest.mark.parametrize("attributes", [{"price": {"amount": 5}}, 5, "brand"])
def test_other_attribute_values_are_a_validation_error(attributes: object) -> None:
    with pytest.raises(ValidationError):
        Item.model_validate({"item_id": "p", "title": "Gel", "attributes": attributes})


def test_a_catalog_line_with_a_bad_attribute_is_one_line() -> None:
    line = json.dumps({"item_id": "p", "title": "Gel", "attributes": {"price": {"x": 1}}})
    with pytest.raises(DataError, match=r"^mine:1: not a valid item record \("):
        Catalog.from_jsonl_text(line, "mine")

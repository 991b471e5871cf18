"""Attribute patterns read off a hostile catalog, worked out by hand."""

from __future__ import annotations

import numpy as np
import pytest

from macrs_sim.protocol import Item
from macrs_sim.rankers.attribute_values import (
    UNKNOWN,
    attribute_table,
    available_tables,
    tables_digest,
)

ITEMS = [
    # Sequel and remake share a title; spaces and case differ between spellings.
    Item(item_id="a", title="Heat", year=1995, genres=("Crime", " Drama "),
         director="Michael Mann "),
    Item(item_id="b", title="Heat", year=1986, genres=("drama", "Crime", "crime"),
         director=" Michael Mann", cast=("Sally Field",)),
    Item(item_id="c", title="Alone", year=None, genres=(), director="",
         cast=(" ", "Burt Reynolds")),
    Item(item_id="d", title="Once", year=1999, genres=("Musical",), director="John Carney"),
]  # fmt: skip


def test_genre_values_merge_spellings_and_rare_values_are_unknown() -> None:
    t = attribute_table("genre", ITEMS)
    # Crime and Drama are on two items each; Musical on one (unknown); c has none (unknown).
    assert t.vocabulary == ("Crime", "Drama")
    assert t.rows.tolist() == [[0, 0], [2, 3], [3, 2], [UNKNOWN, 0], [UNKNOWN, 0]]
    assert t.n_values == 4


def test_decade_director_cast() -> None:
    decade = attribute_table("decade", ITEMS)
    assert decade.vocabulary == ("1990s",)  # 1995 and 1999; 1986 alone; c has no year
    assert decade.rows[:, 0].tolist() == [0, 2, UNKNOWN, UNKNOWN, 2]
    director = attribute_table("director", ITEMS)
    assert director.vocabulary == ("Michael Mann",)
    assert director.rows[:, 0].tolist() == [0, 2, 2, UNKNOWN, UNKNOWN]
    cast = attribute_table("cast", ITEMS, min_items=1)
    assert cast.vocabulary == ("Sally Field", "Burt Reynolds")
    assert cast.rows[:, 0].tolist() == [0, UNKNOWN, 2, 3, UNKNOWN]


def test_a_pattern_without_shared_values_is_absent() -> None:
    no_people = [
        Item.model_validate(i.model_dump() | {"director": None, "cast": ()}) for i in ITEMS
    ]
    assert list(available_tables(no_people)) == ["genre", "decade"]
    assert list(available_tables(ITEMS)) == ["genre", "decade", "director"]
    assert list(available_tables(ITEMS, min_items=1)) == ["genre", "decade", "director", "cast"]


def test_digest_follows_the_attribute_data() -> None:
    base = available_tables(ITEMS)
    renamed = [
        Item.model_validate(ITEMS[0].model_dump() | {"director": "Someone Else"}),
        *ITEMS[1:],
    ]
    assert tables_digest(base) == tables_digest(available_tables(ITEMS))
    assert tables_digest(base) != tables_digest(available_tables(renamed))


def test_an_empty_catalog_gives_padding_only() -> None:
    t = attribute_table("genre", [])
    assert t.vocabulary == () and np.array_equal(t.rows, np.zeros((1, 1), dtype=np.int64))


def test_unknown_pattern_in_params_is_rejected() -> None:
    pytest.importorskip("torch")
    from pydantic import ValidationError

    from macrs_sim.rankers.torch.toolrec import ToolRecParams

    assert ToolRecParams.model_validate({"attributes": " decade, genre"}).attributes == (
        "decade",
        "genre",
    )
    with pytest.raises(ValidationError, match="expected some of genre, decade, director, cast"):
        ToolRecParams.model_validate({"attributes": "plot"})

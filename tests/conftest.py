"""Shared fixtures: a small hand-made catalog, so expected values can be worked out by hand."""

from __future__ import annotations

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Item, Sample


def _item(item_id: str, title: str, year: int, genres: tuple[str, ...], **kw: object) -> Item:
    return Item.model_validate(
        {"item_id": item_id, "title": title, "year": year, "genres": genres, **kw}
    )


@pytest.fixture
def catalog() -> Catalog:
    return Catalog(
        [
            _item(
                "m1",
                "Heat",
                1995,
                ("Crime", "Thriller"),
                director="Michael Mann",
                cast=("Al Pacino", "Robert De Niro"),
            ),
            _item(
                "m2",
                "The Matrix",
                1999,
                ("Action", "Sci-Fi"),
                director="Lana Wachowski & Lilly Wachowski",
            ),
            _item("m3", "Up", 2009, ("Animation", "Family"), director="Pete Docter"),
            _item("m4", "Alien", 1979, ("Horror", "Sci-Fi"), director="Ridley Scott"),
            _item("m5", "Toy Story", 1995, ("Animation", "Comedy")),
            _item("m6", "Amélie", 2001, ("Comedy", "Romance")),
            _item("m7", "Heat", 1986, ("Action",)),
            _item(
                "m8",
                "The Godfather",
                1972,
                ("Crime", "Drama"),
                keywords=("mafia family", "succession"),
            ),
        ]
    )


@pytest.fixture
def prompts() -> PromptLibrary:
    return PromptLibrary()


@pytest.fixture
def sample() -> Sample:
    return Sample(
        sample_id="s-u1",
        user_id="u1",
        history=("m1", "m4"),
        target_id="m2",
        target_profile=("virtual reality", "martial arts"),
        opening="I want a mind-bending action film.",
    )

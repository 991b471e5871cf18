"""Fixtures over the hand-written films (tests/tools/films.py): database, catalog, context."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.context import CallContext, calling
from macrs_sim.protocol import Item
from tests.tools.films import FILMS, write_database


@pytest.fixture
def film_db(tmp_path: Path) -> Path:
    return write_database(tmp_path / "films.sqlite")


@pytest.fixture
def films() -> Catalog:
    return Catalog(
        [
            Item(
                item_id=f[0],
                title=f[1],
                year=f[2],
                genres=tuple(f[3]),
                director=f[4],
                cast=tuple(f[5]),
                keywords=tuple(f[6]),
                overview=f[7],
            )  # fmt: skip
            for f in FILMS
        ]
    )


@pytest.fixture
def popularity() -> dict[str, int]:
    return {f[0]: f[8] for f in FILMS}


@pytest.fixture
def in_dialogue() -> Iterator[CallContext]:
    ctx = CallContext(role="recommender", dialogue_id="d1", system="interecagent", turn=2)
    with calling(ctx):
        yield ctx

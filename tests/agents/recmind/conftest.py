"""Fixtures: the hand-written films of tests/tools (8 films, two named "Heat"), a dataset
over them, visible histories, and a reasoner on the scripted backend.

Visible histories: u1 rated Star Voyage 5, Heat (1995) 4, Galaxy Kids 3 (its held-out
item, Paris in Love, is not given); u2 has Star Voyage with no rating.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.agents.recmind import build
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import Dataset
from macrs_sim.protocol import Item
from tests.agents.recmind.helpers import HISTORIES
from tests.tools.films import FILMS


@pytest.fixture
def films() -> Catalog:
    return Catalog([
        Item(item_id=f[0], title=f[1], year=f[2], genres=tuple(f[3]), director=f[4],
             cast=tuple(f[5]), keywords=tuple(f[6]), overview=f[7])
        for f in FILMS
    ])  # fmt: skip


@pytest.fixture
def dataset(films: Catalog) -> Dataset:
    return Dataset(
        name="films", fingerprint="films|test", catalog=films,
        popularity={f[0]: f[8] for f in FILMS}, n_users=2, n_interactions=4,
        _prefixes=lambda n: {},
    )  # fmt: skip


@pytest.fixture
def res(dataset: Dataset, tmp_path: Path) -> build.RecMindResources:
    return build.resources(dataset, HISTORIES, tmp_path / "cache")

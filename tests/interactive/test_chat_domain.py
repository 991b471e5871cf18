"""The chat's refusal of a target the catalog has not, worded for how the dataset's items
are named: a title and its year (films, games), a name and its qualifiers (products,
restaurants)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from macrs_sim.data.domain import BUSINESSES, GAMES, MOVIES, PRODUCTS
from macrs_sim.errors import ConfigError
from macrs_sim.interactive.chat import resolve_target
from macrs_sim.protocol import ItemRef


def _setup(domain: Any) -> Any:
    grounder = SimpleNamespace(ground=lambda title: ItemRef(title=title))
    return SimpleNamespace(grounder=grounder, dataset=SimpleNamespace(name="d", domain=domain))


@pytest.mark.parametrize(
    ("domain", "said"),
    [
        (MOVIES, "has that title (give it as the catalog spells it, optionally with its year)"),
        (GAMES, "has that title (give it as the catalog spells it, optionally with its year)"),
        (PRODUCTS, "has that name (give it as the catalog spells it, optionally with its "
                   "brand or store)"),
        (BUSINESSES, "has that name (give it as the catalog spells it, optionally with its "
                     "city, neighborhood or state)"),
    ],
)  # fmt: skip
def test_an_unknown_chat_target_is_worded_for_the_domain(domain: Any, said: str) -> None:
    with pytest.raises(ConfigError) as err:
        resolve_target(_setup(domain), "Zzyzx")
    assert str(err.value) == f"--target 'Zzyzx': no item of dataset 'd' {said}"

"""Grounding names of products, businesses and games (the domain's policy picks the
grounder): precision first, since an acceptance rests on it."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import BUSINESSES, GAMES, MOVIES, PRODUCTS
from macrs_sim.data.grounding import Grounder, ItemGrounder, NameGrounder, grounder_for
from macrs_sim.data.grounding.evaluate import Case, domain_catalogs, evaluate, load_cases
from macrs_sim.data.grounding.names import name_words
from macrs_sim.protocol import Item

HERE = Path(__file__).parent / "domains"


@pytest.fixture(scope="module")
def setup() -> tuple[list[Case], dict[str, ItemGrounder]]:
    catalogs = domain_catalogs(HERE)
    cases = load_cases(HERE / "cases.jsonl", {k: c for k, (c, _) in catalogs.items()})
    return cases, {k: grounder_for(c, d) for k, (c, d) in catalogs.items()}


def test_the_policy_picks_the_grounder() -> None:
    catalog = Catalog.demo()
    assert isinstance(grounder_for(catalog, MOVIES), Grounder)
    assert isinstance(grounder_for(catalog, GAMES), Grounder)  # titles, years, sequels
    assert isinstance(grounder_for(catalog, PRODUCTS), NameGrounder)
    assert isinstance(grounder_for(catalog, BUSINESSES), NameGrounder)


def test_the_cases_cover_what_trips_names(
    setup: tuple[list[Case], dict[str, ItemGrounder]],
) -> None:
    cases, _ = setup
    per = Counter(c.category for c in cases)
    least = {"variant_unstated": 10, "variant_stated": 8, "brand_alone": 10,
             "same_brand_other_product": 8, "chain": 5, "absent": 15}  # fmt: skip
    for category, n in least.items():
        assert per[category] >= n, category


def test_precision_and_recall(setup: tuple[list[Case], dict[str, ItemGrounder]]) -> None:
    cases, grounders = setup
    tallies = evaluate(cases, grounders)
    overall = tallies["all"]
    assert overall.precision == 1.0, overall.mistakes
    assert overall.recall is not None and overall.recall >= 0.95, overall.mistakes
    # Nothing that names no single item is ever matched.
    for category in ("variant_unstated", "brand_alone", "same_brand_other_product", "chain"):
        assert tallies[category].returned == 0, tallies[category].mistakes


def test_a_size_left_unsaid_is_ambiguous_and_matches_nothing() -> None:
    catalog, domain = domain_catalogs(HERE)["products"]
    grounder = grounder_for(catalog, domain)
    ref = grounder.ground("the Neutrogena Hydro Boost gel")
    assert (ref.item_id, ref.method) == (None, "ambiguous")
    ref = grounder.ground("Hydro Boost Water Gel, 3.4oz")
    assert (ref.item_id, ref.method) == ("p2", "normalized")
    ref = grounder.ground("Nutrogena Hydro Boost Water Gel 3.4 oz")  # one slip, repaired
    assert (ref.item_id, ref.method) == ("p2", "fuzzy")
    assert grounder.ground("Neutrogena").method == "none"  # a brand alone names a maker


def test_name_words() -> None:
    assert name_words("Serendipity 3 $100.00 Gift Card") == (
        "serendipity", "3", "100", "gift", "card",
    )  # fmt: skip
    assert name_words("Burt's Bees Gel-Cream 1.70oz, in the 12pack size") == (
        "burt", "bees", "gel", "cream", "1.7", "oz", "12", "pack",
    )  # fmt: skip


def test_an_item_holding_every_word_said_makes_it_ambiguous_even_if_less_named() -> None:
    """ "Dove shampoo" names the one-word "Shampoo" (by Dove) well enough, but every word of
    it is in "Dove Men+Care Shampoo, 12 oz" too: two items fit, none is taken."""
    catalog = Catalog(
        [
            Item.model_validate(
                {"item_id": "a", "title": "Shampoo", "attributes": {"brand": "Dove"}}
            ),
            Item.model_validate(
                {
                    "item_id": "b",
                    "title": "Dove Men+Care Shampoo, 12 oz",
                    "attributes": {"brand": "Dove"},
                }
            ),
        ]
    )
    grounder = grounder_for(catalog, PRODUCTS)
    assert grounder.ground("Dove shampoo").method == "ambiguous"
    assert grounder.ground("Dove Men+Care shampoo").item_id == "b"

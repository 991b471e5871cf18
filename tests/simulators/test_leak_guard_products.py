"""A product's long name leaks through its distinctive part, not only the whole string."""

from __future__ import annotations

import pytest

from macrs_sim.data.domain import MOVIES, PRODUCTS
from macrs_sim.protocol import Item
from macrs_sim.simulators.leak_guard import LeakGuard, distinctive_forms
from macrs_sim.simulators.target_profile import title_guard

GIFT = Item(item_id="p1", title="Serendipity 3 $100.00 Gift Card")
GEL = Item.model_validate(
    {
        "item_id": "p2",
        "title": "Neutrogena Hydro Boost Water Gel, 1.7 oz",
        "attributes": {"brand": ["Neutrogena"]},
    }
)


def test_the_forms_of_a_product_name() -> None:
    assert distinctive_forms(GIFT.title) == ["Serendipity 3 Gift Card"]
    assert distinctive_forms(GEL.title, ("Neutrogena",)) == [
        "Neutrogena Hydro Boost Water Gel",
        "Hydro Boost Water Gel",
    ]
    # Film titles state no amount or size: none gets a shorter form.
    assert distinctive_forms("The Good, the Bad and the Ugly") == []
    assert distinctive_forms("$9.99") == []
    assert distinctive_forms("Ocean's 11") == []
    # A form of two words is everyday wording as often as a name ("a soft cream").
    assert distinctive_forms("Nivea Soft Cream, Moisturizer, 6.8 oz", ("Nivea",)) == [
        "Nivea Soft Cream, Moisturizer",
        "Nivea Soft Cream",
    ]


@pytest.mark.parametrize(
    ("item", "text", "leaks"),
    [
        (GIFT, "I'd love a Serendipity 3 gift card for my sister.", True),
        (GIFT, "Serendipity 3 $100.00 Gift Card", True),
        (GIFT, "a gift card for a dessert place", False),
        (GEL, "Maybe the hydro boost water gel?", True),
        (GEL, "Neutrogena Hydro-Boost Water Gel would do", True),
        (GEL, "something light from Neutrogena, a water gel", False),
        (GEL, "a gel, 1.7 oz or so", False),
    ],
)
def test_the_title_guard_catches_the_short_forms(item: Item, text: str, leaks: bool) -> None:
    assert title_guard(item, PRODUCTS).leaks(text) is leaks


def test_films_get_no_shorter_forms() -> None:
    """Only a domain that names its items by long names gets them: a film title stays whole."""
    diet = Item(item_id="f1", title="The $5,000 Gold Rush Diet Plan")
    assert distinctive_forms(diet.title) == ["The Gold Rush Diet Plan"]
    assert not title_guard(diet, MOVIES).leaks("the gold rush diet plan")
    assert title_guard(diet, PRODUCTS).leaks("the gold rush diet plan")


def test_redaction_covers_the_short_form() -> None:
    guard = LeakGuard.for_item(GIFT, PRODUCTS)
    assert guard.redact("A Serendipity 3 gift card!") == "A that product!"
    assert guard.title == GIFT.title
    assert LeakGuard("Heat").redact("Heat, please") == "that movie, please"

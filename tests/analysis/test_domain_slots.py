"""The report's question slots in each domain's attributes (analysis/metrics/slots.py), on
small hand-written catalogs: what a question asks, whether a reply answers it, whether it
describes some other item (off-profile), and which true facts a reply names."""

from __future__ import annotations

from macrs_sim.analysis.metrics.slots import FILM_SLOTS, DomainSlots
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import (
    BUSINESSES,
    GAMES,
    MOVIES,
    PRODUCTS,
    AttributeHint,
    Domain,
)
from macrs_sim.protocol import Item


def products() -> Catalog:
    return Catalog(
        [
            Item(
                item_id="p1",
                title="Neutrogena Hydro Boost Water Gel, 1.7 oz",
                categories=("All Beauty", "Skin Care"),
                attributes={
                    "brand": "Neutrogena",
                    "price_band": "$10 to $25",
                    "features": ["fragrance-free"],
                },
            ),
            Item(
                item_id="p2",
                title="CeraVe Moisturizing Cream, 16 oz",
                categories=("All Beauty", "Skin Care"),
                attributes={"brand": "CeraVe", "price_band": "$10 to $25"},
            ),
            Item(
                item_id="p3",
                title="Oriel Matte Lipstick, Ruby",
                categories=("All Beauty", "Makeup"),
                attributes={"brand": "Oriel", "price_band": "under $10"},
            ),
        ]
    )


def restaurants() -> Catalog:
    def place(item_id: str, title: str, cuisine: str, city: str, price: str) -> Item:
        return Item(
            item_id=item_id,
            title=title,
            categories=("Restaurants", cuisine),
            attributes={"city": city, "price_range": price},
        )

    return Catalog(
        [
            place("b1", "Lucia's Trattoria", "Italian", "Pittsburgh", "$$$"),
            place("b2", "Golden Dumpling", "Chinese", "Las Vegas", "$$"),
        ]
    )


def games() -> Catalog:
    return Catalog(
        [
            Item(
                item_id="g1",
                title="Portal 2",
                year=2011,
                categories=("Puzzle", "Action"),
                attributes={"developer": "Valve", "tags": ["co-op"]},
            ),
            Item(
                item_id="g2",
                title="Stardew Valley",
                year=2016,
                categories=("Simulation", "RPG"),
                attributes={"developer": "ConcernedApe", "tags": ["farming"]},
            ),
        ]
    )


def test_each_domain_asks_about_its_own_attributes() -> None:
    assert DomainSlots(MOVIES).names == FILM_SLOTS
    assert DomainSlots(PRODUCTS).names == ("category", "brand", "price range", "feature", "open")
    assert DomainSlots(BUSINESSES).names == (
        "cuisine", "neighbourhood", "city", "price range", "ambience", "open",
    )  # fmt: skip
    assert DomainSlots(GAMES).names == ("genre", "tag", "developer", "open")
    slots = DomainSlots(PRODUCTS, products()).target(products()["p1"])
    assert slots.asked("Which brand do you like?") == {"brand"}
    assert slots.asked("What is your budget?") == {"price range"}
    assert slots.asked("What kind of product, and from which brand?") == {"category", "brand"}
    assert slots.asked("Tell me more about it.") == {"open"}
    # A film question's words ask nothing of a product.
    assert slots.asked("Which decade, and which actor?") == {"open"}


def test_a_product_reply_is_checked_against_the_catalog_and_the_target() -> None:
    catalog = products()
    slots = DomainSlots(PRODUCTS, catalog).target(catalog["p1"], ("fragrance-free",))
    brand, budget = "Which brand do you like?", "What is your budget?"
    # Another catalog brand: answers the question, and describes some other product.
    assert slots.answers("I like CeraVe.", "brand")
    assert slots.off_profile(brand, "I like CeraVe.")
    assert slots.answers("Neutrogena, please.", "brand")
    assert not slots.off_profile(brand, "Neutrogena, please.")
    assert not slots.off_profile(brand, "Neutrogena or CeraVe, either.")
    assert slots.answers("I don't mind.", "brand")  # no preference is an answer
    assert not slots.answers("Blue, please.", "brand")
    # A price word answers without naming a band; a band the target lacks is off-profile.
    assert slots.answers("Something cheap.", "price range")
    assert not slots.off_profile(budget, "Something cheap.")
    assert slots.answers("Anything under $10.", "price range")
    assert slots.off_profile(budget, "Anything under $10.")
    assert not slots.off_profile(budget, "Between $10 to $25 is fine.")
    # Categories: the target's is no off-profile, another's is.
    assert not slots.off_profile("What kind of product?", "Something for skin care.")
    assert slots.off_profile("What kind of product?", "Makeup, I think.")
    # Open: a true fact of the target; the reasons name them.
    assert slots.answers("Something fragrance-free.", "open")
    assert not slots.answers("Hmm, not sure.", "open")
    assert slots.reasons("No, I want Neutrogena, fragrance-free.") == [
        "brand:Neutrogena",
        "feature:fragrance-free",
        "keyword:fragrance-free",
    ]


def test_restaurant_prices_are_whole_symbols_and_cuisines_not_the_noun() -> None:
    catalog = restaurants()
    slots = DomainSlots(BUSINESSES, catalog).target(catalog["b1"])
    price = "What price range do you have in mind?"
    assert slots.asked(price) == {"price range"}
    # "in the mood for" (the scripted systems' question) asks no ambience.
    assert slots.asked("What kind of restaurant are you in the mood for?") == {"cuisine"}
    assert slots.off_profile(price, "$$ would be fine.")  # the target is $$$
    assert not slots.off_profile(price, "Around $$$ is fine.")  # "$$" is not inside "$$$"
    assert slots.answers("Somewhere moderate.", "price range")
    assert slots.off_profile("Where would you like to eat?", "In Las Vegas.")
    assert not slots.off_profile("Where would you like to eat?", "In Pittsburgh.")
    assert slots.off_profile("What cuisine?", "Chinese food.")
    # "Restaurants" names every item of the domain: it is no cuisine.
    assert not slots.answers("Any restaurants will do.", "cuisine")
    assert slots.reasons("Italian in Pittsburgh.") == ["cuisine:Italian", "city:Pittsburgh"]


def test_game_slots_and_their_decade() -> None:
    catalog = games()
    slots = DomainSlots(GAMES, catalog).target(catalog["g1"])
    assert slots.asked("Which studio made the games you love?") == {"developer"}
    assert slots.off_profile("Which developer do you like?", "ConcernedApe's games.")
    assert not slots.off_profile("Which developer do you like?", "Valve, always.")
    assert slots.off_profile("What genre?", "An RPG.")
    assert slots.reasons("A co-op game from the 2010s.") == ["tag:co-op", "decade:2010s"]


def test_a_plugin_domain_gets_slots_from_its_hints_and_category_label() -> None:
    books = Domain(
        name="books",
        noun="book",
        plural="books",
        category_label="subject",
        hints=(AttributeHint("author", "author", cues=("writer",)),),
    )
    catalog = Catalog(
        [
            Item(
                item_id="k1",
                title="Dune",
                categories=("Science",),
                attributes={"author": "Frank Herbert"},
            )
        ]
    )
    assert DomainSlots(books).names == ("subject", "author", "open")
    slots = DomainSlots(books, catalog).target(catalog["k1"])
    assert slots.asked("Any favourite writer?") == {"author"}
    assert slots.answers("Frank Herbert.", "author")
    # A film-like plugin domain takes the paper's film slots by saying so, not by its name.
    shows = Domain(name="tv_shows", noun="show", plural="shows", category_label="genre",
                   layout="films")  # fmt: skip
    assert DomainSlots(shows).names == FILM_SLOTS

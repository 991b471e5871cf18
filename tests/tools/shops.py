"""Hand-made catalogs of other domains: four skin-care products and two restaurants.

Chosen so that a text column would give wrong answers: the cheapest Neutrogena product
costs "8.49", which is more than "20" as text and less as a number; one product has no
features and no store (NULL cells); the restaurants' stars mix "4.5" and "4".
"""

from __future__ import annotations

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import Dataset, catalog_digest
from macrs_sim.data.domain import BUSINESSES, PRODUCTS, Domain
from macrs_sim.protocol import Item

PRODUCTS_ITEMS = (
    Item(item_id="p1", title="Hydro Boost Water Gel",
         categories=("Beauty", "Skin Care", "Face Moisturizers"),
         attributes={"brand": "Neutrogena", "price": "18.99", "price_band": "$$",
                     "features": ("Oil-free", "Hyaluronic acid"), "store": "Neutrogena Store"},
         description="A light gel moisturiser."),
    Item(item_id="p2", title="Ultra Sheer Sunscreen SPF 70",
         categories=("Beauty", "Skin Care", "Sunscreens"),
         attributes={"brand": "Neutrogena", "price": "24.50", "price_band": "$$",
                     "features": ("Water resistant",), "store": "Neutrogena Store"}),
    Item(item_id="p3", title="Daily Moisturizing Lotion",
         categories=("Beauty", "Skin Care", "Body Lotions"),
         attributes={"brand": "Cetaphil", "price": "12.00", "price_band": "$",
                     "features": ("Fragrance-free", "Non-greasy"), "store": "Galderma"}),
    Item(item_id="p4", title="Makeup Remover Wipes",
         categories=("Beauty", "Skin Care", "Makeup Removers"),
         attributes={"brand": "Neutrogena", "price": "8.49", "price_band": "$"}),
)  # fmt: skip
PRODUCTS_POPULARITY = {"p1": 40, "p2": 25, "p3": 10, "p4": 5}

RESTAURANTS = (
    Item(item_id="r1", title="Pizzeria Bianco", categories=("Pizza", "Italian"),
         attributes={"city": "Phoenix", "state": "AZ", "neighborhood": "Downtown",
                     "price_range": "$$", "ambience": ("casual", "romantic"), "stars": "4.5"},
         description="Wood-fired pizza in a brick building."),
    Item(item_id="r2", title="Cafe Lumen", categories=("Coffee & Tea", "Breakfast & Brunch"),
         attributes={"city": "Phoenix", "state": "AZ", "price_range": "$",
                     "ambience": ("casual",), "stars": "4"}),
)  # fmt: skip
RESTAURANTS_POPULARITY = {"r1": 9, "r2": 3}


def dataset_of(
    name: str, domain: Domain, items: tuple[Item, ...], popularity: dict[str, int]
) -> Dataset:
    """A Dataset as the loaders would give it, without interactions (the tools need none)."""
    catalog = Catalog(list(items))
    return Dataset(
        name=name,
        fingerprint=f"{name}|{catalog_digest(catalog)}",
        catalog=catalog,
        popularity=popularity,
        n_users=0,
        n_interactions=0,
        _prefixes=lambda length: {},
        domain=domain,
    )


def products() -> Dataset:
    return dataset_of("shop", PRODUCTS, PRODUCTS_ITEMS, PRODUCTS_POPULARITY)


def restaurants() -> Dataset:
    return dataset_of("eats", BUSINESSES, RESTAURANTS, RESTAURANTS_POPULARITY)

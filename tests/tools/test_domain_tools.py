"""The hard filter, item_info and item text on a product and a restaurant catalog, worked
out by hand (tests/tools/shops.py); films' text is checked word for word too."""

from __future__ import annotations

from pathlib import Path

from macrs_sim.data.domain import BUSINESSES, MOVIES, PRODUCTS
from macrs_sim.protocol import Item
from macrs_sim.tools.attribute_columns import catalog_schema
from macrs_sim.tools.database import tool_database
from macrs_sim.tools.hard import HardFilterTool
from macrs_sim.tools.info import ItemInfoTool
from macrs_sim.tools.item_text import DOCUMENT_VERSION, document_version, item_document
from macrs_sim.tools.items import ItemResolver
from macrs_sim.tools.toolkit import ToolResources, standard_toolbox
from tests.tools.shops import PRODUCTS_ITEMS, RESTAURANTS, products, restaurants


async def test_hard_filter_reads_item_categories(tmp_path: Path) -> None:
    tool = HardFilterTool(tool_database(products(), tmp_path))
    text = await tool.run_text({"genres": ["skin care"], "exclude_genres": ["Sunscreens"]})
    # Most popular first: p1 (40), p3 (10), p4 (5); p2 is the sunscreen.
    assert text == "p1 | Hydro Boost Water Gel\np3 | Daily Moisturizing Lotion\n" + (
        "p4 | Makeup Remover Wipes"
    )
    assert await tool.run_text({"genres": ["Shoes"]}) == (
        "Error: unknown category 'Shoes'; known: Beauty, Body Lotions, Face Moisturizers, "
        "Makeup Removers, Skin Care, Sunscreens"
    )
    assert tool.description.startswith(
        "Find items that meet hard conditions: all of some categories, none of others "
        "(`genres`, `exclude_genres`), a release-year range"
    )


async def test_hard_condition_on_brand_and_price(tmp_path: Path) -> None:
    tool = HardFilterTool(tool_database(products(), tmp_path), sql_condition=True)
    text = await tool.run_text({"condition": "brand = 'Neutrogena' AND price < 20"})
    assert text == "p1 | Hydro Boost Water Gel\np4 | Makeup Remover Wipes"
    condition = tool.schema["parameters"]["properties"]["condition"]
    assert condition["description"] == (
        "A SQL condition over the items table (what follows WHERE), e.g. "
        "brand = 'Neutrogena' AND price < 15."
    )


async def test_item_info_of_a_product_and_a_restaurant(tmp_path: Path) -> None:
    shop = products()
    tool = ItemInfoTool(
        ItemResolver(shop.catalog), dict(shop.popularity), schema=catalog_schema(shop)
    )
    assert await tool.run_text("Hydro Boost Water Gel; p4") == (
        "p1 | title: Hydro Boost Water Gel | year: - | categories: Beauty, Skin Care, "
        "Face Moisturizers | brand: Neutrogena | features: Oil-free, Hyaluronic acid | "
        "price: 18.99 | price_band: $$ | store: Neutrogena Store\n"
        "p4 | title: Makeup Remover Wipes | year: - | categories: Beauty, Skin Care, "
        "Makeup Removers | brand: Neutrogena | features: - | price: 8.49 | price_band: $ | "
        "store: -"
    )
    reply = await tool.call_raw({"items": ["p2"], "fields": ["price", "features", "popularity"]})
    assert reply.data is not None
    assert reply.data.items[0].fields == {"price": "24.50", "features": ["Water resistant"],
                                          "popularity": 25}  # fmt: skip
    bad = await tool.run_text({"items": ["p2"], "fields": ["director"]})
    assert bad.startswith("Error: invalid arguments: fields.0: Input should be 'title'")
    eats = restaurants()
    places = ItemInfoTool(ItemResolver(eats.catalog), {}, schema=catalog_schema(eats))
    assert await places.run_text("r1") == (
        "r1 | title: Pizzeria Bianco | year: - | categories: Pizza, Italian | ambience: "
        "casual, romantic | city: Phoenix | neighborhood: Downtown | price_range: $$ | "
        "stars: 4.5 | state: AZ"
    )


def test_item_document_of_a_product_and_a_restaurant() -> None:
    assert item_document(PRODUCTS_ITEMS[0], PRODUCTS) == (
        "Hydro Boost Water Gel. Categories: Beauty, Skin Care, Face Moisturizers. "
        "Brand: Neutrogena. Features: Oil-free, Hyaluronic acid. Price: 18.99. "
        "Price range: $$. Store: Neutrogena Store. A light gel moisturiser."
    )
    # One value: the singular label; the domain's words (cuisine, neighbourhood).
    assert item_document(PRODUCTS_ITEMS[1], PRODUCTS).split(". ")[3] == "Feature: Water resistant"
    assert item_document(RESTAURANTS[0], BUSINESSES) == (
        "Pizzeria Bianco. Cuisines: Pizza, Italian. Ambiences: casual, romantic. "
        "City: Phoenix. Neighbourhood: Downtown. Price range: $$. Stars: 4.5. State: AZ. "
        "Wood-fired pizza in a brick building."
    )
    assert document_version(PRODUCTS) != document_version(BUSINESSES) != DOCUMENT_VERSION


def test_film_document_is_unchanged() -> None:
    film = Item(item_id="3", title="Heat", year=1995, genres=("Crime", "Thriller"),
                director="Michael Mann", cast=("Al Pacino", "Robert De Niro"),
                keywords=("heist",), overview=" A detective hunts a thief. ",
                aka=("Heat: The Movie",))  # fmt: skip
    expected = (
        "Heat (1995). Also known as Heat: The Movie. Genres: Crime, Thriller. Directed by "
        "Michael Mann. Starring Al Pacino, Robert De Niro. Keywords: heist. A detective "
        "hunts a thief."
    )
    assert item_document(film) == item_document(film, MOVIES) == expected
    assert document_version(MOVIES) == DOCUMENT_VERSION == "1"  # cached vectors stay valid


def test_standard_toolbox_of_a_product_catalog(tmp_path: Path) -> None:
    res = ToolResources.for_dataset(products(), tmp_path, use_text_model=False)
    tools = standard_toolbox(res).tools
    assert "brand TEXT" in tools["sql_query"].description
    info = tools["item_info"].schema["parameters"]["properties"]["fields"]
    assert (
        "default title, year, categories, brand, features, price, price_band, store"
        in (info["description"])
    )
    if "search_items" in tools:  # the recsys extra
        assert tools["search_items"].description == (
            "Keyword search (BM25) over titles, categories, brands, price ranges, features "
            "and descriptions."
        )

"""The agenda user and Catalog.describe outside films: the domain's noun and its hints.

Product p1 "Hydro Boost Water Gel": Beauty/Skin Care, brand Neutrogena, price range 10-20,
features fragrance-free and oil-free, keyword hydrating. Its agenda, the category path's
most specific level first (PRODUCTS.category_path): genre:Skin Care, genre:Beauty,
brand:Neutrogena, price range:10-20, feature:fragrance-free, feature:oil-free,
keyword:hydrating. Restaurant r1 "Lucia's Trattoria": Restaurants/Italian
(the first only names the domain's items: never said), neighbourhood Fishtown, city
Philadelphia, price range 2, ambience romantic.
"""

from __future__ import annotations

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import BUSINESSES, PRODUCTS
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Item, ItemRef, Sample, SystemTurn
from macrs_sim.simulators.agenda import AgendaUserSimulator, prepare_agenda_sample
from macrs_sim.simulators.agenda_rules import ACCEPT
from macrs_sim.simulators.agenda_spec import AgendaUserOptions, build
from macrs_sim.simulators.registry import SimulatorContext


def _item(item_id: str, title: str, categories: tuple[str, ...], **attributes: object) -> Item:
    extra = {"keywords": ("hydrating",), "description": "A water gel."} if item_id == "p1" else {}
    return Item.model_validate(
        {"item_id": item_id, "title": title, "categories": categories, "attributes": attributes}
        | extra
    )


@pytest.fixture
def products() -> Catalog:
    return Catalog([
        _item("p1", "Hydro Boost Water Gel", ("Beauty", "Skin Care"), brand="Neutrogena",
              price_band="10-20", features=["fragrance-free", "oil-free"], price="19.99"),
        _item("p2", "Daily Lotion", ("Beauty", "Skin Care"), brand="Cetaphil", price_band="10-20"),
        _item("p3", "Ultra Cream", ("Beauty", "Skin Care"), brand="Neutrogena", price_band="30-40"),
        _item("p4", "Gentle Shampoo", ("Beauty", "Hair Care"), brand="Dove"),
    ])  # fmt: skip


@pytest.fixture
def restaurants() -> Catalog:
    return Catalog([
        _item("r1", "Lucia's Trattoria", ("Restaurants", "Italian"), neighborhood="Fishtown",
              city="Philadelphia", price_range="2", ambience=["romantic"]),
        _item("r2", "Mama Mia", ("Restaurants", "Italian"), neighborhood="Old City"),
        _item("r3", "Sushi Bar", ("Restaurants", "Japanese"), neighborhood="Fishtown"),
    ])  # fmt: skip


def _sample(target: str) -> Sample:
    return Sample(sample_id="s1", user_id="u1", history=(), target_id=target)


def ask(text: str) -> SystemTurn:
    return SystemTurn(act="ask", text=text)


def rec(item_id: str) -> SystemTurn:
    items = (ItemRef(title="Something", item_id=item_id),)
    return SystemTurn(act="recommend", text="Try this", items=items)


async def test_the_product_user_states_its_hints_in_the_domain_noun(products: Catalog) -> None:
    sample = prepare_agenda_sample(products, _sample("p1"), domain=PRODUCTS)
    assert sample.opening == "I'm looking for a Skin Care product whose brand is Neutrogena."
    sim = AgendaUserSimulator(sample, products, PRODUCTS)
    assert (await sim.open()).text == sample.opening
    assert sim.revealed == ("genre:Skin Care", "brand:Neutrogena")
    said = await sim.reply(ask("What price range do you have in mind?"))
    assert said.text == "Ideally its price range is 10-20."
    said = await sim.reply(ask("Which brand, and what kind of product?"))
    assert said.text == "Ideally its brand is Neutrogena. I'd like a Beauty product."
    # No people to ask about: a "star" question gets the next fact, not "who is in it".
    said = await sim.reply(ask("Do you have a favourite star?"))
    assert said.text == "Ideally its feature is fragrance-free."
    assert (await sim.reply(ask("Anything else?"))).text == "Ideally its feature is oil-free."


async def test_the_product_user_refuses_by_a_differing_hint(products: Catalog) -> None:
    sim = AgendaUserSimulator(prepare_agenda_sample(products, _sample("p1")), products, PRODUCTS)
    await sim.open()
    assert (await sim.reply(rec("p2"))).text == "Not that one. I'd like its brand to be Neutrogena."
    assert (await sim.reply(rec("p3"))).text == (
        "Not that one. I'd like its price range to be 10-20."
    )
    assert (await sim.reply(rec("p4"))).text == "Not quite. I want a Skin Care product."
    assert (await sim.reply(rec("zz"))).text == (
        "I don't know that one. I'm looking for a Skin Care product."
    )
    accepted = await sim.reply(rec("p1"))
    assert (accepted.text, accepted.accepted) == (ACCEPT, True)


async def test_the_restaurant_user_names_cuisine_and_neighbourhood(restaurants: Catalog) -> None:
    sample = prepare_agenda_sample(restaurants, _sample("r1"), domain=BUSINESSES)
    assert (
        sample.opening == "I'm looking for an Italian restaurant whose neighbourhood is Fishtown."
    )
    sim = AgendaUserSimulator(sample, restaurants, BUSINESSES)
    await sim.open()
    said = await sim.reply(ask("What cuisine are you after?"))
    assert said.text == "I'd like an Italian restaurant."
    said = await sim.reply(ask("Which city, and any particular ambience?"))
    assert said.text == "Ideally its city is Philadelphia. Ideally its ambience is romantic."
    assert (await sim.reply(rec("r2"))).text == (
        "Not that one. I'd like its neighbourhood to be Fishtown."
    )
    assert (await sim.reply(rec("r3"))).text == "Not quite. I want an Italian restaurant."


def test_the_spec_builds_the_user_in_its_prompts_domain(restaurants: Catalog) -> None:
    ctx = SimulatorContext(_sample("r1"), restaurants, None, PromptLibrary(domain=BUSINESSES),
                           "d1", "sys")  # fmt: skip
    user = build(AgendaUserOptions(), ctx)
    assert isinstance(user, AgendaUserSimulator)
    assert user.planned_opening().endswith("restaurant whose neighbourhood is Fishtown.")


def test_describe_names_other_domains_attributes(products: Catalog, restaurants: Catalog) -> None:
    assert products.describe("p1", PRODUCTS) == (
        "Hydro Boost Water Gel; Beauty, Skin Care; brand: Neutrogena; price range: 10-20; "
        "features: fragrance-free, oil-free; price: 19.99; keywords: hydrating; "
        "description: A water gel."
    )
    assert restaurants.describe("r1", BUSINESSES) == (
        "Lucia's Trattoria; Restaurants, Italian; neighbourhood: Fishtown; city: Philadelphia; "
        "price range: 2; ambience: romantic"
    )

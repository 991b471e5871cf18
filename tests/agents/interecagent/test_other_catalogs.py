"""InteRecAgent on a product catalog (tests/tools/shops.py): the tool text names the
catalog's own columns and a condition over them, the scripted planner's condition uses its
category column and finds items, and the demonstrations query only columns it has. Films'
text is pinned by tests/test_prompt_domains.py; here it is checked to be the same object."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from macrs_sim.agents.interecagent.build import InteRecAgentPrepared, build
from macrs_sim.agents.interecagent.demo_catalog import in_catalog
from macrs_sim.agents.interecagent.demos import DemoIndex, load_demonstrations
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.scripted import interecagent_scripted_rules
from macrs_sim.data.domain import BUSINESSES, GAMES, PRODUCTS
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState, UserTurn
from macrs_sim.tools import ToolResources
from macrs_sim.tools.attribute_columns import catalog_schema
from macrs_sim.tools.schema import FILM_SCHEMA, domain_schema, prompt_words
from tests.tools.shops import products

FILM_COLUMNS = re.compile(r"\b(genres|director|cast|overview|Heat)\b")


def tools_text(library: PromptLibrary) -> str:
    return library.get("interecagent/tools").render("tools")


def test_the_tool_text_names_the_catalogs_columns() -> None:
    words = prompt_words(catalog_schema(products()))
    text = tools_text(PromptLibrary(domain=PRODUCTS).for_catalog(words))
    columns = "year, categories, brand, features, price, price_band, store, description"
    assert f"information about items ({columns})" in text
    assert 'e.g. {"condition": "brand = \'Neutrogena\' AND price < 15"}' in text
    assert "price < (SELECT price FROM items WHERE title LIKE '%...%')" in text
    # The structured fields keep their names (the tool's own): nothing else is a film's.
    assert FILM_COLUMNS.findall(text.replace("genres, exclude_genres", "")) == []
    # Before the catalog is known, the columns every catalog has.
    plain = tools_text(PromptLibrary(domain=PRODUCTS))
    assert "(year, categories, description)" in plain and '"year > 2000"' in plain


def test_a_domains_default_columns_are_those_of_a_catalog_without_attributes() -> None:
    for domain in (PRODUCTS, BUSINESSES, GAMES):
        words = prompt_words(domain_schema(domain, (), "year > 2000"))
        assert words == {name: domain.words()[name] for name in words}, domain.name


def test_films_keep_their_text_and_library() -> None:
    films = PromptLibrary()
    assert prompt_words(FILM_SCHEMA) == {}
    assert films.for_catalog(prompt_words(FILM_SCHEMA)) is films
    assert "(year, genres, director, cast, overview)" in tools_text(films)
    assert "WHERE title LIKE '%Heat%'" in tools_text(films)


def test_a_library_made_with_its_catalog_is_the_one_the_system_uses() -> None:
    """As a campaign makes it: the hashes it records are of the text shown."""
    words = prompt_words(catalog_schema(products()))
    campaign = PromptLibrary(domain=PRODUCTS, catalog=words)
    assert campaign.for_catalog(words) is campaign
    other = PromptLibrary(domain=PRODUCTS)
    assert other.for_catalog(words) is other.for_catalog(words)  # one per catalog, kept
    assert tools_text(other.for_catalog(words)) == tools_text(campaign)


def _tools_of(turn_explain: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for a in turn_explain["attempts"] for t in a["tools"]]


async def test_the_scripted_plan_filters_products_by_category(tmp_path: Path) -> None:
    res = ToolResources.for_dataset(products(), tmp_path, use_text_model=False)
    client = ScriptedChatCompletionClient(interecagent_scripted_rules(domain=PRODUCTS))
    prepared = InteRecAgentPrepared(res, DemoIndex(load_demonstrations()))
    system = build(
        InteRecAgentOptions(ranker="popularity"), prepared, name="ira", dialogue_id="d1",
        client=client, prompts=PromptLibrary(domain=PRODUCTS),
    )  # fmt: skip
    state = DialogueState(dialogue_id="d1", opening=UserTurn(text="Any Sunscreens?"), max_turns=5)
    turn = await system.respond(state)
    hard = _tools_of(turn.explain)[0]
    assert hard["input"] == {"condition": "categories LIKE '%Sunscreens%'"}
    assert hard["ok"] and hard["error"] is None
    assert hard["candidates_after"] == 1
    assert [i.item_id for i in turn.items] == ["p2"]
    planner_prompt = message_text(client.calls[0].messages[0])
    assert "brand = 'Neutrogena'" in planner_prompt


def test_demonstrations_query_only_the_catalogs_columns() -> None:
    demos = load_demonstrations()
    assert in_catalog(demos, FILM_SCHEMA) == demos
    kept = in_catalog(demos, catalog_schema(products()))
    queries = {d.intent: s.input["sql"] for d in kept for s in d.plan if s.tool == "query_info"}
    assert "Who directed ITEM?" not in queries and "Who stars in ITEM?" not in queries
    about = queries["What is ITEM about?"]
    assert about == "SELECT title, description FROM items WHERE title = 'ITEM'"
    assert queries["Tell me more about the first one you suggested."].startswith(
        "SELECT title, year, categories, description FROM items"
    )
    assert all(not FILM_COLUMNS.search(q) for q in queries.values())
    # Those two, and the hard condition on the director of ITEM (no people in products).
    assert len(kept) == len(demos) - 3

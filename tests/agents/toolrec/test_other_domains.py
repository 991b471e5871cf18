"""ToolRec on a product catalog (tests/tools/shops.py): the stand-in retriever's attributes
are the domain's patterns (category, brand, price band, features), item lines show the
attributes its users name, and the plan and simulation demonstrations show no film title,
decade or era. Films' lines and demonstrations are pinned by test_prompts.py and
tests/test_prompt_domains.py."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from macrs_sim.agents.toolrec import prompts as pb
from macrs_sim.agents.toolrec.build import make_loop
from macrs_sim.agents.toolrec.options import ToolRecOptions
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.agents.toolrec.retrieval import RankerAttributeRetriever, catalog_attributes
from macrs_sim.data.domain import BUSINESSES, GAMES, PRODUCTS
from macrs_sim.llm.base import message_text
from macrs_sim.prompts import PromptLibrary
from macrs_sim.rankers.base import Scores, mask_seen
from tests.agents.toolrec.helpers import client
from tests.tools.shops import products

# Best first: p3 Daily Moisturizing Lotion (Cetaphil), p4 Makeup Remover Wipes, p2 Ultra
# Sheer Sunscreen, p1 Hydro Boost Water Gel (the last three Neutrogena).
SCORES = {"p1": 0.1, "p2": 0.2, "p3": 0.9, "p4": 0.5}


class ProductRanker:
    kind = "fixed"
    item_ids = tuple(SCORES)

    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        row = np.array([SCORES[i] for i in self.item_ids], dtype=np.float32)
        return mask_seen(np.tile(row, (len(histories), 1)), histories)


def prepared() -> ToolRecPrepared:
    catalog = products().catalog
    retriever = RankerAttributeRetriever(ProductRanker(), catalog, domain=PRODUCTS)
    return ToolRecPrepared(retriever, ProductRanker(), catalog)


def test_the_stand_in_retrieves_by_the_domains_attributes() -> None:
    catalog = products().catalog
    assert catalog_attributes(catalog, PRODUCTS) == ("category", "brand", "price_band", "features")
    retriever = prepared().retriever
    assert retriever.attributes == ("category", "brand", "price_band", "features")
    # After the Neutrogena wipes: the Neutrogena products first, each group in ranker order.
    assert retriever.retrieve(["p4"], "brand", 3) == ["p2", "p1", "p3"]
    # The wipes' price band ($) is the Cetaphil lotion's.
    assert retriever.retrieve(["p4"], "price_band", 3) == ["p3", "p2", "p1"]


def test_item_lines_show_the_attributes_people_name() -> None:
    catalog = products().catalog
    assert pb.render_item(catalog, "p1", PRODUCTS) == (
        "p1: Hydro Boost Water Gel | Beauty, Skin Care, Face Moisturizers | brand: Neutrogena"
        " | price range: $$ | features: Oil-free, Hyaluronic acid"
    )
    assert pb.render_items(catalog, ["p4"], PRODUCTS) == (
        "1. p4: Makeup Remover Wipes | Beauty, Skin Care, Makeup Removers | brand: Neutrogena"
        " | price range: $"
    )


def test_demonstrations_show_no_film_title_or_era() -> None:
    for domain in (PRODUCTS, BUSINESSES, GAMES):
        library = PromptLibrary(domain=domain)
        for name in ("toolrec/plan", "toolrec/simulation"):
            text = "\n".join(library.get(name).sections.values())
            for film_word in ("decade", " era", "Heat", "Under Siege", "Air Bud", "[genre, 10]"):
                if film_word == "[genre, 10]" and domain.category_label == "genre":
                    continue  # games call their categories genres too
                assert film_word not in text, (domain.name, name, film_word)
    plan = PromptLibrary(domain=PRODUCTS).get("toolrec/plan").sections["demonstrations"]
    assert "Plan: retrieve[category, 5]; retrieve[brand, 5]; rank[category, 3]; finish" in plan


async def test_the_loop_on_products_reads_their_attributes() -> None:
    scripted = client()
    loop = make_loop(ToolRecOptions(), prepared(), scripted, PromptLibrary(domain=PRODUCTS))
    result = await loop.run(["p4"], "something gentle")
    assert [r.action for r in result.rounds] == [
        "retrieve[category, 10]", "retrieve[brand, 5]", "rank[category, 10]", "finish",
    ]  # fmt: skip
    assert all(r.error is None for r in result.rounds)
    prompt = "\n".join(message_text(m) for m in scripted.calls[-1].messages)
    assert "- p4: Makeup Remover Wipes | Beauty, Skin Care, Makeup Removers | brand: " in prompt
    assert "dir." not in prompt and "decade" not in prompt

"""The validity counts and their report section for a products run, worked out by hand on
one dialogue (catalog: tests/analysis/test_domain_slots.products; target p1, Neutrogena's
gel): slots are the domain's attributes, answers are checked against the catalog's and the
target's values, "leak after" catches the product's shorter name, and the section and the
viewer speak of categories and brands, never genres or eras."""

from __future__ import annotations

import re

from macrs_sim.analysis.metrics.slots import DomainSlots
from macrs_sim.analysis.metrics.validity import validity_stats
from macrs_sim.analysis.report.behaviour import off_profile_title
from macrs_sim.analysis.report.validity import render_validity_markdown, validity_frame
from macrs_sim.data.domain import GAMES, PRODUCTS
from macrs_sim.protocol import DialogueResult, Exchange, ItemRef, Sample, SystemTurn, UserTurn
from macrs_sim.viewer.export import export_dialogue
from tests.analysis.test_domain_slots import products

SAMPLE = Sample(
    sample_id="s1", user_id="u1", history=("p3",), target_id="p1", target_profile=("hydrating",)
)


def _ex(turn: int, act: str, said: str, reply: str, items: tuple[ItemRef, ...] = ()) -> Exchange:
    return Exchange(
        turn=turn, system=SystemTurn(act=act, text=said, items=items), user=UserTurn(text=reply)
    )


def dialogue() -> DialogueResult:
    cream = ItemRef.model_validate(
        {"title": "CeraVe Moisturizing Cream", "item_id": "p2", "score": 1.0, "method": "exact"}
    )
    exchanges = (
        _ex(1, "ask", "Which brand do you like?", "I like CeraVe."),  # answered, off-profile
        _ex(2, "ask", "What is your budget?", "Something cheap."),  # answered
        # A rejection with a true brand (a usable reason) that names the target's short name.
        _ex(3, "recommend", "How about this cream?", "No, I want Neutrogena Hydro Boost Water"
            " Gel.", (cream,)),
        _ex(4, "ask", "Tell me more.", "Hmm."),  # open, not answered
    )  # fmt: skip
    return DialogueResult(
        dialogue_id="d1",
        system="macrs",
        sample_id="s1",
        target_id="p1",
        status="failure",
        max_turns=5,
        opening=UserTurn(text="I'm looking for a Skin Care product."),
        exchanges=exchanges,
    )


def test_a_products_run_counts_its_own_slots_and_short_names() -> None:
    stats = validity_stats([dialogue()], {"s1": SAMPLE}, products(), PRODUCTS)
    row, overall = stats
    assert (row.user_turns, row.leaks_after, row.ask_turns, row.answered) == (4, 1, 3, 2)
    assert (row.rejections, row.usable_reasons) == (1, 1)
    assert row.slot_counts == {
        "category": (0, 0),
        "brand": (1, 1),
        "price range": (1, 1),
        "feature": (0, 0),
        "open": (1, 0),
    }
    assert row.behaviour["user_off_profile"] == (1, 4)  # turn 1's "CeraVe"
    assert overall.slot_counts == row.slot_counts
    frame = validity_frame(stats)
    assert frame.loc[0, "slot_price_range_asked"] == 1
    assert frame.loc[0, "slot_price_range_answered"] == 1
    assert "slot_genre_asked" not in frame.columns


def test_the_products_section_speaks_of_categories_and_brands() -> None:
    stats = validity_stats([dialogue()], {"s1": SAMPLE}, products(), PRODUCTS)
    text = render_validity_markdown(stats, PRODUCTS)
    assert "| System | category | brand | price range | feature | open |" in text
    assert "| macrs | — | 100.0% (1/1) | 100.0% (1/1) | — | 0.0% (0/1) |" in text
    assert "slot the question is about (category, brand, price range, feature;" in text
    assert "a true category, brand, price range, feature or keyword of the target" in text
    said = "asked about its category, brand, price range or feature, the user names values"
    assert said in text
    film = re.findall(r".{0,30}\b(?:genres?|era|film|movie|people)\b.{0,30}", text, re.I)
    assert film == []
    games = render_validity_markdown(validity_stats([], {}, products(), GAMES), GAMES)
    assert "a true genre, tag, developer, decade or keyword of the target" in games


def test_the_viewer_marks_and_titles_off_profile_in_the_domains_words() -> None:
    catalog = products()
    doc = export_dialogue(
        dialogue(),
        run_index=0,
        label="macrs",
        bucket=None,
        calls=[],
        catalog=catalog,
        profile=SAMPLE.target_profile,
        slots=DomainSlots(PRODUCTS, catalog),
    )
    assert doc["checks"] == [{"turn": 1, "side": "user", "checks": ["off_profile"]}]
    title = "off-profile: a category, brand, price range or feature the target does not have"
    assert off_profile_title(PRODUCTS) == title

"""Issue 38 §4: every span that grounds to the target is guarded, and no everyday phrase is.

The adversarial cases (leak_cases.jsonl, shared with benchmarks/bench_grounding.py) hold
shorter names of a title both ways: its main part, subtitle, aliases and number spellings
must be caught; another instalment, a franchise name the grounder does not map, and
everyday phrases that share a subtitle's words must not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder
from macrs_sim.protocol import Item
from macrs_sim.simulators.leak_guard import LeakGuard
from macrs_sim.simulators.target_profile import clean_keywords, title_guard
from macrs_sim.simulators.title_forms import grounded_forms

CASES = [
    json.loads(line)
    for line in (Path(__file__).parent / "leak_cases.jsonl").read_text("utf-8").splitlines()
    if line.strip()
]


def _item(title: str, year: int) -> Item:
    return Item(item_id="t", title=title, year=year)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['category']}:{c['text']}" for c in CASES])
def test_the_title_guard_on_the_adversarial_cases(case: dict[str, object]) -> None:
    guard = title_guard(_item(str(case["target"]), int(str(case["year"]))))
    assert guard.leaks(str(case["text"])) is case["leak"]


def test_the_shorter_names_of_a_film_are_those_the_grounder_maps_to_it() -> None:
    assert grounded_forms(_item("Terminator 2: Judgment Day", 1991)) == [
        "Terminator 2",
        "Judgment Day",
        "T2: Judgment Day",
    ]
    assert grounded_forms(_item("Star Wars: Episode IV - A New Hope", 1977)) == [
        "Star Wars",  # the main part is an alias of Episode IV
        "A New Hope",
        "Star Wars: A New Hope",
        "Star Wars: Episode IV",  # by its number: kept without the grounder
    ]
    assert grounded_forms(_item("Kill Bill: Vol. 1", 2003)) == ["Kill Bill"]
    assert grounded_forms(_item("Lord of the Rings: The Fellowship of the Ring, The", 2001)) == [
        "The Fellowship of the Ring"
    ]
    # "Alien" and "Mad Max" name no single film (the grounder never maps them), nor does a
    # subtitle of one word ("Resurrection").
    assert grounded_forms(_item("Alien: Resurrection", 1997)) == []
    assert grounded_forms(_item("Mad Max: Fury Road", 2015)) == ["Fury Road"]
    assert grounded_forms(_item("Heat", 1995)) == []


def test_every_form_grounds_to_the_demo_film_in_the_whole_catalog() -> None:
    catalog = Catalog.demo()
    grounder = Grounder(catalog)
    for item_id, said in [
        ("m119", "Terminator 2"),
        ("m119", "Judgment Day"),
        ("m195", "Kill Bill"),
    ]:
        assert grounder.ground(said).item_id == item_id
        assert title_guard(catalog[item_id]).leaks(f"Something like {said}.")


def test_a_profile_keyword_naming_the_franchise_is_dropped() -> None:
    catalog = Catalog.demo()  # m195 is "Kill Bill: Volume 1"
    kept = clean_keywords(
        ["franchise: Kill Bill", "genre: action", "sequel: Kill Bill Vol. 1", "revenge"],
        catalog,
        "m195",
        keep_people=True,
    )
    assert kept == ("genre: action", "revenge")


def test_redaction_covers_the_whole_short_name() -> None:
    guard = title_guard(_item("Kill Bill: Vol. 1", 2003))
    assert guard.redact("I loved Kill Bill Vol. 1 and Kill Bill Vol. 2.") == (
        "I loved that movie and Kill Bill Vol. 2."
    )
    star = title_guard(_item("Star Wars: Episode IV - A New Hope", 1977))
    assert star.redact("Star Wars, or A New Hope.") == "that movie, or that movie."


def test_a_guard_of_a_title_alone_keeps_working_for_other_callers() -> None:
    """LeakGuard(title) (issue 37's leak-after count) still finds the full title."""
    assert LeakGuard("Terminator 2: Judgment Day").leaks("terminator 2 judgment day")
    assert not LeakGuard("Terminator 2: Judgment Day").leaks("Terminator 2")

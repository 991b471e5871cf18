"""What a report calls a run's items: the domain its store meta names (films when it names
none, as every run before domains did), and the validity definitions in its words."""

from __future__ import annotations

from macrs_sim.analysis.report.validity import definitions
from macrs_sim.analysis.runs.domain import DOMAIN_META, run_domain, shared_domain
from macrs_sim.data.domain import BUSINESSES, GAMES, MOVIES, PRODUCTS
from macrs_sim.data.registry import UNKNOWN_DOMAIN


def test_a_run_names_its_domain_and_old_runs_are_films() -> None:
    assert run_domain({}) is MOVIES
    assert run_domain({DOMAIN_META: "products"}) == PRODUCTS
    assert run_domain({DOMAIN_META: "businesses"}) == BUSINESSES
    assert run_domain({DOMAIN_META: "spaceships"}) == UNKNOWN_DOMAIN  # a plugin not here
    assert shared_domain([PRODUCTS, PRODUCTS]) == PRODUCTS
    assert shared_domain([PRODUCTS, MOVIES]) == UNKNOWN_DOMAIN


def test_the_definitions_speak_of_the_domains_items() -> None:
    films = definitions()
    said = "several films share the title and no year decides: the one with the most"
    assert f"ambiguous ({said} interactions)" in films
    assert definitions(MOVIES) == films
    products = definitions(PRODUCTS)
    said = "the name fits several products and nothing said tells them apart: none is taken"
    assert f"ambiguous ({said})" in products
    assert "several games share the title" in definitions(GAMES)
    for domain in (PRODUCTS, BUSINESSES, GAMES):
        low = definitions(domain).lower()
        assert "film" not in low and "movie" not in low, domain.name

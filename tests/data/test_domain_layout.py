"""No code asks a domain's name: films' layout (descriptions, attribute patterns, the SQL
catalog's schema, the scripted lines, ToolRec's item lines) is `Domain.layout`, data. A
film-like plugin domain (TV shows) takes it by saying so; a plugin domain that happens to
be named "movies" but says nothing takes the attributes' layout."""

from __future__ import annotations

from macrs_sim.agents.scripted_words import chat_line
from macrs_sim.agents.toolrec.prompts import render_item
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, AttributeHint, Domain
from macrs_sim.rankers.attribute_values import PATTERNS, domain_patterns
from macrs_sim.tools.schema import FILM_SCHEMA, film_schema, is_film

SHOWS = Domain(
    name="tv_shows",
    noun="show",
    plural="shows",
    category_label="genre",
    hints=(AttributeHint("categories", "genre"), AttributeHint("cast", "actor")),
    layout="films",
)
NOT_FILMS = Domain(
    name="movies",
    noun="clip",
    plural="clips",
    category_label="topic",
    hints=(AttributeHint("channel", "channel"),),
)


def catalog() -> Catalog:
    return Catalog.from_jsonl_text(
        '{"item_id": "t1", "title": "Dark Waters", "year": 2019, "genres": ["Drama"],'
        ' "director": "Ann Lee", "cast": ["Bo Chan"], "overview": "A town keeps a secret.",'
        ' "attributes": {"channel": "North"}}\n',
        "shows.jsonl",
    )


def test_a_film_like_plugin_domain_takes_films_layout_by_saying_so() -> None:
    item = catalog()
    assert is_film(SHOWS) and not is_film(NOT_FILMS)
    assert item.describe("t1", SHOWS) == (
        "Dark Waters (2019); Drama; directed by Ann Lee; starring Bo Chan;"
        " plot: A town keeps a secret."
    )
    assert tuple(domain_patterns(SHOWS)) == PATTERNS
    assert render_item(item, "t1", SHOWS) == "t1: Dark Waters (2019) | Drama | dir. Ann Lee"
    assert chat_line(SHOWS) == "I love shows with a memorable soundtrack."
    schema = film_schema(SHOWS)
    assert schema.film and schema.noun == "show" and schema.domain == "tv_shows"
    assert schema.columns == FILM_SCHEMA.columns
    assert film_schema(MOVIES) == FILM_SCHEMA


def test_a_plugin_named_movies_is_not_taken_for_films() -> None:
    item = catalog()
    assert item.describe("t1", NOT_FILMS) == (
        "Dark Waters (2019); Drama; channel: North; cast: Bo Chan; director: Ann Lee;"
        " description: A town keeps a secret."
    )
    assert tuple(domain_patterns(NOT_FILMS)) == ("topic", "channel")
    assert render_item(item, "t1", NOT_FILMS) == "t1: Dark Waters (2019) | Drama | channel: North"
    assert chat_line(NOT_FILMS) == "I love clips done well."

"""The words of the prompts' worked examples, by domain (data/domain_words.py has the rest).

ToolRec's demonstrations (toolrec/plan.txt, simulation.txt) show histories and a second
attribute to retrieve by: films keep the paper's film titles and "decade"; another domain
shows its own names and one of its attribute patterns (rankers/attribute_values.py names
them by the domain's hints), never a film title or an era it has no data for.

InteRecAgent's tool text (interecagent/tools.txt) names the SQL columns a query may read
and a condition over them. Films keep the prepared MovieLens columns; another domain's are
those of its catalog (tools/schema.py `prompt_words` fills these from the catalog's own
schema), and before a catalog is known, the columns every catalog has (`catalog_words`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from macrs_sim.data.domain_words import Phrases, plural_of

DEMO_PHRASE_NAMES = frozenset(
    {
        "second_attribute", "list_aspects", "complement_thought", "match_aspects",
        "example_history", "example_history_2",
        "info_columns", "filter_columns", "condition_example", "subquery_example",
    }
)  # fmt: skip


def listed(words: Sequence[str]) -> str:
    """'a, b and c', each word once."""
    kept = list(dict.fromkeys(words))
    return ", ".join(kept[:-1]) + f" and {kept[-1]}" if len(kept) > 1 else "".join(kept)


def catalog_words(attributes: Sequence[str], number: str, example: str) -> dict[str, str]:
    """The tool text's columns of a non-film catalog: its attribute columns (as a query
    writes them), the first numeric one (`number`, else "year") and a condition over them."""
    return {
        "info_columns": ", ".join(["year", "categories", *attributes, "description"]),
        "filter_columns": ", ".join(["categories", "year", *attributes, "keywords"]),
        "condition_example": example,
        "subquery_example": f"{number} < (SELECT {number} FROM items WHERE title LIKE '%...%')",
    }


def demo_defaults(
    plural: str, hints: Sequence[tuple[str, str]], words: Mapping[str, str]
) -> dict[str, str]:
    """The example words of a domain that gives none: `hints` are its (attribute, label)
    pairs but the category's, `words` its other words (its own phrases among them)."""
    name, label = hints[0] if hints else ("keywords", "keyword")
    second = words.get("second_attribute", name)
    category, categories = words["category_label"], words["category_labels"]
    return {
        "second_attribute": second,
        "list_aspects": listed([category, label, "style"]),
        "complement_thought": (
            f"Several retrieved {plural} have another {label} than the user's recent ones. I"
            f" complement the list with {plural} conditioned on {second}."
        ),
        "match_aspects": listed([categories, plural_of(label), words["rank_attributes"]]),
        "example_history": "A, B, C, D, E",
        "example_history_2": "F, G, H, I",
        **catalog_words([], "year", "year > 2000"),
    }


MOVIE_DEMO_PHRASES: Phrases = (
    ("second_attribute", "decade"),
    ("list_aspects", "genre, era and style"),
    (
        "complement_thought",
        "Several retrieved movies come from other decades than the user's recent ones. I"
        " complement the list with movies conditioned on the release year.",
    ),
    ("match_aspects", "genres, era and directors"),
    (
        "example_history",
        "Executive Decision (1996), Under Siege (1992), Miller's Crossing (1990), The Last of"
        " the Mohicans (1992), Star Trek VI: The Undiscovered Country (1991)",
    ),
    (
        "example_history_2",
        "Money Talks (1997), Air Bud (1997), A Life Less Ordinary (1997), Letter From Death"
        " Row (1998)",
    ),
    ("info_columns", "year, genres, director, cast, overview"),
    ("filter_columns", "genres, release year, director, cast, keywords"),
    ("condition_example", "genres LIKE '%Comedy%' AND year >= 1990"),
    ("subquery_example", "year > (SELECT year FROM items WHERE title LIKE '%Heat%')"),
)
# The second history of each is all of one value of `second_attribute` (one brand, one
# city, one tag), as the films' second is of one decade: why its plan retrieves by it first.
PRODUCT_DEMO_PHRASES: Phrases = (
    (
        "example_history",
        "Hydrating Facial Cleanser, Vitamin C Serum, Oil-Free Sunscreen SPF 50, Micellar"
        " Cleansing Water, Night Repair Cream",
    ),
    (
        "example_history_2",
        "Neutrogena Hydro Boost Water Gel, Neutrogena Ultra Sheer Sunscreen, Neutrogena"
        " Oil-Free Acne Wash, Neutrogena Makeup Remover Wipes",
    ),
)
BUSINESS_DEMO_PHRASES: Phrases = (
    ("second_attribute", "city"),
    (
        "complement_thought",
        "Several retrieved restaurants are in other cities than the user's recent ones. I"
        " complement the list with restaurants conditioned on the city.",
    ),
    (
        "example_history",
        "Lucia's Trattoria, Pho Saigon, The Burger Joint, Sakura Sushi, Casa Oaxaca",
    ),
    (
        "example_history_2",
        "Blue Door Bakery, Harbor Oyster Bar, Green Bowl Cafe, Night Market Noodles",
    ),
)
GAME_DEMO_PHRASES: Phrases = (
    (
        "example_history",
        "Half-Life 2 (2004), Civilization V (2010), Portal (2007), Stardew Valley (2016),"
        " Left 4 Dead 2 (2009)",
    ),
    (
        "example_history_2",
        "Slay the Spire (2019), Dead Cells (2018), Hades (2020), Enter the Gungeon (2016)",
    ),
)

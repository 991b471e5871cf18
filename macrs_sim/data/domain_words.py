"""The words a domain lends its prompts beyond the item's nouns (data/domain.py).

Prompt files say `$consume_verb`, `$title_example`, `$profile_example`... where the film
text said "watch", "Heat (1995)", "{genre: action, actor: ...}". Each domain may give any
of these (`Domain.phrases`); one it leaves out gets the default below, worded from its
nouns and hints, so a registered domain works without writing them all. The four built-in
domains give theirs here; films give exactly the words the prompt files said before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

Phrases = tuple[tuple[str, str], ...]


def plural_of(word: str) -> str:
    """'genre' -> 'genres', 'category' -> 'categories' (the labels hints and domains use)."""
    if word.endswith("y") and word[-2:-1] not in "aeiou":
        return word[:-1] + "ies"
    return word if word.endswith("s") else word + "s"


def capitalized(word: str) -> str:
    return word[:1].upper() + word[1:]


# A stated year picks one of several same-titled items (films, games), so prompts ask for
# titles with years there; names of products and places carry none.
_DATED_TITLES: Phrases = (
    ("with_years", " with their years"),
    ("years_clause", ", with their years"),
    ("each_year", ", each with its release year"),
    ("title_and_year", "title and year"),
    ("title_pattern", "title (year)"),
)


def default_phrases(
    plural: str, category_label: str, labels: Sequence[str], given: Mapping[str, str]
) -> dict[str, str]:
    """Every phrase name with the wording a domain gets when it gives none: `labels` are
    its hints' labels but the category's, `given` its own phrases (plurals follow them)."""
    other = labels[-1] if labels else "feature"
    rank = given.get("rank_attribute", labels[0] if labels else category_label)
    example = given.get("category_example", "...")
    return {
        "consume_verb": "try",  # "items they would like to try next"
        "consumed": "tried",
        "consuming": "trying",
        "consume_noun": "interaction",  # "the user's interaction history"
        "category_example": "...",
        "category_examples": f"{example} {plural}",
        "other_attribute": plural_of(other),
        "rank_attribute": rank,
        "rank_attributes": plural_of(rank),
        "with_years": "",
        "years_clause": "",
        "each_year": "",
        "title_and_year": "name",
        "title_pattern": "name",
        "title_example": "...",
        "profile_example": "{" + ", ".join(f"{x}: ..." for x in (category_label, *labels)) + "}",
        "profile_aspects": ", ".join(f"its {x}" for x in (category_label, *labels))
        + " and its distinctive features",
        "keyword_aspects": f"{category_label}, style, features",
        "people_names": "people",
        "explanation_example": (
            "User x01, who had tried A and B, tried C.\n"
            "Explanation: C shares what you liked in A and B."
        ),
    }


PHRASE_NAMES = frozenset(
    {
        "consume_verb", "consumed", "consuming", "consume_noun", "category_example",
        "category_examples", "other_attribute", "rank_attribute", "rank_attributes",
        "with_years", "years_clause", "each_year", "title_and_year", "title_pattern",
        "title_example", "profile_example", "profile_aspects", "keyword_aspects",
        "people_names", "explanation_example",
    }
)  # fmt: skip

MOVIE_PHRASES: Phrases = (
    ("consume_verb", "watch"),
    ("consumed", "watched"),
    ("consuming", "watching"),
    ("consume_noun", "watch"),
    ("category_example", "comedy"),
    ("category_examples", "crime dramas"),
    ("other_attribute", "actors"),
    ("rank_attribute", "director"),
    ("rank_attributes", "directors"),
    *_DATED_TITLES,
    ("title_example", "Heat (1995)"),
    (
        "profile_example",
        "{genre: action, actor: Arnold Schwarzenegger, director: Chuck Russell,"
        " feature: witness protection}",
    ),
    (
        "profile_aspects",
        "its genre, its director, its leading actors and its distinctive features"
        " (era, mood, themes, setting)",
    ),
    ("keyword_aspects", "genre, era, mood, themes, setting"),
    ("people_names", "characters, director or actors"),
    (
        "explanation_example",
        "User x01, who had watched Alien (1979) and The Thing (1982), watched Event Horizon"
        " (1997).\nExplanation: Event Horizon brings back the isolated crew and the creeping"
        " dread you liked in Alien and The Thing, this time aboard a rescue ship sent to a"
        " vessel that came back from somewhere it should never have gone.",
    ),
)
PRODUCT_PHRASES: Phrases = (
    ("consume_verb", "buy"),
    ("consumed", "bought"),
    ("consuming", "buying"),
    ("consume_noun", "purchase"),
    ("category_example", "skin care"),
    ("other_attribute", "features"),
    ("rank_attribute", "brand"),
    ("title_example", "CeraVe Moisturizing Cream, 16 oz"),
    (
        "profile_example",
        "{category: moisturizer, brand: CeraVe, price range: under 20 dollars,"
        " feature: fragrance-free}",
    ),
    (
        "profile_aspects",
        "its category, its brand, its price range and its distinctive features"
        " (use, material, size, style)",
    ),
    ("keyword_aspects", "category, use, material, style, features"),
    ("people_names", "brand or store"),
    (
        "explanation_example",
        "User x01, who had bought a charcoal face wash and an oil-free sunscreen, bought a"
        " clay mask.\nExplanation: The clay mask keeps to the oil-control routine of your face"
        " wash and sunscreen, and it is gentle enough to use twice a week.",
    ),
)
BUSINESS_PHRASES: Phrases = (
    ("consume_verb", "visit"),
    ("consumed", "visited"),
    ("consuming", "visiting"),
    ("consume_noun", "visit"),
    ("category_example", "Italian"),
    ("other_attribute", "ambience"),
    ("rank_attribute", "neighbourhood"),
    ("title_example", "Lucia's Trattoria"),
    (
        "profile_example",
        "{cuisine: Italian, neighbourhood: Downtown, price range: moderate, ambience: romantic}",
    ),
    (
        "profile_aspects",
        "its cuisine, its neighbourhood, its price range and its distinctive features"
        " (ambience, dishes, service, setting)",
    ),
    ("keyword_aspects", "cuisine, ambience, dishes, price range, setting"),
    ("people_names", "owners, chefs or staff"),
    (
        "explanation_example",
        "User x01, who had visited a ramen bar and a dumpling house, visited a Sichuan"
        " kitchen.\nExplanation: The Sichuan kitchen serves the hearty noodles and small"
        " plates you liked at the ramen bar and the dumpling house, with more heat.",
    ),
)
GAME_PHRASES: Phrases = (
    ("consume_verb", "play"),
    ("consumed", "played"),
    ("consuming", "playing"),
    ("consume_noun", "play"),
    ("category_example", "strategy"),
    ("other_attribute", "tags"),
    ("rank_attribute", "developer"),
    *_DATED_TITLES,
    ("title_example", "Portal 2 (2011)"),
    (
        "profile_example",
        "{genre: puzzle, developer: Valve, tag: co-op, feature: physics-based puzzles}",
    ),
    (
        "profile_aspects",
        "its genre, its developer, its tags and its distinctive features"
        " (era, mood, mechanics, setting)",
    ),
    ("keyword_aspects", "genre, era, mood, mechanics, setting"),
    ("people_names", "characters, developer or publisher"),
    (
        "explanation_example",
        "User x01, who had played Half-Life 2 (2004) and Portal (2007), played Portal 2"
        " (2011).\nExplanation: Portal 2 brings back the physics puzzles and the dry humour"
        " you liked in Portal, in the world of Half-Life, with a co-op campaign besides.",
    ),
)

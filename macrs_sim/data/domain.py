"""A domain's language: what its items are called and which of their attributes a person
names when looking for one.

Every part that speaks about items (prompts, target profiles, the simulated user, the
grounder, the viewer) takes these words from the dataset's domain instead of saying
"movie". Films keep the MACRS paper's own words: "movie" and, where the paper says it,
"film" (`synonym`); other domains use their noun for both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from macrs_sim.data.demo_words import (
    BUSINESS_DEMO_PHRASES,
    DEMO_PHRASE_NAMES,
    GAME_DEMO_PHRASES,
    MOVIE_DEMO_PHRASES,
    PRODUCT_DEMO_PHRASES,
    demo_defaults,
)
from macrs_sim.data.domain_words import (
    BUSINESS_PHRASES,
    GAME_PHRASES,
    MOVIE_PHRASES,
    PHRASE_NAMES,
    PRODUCT_PHRASES,
    Phrases,
    capitalized,
    default_phrases,
    plural_of,
)

_NAME = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class AttributeHint:
    """An attribute a simulated user may hint at, and the words for it.

    `name` is a key of `Item.attributes`, or "categories" for the item's category path;
    `label` is how a person words it ("brand", "price range", "cuisine"). The report's
    question slots (analysis/metrics/slots.py) take two lists besides: `cues`, more words
    a question asking about it uses ("budget", "area"), and `answers`, words a reply may
    give for it that name no value of the catalog ("cheap", "upscale").
    """

    name: str
    label: str
    cues: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()


@dataclass(frozen=True)
class GroundingPolicy:
    """How names of this domain's items are written, and so how a mention is matched.

    "titles" (films, games): a title, maybe a year and a sequel number; a stated year picks
    one of several same-titled items, and with none the most popular is taken, flagged
    ambiguous (data/grounding/grounder.py). "names" (products, businesses): long names that
    carry sizes, amounts, colours and editions, and chains with one name in many places; a
    mention matches only when it names one item and no other, else it is ambiguous and
    matches nothing (data/grounding/names.py). `qualifiers` are the attributes that may be
    said with a name to tell items apart (a brand, a city), never alone enough to name one.
    """

    matcher: Literal["titles", "names"] = "titles"
    qualifiers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Domain:
    name: str  # "movies", "products", "businesses", "games"
    noun: str  # "movie"
    plural: str  # "movies"
    category_label: str  # what the category path is called: "genre", "category"
    hints: tuple[AttributeHint, ...] = ()
    grounding: GroundingPolicy = GroundingPolicy()
    # The categories run from the broadest level to the most specific (Amazon's "All
    # Beauty", "Skin Care"): a person names the last. False: a set in no order (genres).
    category_path: bool = False
    # The paper's other word for the item ("film"); the noun itself elsewhere.
    synonym: str = ""
    synonym_plural: str = ""
    # The prompts' other words ("watch", "Heat (1995)") by placeholder name; any left out
    # are worded from the nouns and hints (data/domain_words.py).
    phrases: Phrases = ()
    # How the package lays out and words this domain's items, wherever films differ:
    # "films", the MACRS paper's (a description says "directed by", "starring", "plot";
    # genre, decade, director and cast are the attribute patterns; the SQL catalog has
    # films' columns and item_genres; the report's question slots are genre, era, theme
    # and people), or "attributes", from the hints and the item's named attributes. No
    # code asks a domain's name: a film-like plugin domain (TV shows) takes films' layout
    # by saying so, and one that is named "movies" but says nothing takes the attributes'.
    layout: Literal["films", "attributes"] = "attributes"

    def __post_init__(self) -> None:
        if not _NAME.fullmatch(self.name):
            raise ValueError(f"domain name {self.name!r}: use lowercase letters, digits and _")
        for word in (self.noun, self.plural, self.category_label):
            if not word.strip() or "\n" in word:
                raise ValueError(f"domain {self.name!r}: {word!r} is not a word")
        if not self.synonym:
            object.__setattr__(self, "synonym", self.noun)
        if not self.synonym_plural:
            object.__setattr__(self, "synonym_plural", self.plural)
        known = PHRASE_NAMES | DEMO_PHRASE_NAMES
        if unknown := sorted({name for name, _ in self.phrases} - known):
            raise ValueError(f"domain {self.name!r}: no prompt word ${unknown[0]}")

    def words(self) -> dict[str, str]:
        """The words prompts take from the domain, by placeholder name."""
        categories = plural_of(self.category_label)
        nouns = {
            "item_noun": self.noun,
            "item_nouns": self.plural,
            "Item_noun": capitalized(self.noun),
            "Item_nouns": capitalized(self.plural),
            "item_synonym": self.synonym,
            "item_synonyms": self.synonym_plural,
            "category_label": self.category_label,
            "category_labels": categories,
            "Category_labels": capitalized(categories),
        }
        given = dict(self.phrases)
        hinted = [h.label for h in self.hints if h.name != "categories"]
        defaults = default_phrases(self.plural, self.category_label, hinted, given)
        words = {**nouns, **defaults, **given}
        pairs = [(h.name, h.label) for h in self.hints if h.name != "categories"]
        return {**words, **demo_defaults(self.plural, pairs, words), **given}


# The question words of the built-in hints beyond their labels (AttributeHint.cues).
_KIND_CUES = ("type of", "kind of", "sort of")
_PRICE_CUES = ("price", "budget", "spend", "cost", "afford", "cheap", "expensive")
_PRICE_WORDS = (
    "cheap", "inexpensive", "affordable", "budget", "expensive", "pricey", "premium",
    "high-end", "upscale", "mid-range", "splurge", "dollars", "bucks",
)  # fmt: skip

MOVIES = Domain(
    name="movies",
    noun="movie",
    plural="movies",
    category_label="genre",
    hints=(
        AttributeHint("categories", "genre"),
        AttributeHint("director", "director"),
        AttributeHint("cast", "actor"),
    ),
    synonym="film",
    synonym_plural="films",
    phrases=(*MOVIE_PHRASES, *MOVIE_DEMO_PHRASES),
    layout="films",
)
PRODUCTS = Domain(
    name="products",
    noun="product",
    plural="products",
    category_label="category",
    hints=(
        AttributeHint("categories", "category", cues=_KIND_CUES),
        AttributeHint("brand", "brand", cues=("make", "maker", "label")),
        AttributeHint("price_band", "price range", cues=_PRICE_CUES, answers=_PRICE_WORDS),
        AttributeHint("features", "feature", cues=("ingredient", "ingredients", "texture")),
    ),
    grounding=GroundingPolicy(matcher="names", qualifiers=("brand", "store")),
    category_path=True,
    phrases=(*PRODUCT_PHRASES, *PRODUCT_DEMO_PHRASES),
)
BUSINESSES = Domain(
    name="businesses",
    noun="restaurant",
    plural="restaurants",
    category_label="cuisine",
    hints=(
        AttributeHint("categories", "cuisine", cues=(*_KIND_CUES, "food")),
        AttributeHint("neighborhood", "neighbourhood", cues=("area", "part of town", "district")),
        AttributeHint("city", "city", cues=("where", "town", "located")),
        AttributeHint(
            "price_range", "price range", cues=_PRICE_CUES, answers=(*_PRICE_WORDS, "moderate")
        ),
        AttributeHint("ambience", "ambience", cues=("atmosphere", "vibe", "setting")),
    ),
    grounding=GroundingPolicy(matcher="names", qualifiers=("city", "neighborhood", "state")),
    phrases=(*BUSINESS_PHRASES, *BUSINESS_DEMO_PHRASES),
)
GAMES = Domain(
    name="games",
    noun="game",
    plural="games",
    category_label="genre",
    hints=(
        AttributeHint("categories", "genre", cues=(*_KIND_CUES, "style")),
        AttributeHint("tags", "tag", cues=("features", "elements", "mechanics", "gameplay")),
        AttributeHint("developer", "developer", cues=("studio", "made by", "developers")),
    ),
    phrases=(*GAME_PHRASES, *GAME_DEMO_PHRASES),
)
BUILTIN_DOMAINS = (MOVIES, PRODUCTS, BUSINESSES, GAMES)

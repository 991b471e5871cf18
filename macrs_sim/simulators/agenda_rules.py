"""The agenda user's vocabulary: which facts it may state, and the exact words it states them in.

Pure functions over ItemAttributes, so every reply can be worked out by hand in a
test. Texts live in module constants: tests assert these exact strings. `{item}` is the
wanted item with its category in the domain's noun ("a Crime movie", "an Italian
restaurant"); films keep the words they always had.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from macrs_sim.data.attributes import ItemAttributes, decade_label, decade_of
from macrs_sim.protocol import Item
from macrs_sim.simulators.leak_guard import LeakGuard

ACCEPT = "Yes, that's exactly what I was looking for!"
OPENING = "I'm looking for {item}."
OPENING_WITH = "I'm looking for {item}, something with {keyword}."
OPENING_FROM = "I'm looking for {item}, something from the {decade}."
STATE_GENRE = "I'd like {item}."
STATE_DECADE = "Something from the {decade}."
STATE_KEYWORD = "Something with {keyword}."
NO_PEOPLE = "I don't mind who is in it."
NOTHING_MORE = "I don't have anything more specific in mind."
REJECT_GENRE = "Not quite. I want {item}."
REJECT_DECADE = "That one is from the {rec_decade}; I'd prefer something from the {decade}."
REJECT_KEYWORD = "Not that one. I'm after something with {keyword}."
REJECT_OTHER = "Not that one. {statement}"
UNKNOWN = "I don't know that one. I'm looking for {item}."
# People, stated only when the target profile names them (simulator.profile_people).
OPENING_STARRING = "I'm looking for {item} starring {name}."
OPENING_DIRECTED = "I'm looking for {item} directed by {name}."
STATE_ACTOR = "Something starring {name}."
STATE_DIRECTOR = "Something directed by {name}."
REJECT_ACTOR = "Not that one. I'm after something starring {name}."
# As the paper's case study (Figure 7): the refusal says the director is wrong, not who.
REJECT_DIRECTOR = "Not that one. The director of it did not meet my expectations."
# Other domains' hinted attributes (Domain.hints: a brand, a city), by their labels.
OPENING_ATTRIBUTE = "I'm looking for {item} whose {label} is {value}."
STATE_ATTRIBUTE = "Ideally its {label} is {value}."
REJECT_ATTRIBUTE = "Not that one. I'd like its {label} to be {value}."

FactKind = Literal["genre", "decade", "keyword", "actor", "director", "attribute"]


@dataclass(frozen=True)
class Fact:
    """One statable attribute of the target; an "attribute" fact also names the item
    attribute it comes from and how a person words it ("price_band", "price range")."""

    kind: FactKind
    value: str
    attribute: str = ""
    label: str = ""

    @property
    def key(self) -> str:
        """Same spelling as ItemAttributes.mentioned_in ('genre:Crime', 'decade:1970s');
        an attribute fact by its label ('brand:CeraVe')."""
        return f"{self.label if self.kind == 'attribute' else self.kind}:{self.value}"


def an_item(category: str | None, noun: str = "movie") -> str:
    """'a Crime movie', 'an Italian restaurant', or 'a movie' for a target with no category."""
    if category is None:
        return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"
    article = "an" if category[:1].lower() in "aeiou" else "a"
    return f"{article} {category} {noun}"


def agenda_attributes(
    item: Item,
    profile: tuple[str, ...],
    guards: Sequence[LeakGuard],
    nouns: Sequence[str] = (),
    *,
    specific_first: bool = False,
) -> ItemAttributes:
    """The target's attributes minus keywords that would leak it or that just repeat a genre,
    and categories that only name the domain's items (`nouns`: Yelp's "Restaurants").
    `specific_first`: the categories are a path, broadest first (Domain.category_path);
    the most specific level is named first ("a Skin Care product", not "an All Beauty").

    A profile made of the genres (prepare_agenda_sample's fallback) must not be
    stated twice, once as a genre and again as 'something with Crime'.
    """
    attrs = ItemAttributes.of(item, profile)
    plain = {n.lower() for n in nouns}
    kept = tuple(g for g in attrs.genres if g.lower() not in plain)
    kept = kept[::-1] if specific_first else kept
    genres = {g.lower() for g in attrs.genres}
    keywords = tuple(
        k
        for k in attrs.keywords
        if k.strip() and k.lower() not in genres and not any(g.leaks(k) for g in guards)
    )
    return ItemAttributes(kept, attrs.year, keywords)


def agenda_facts(
    attrs: ItemAttributes, people: Sequence[Fact] = (), hinted: Sequence[Fact] = ()
) -> tuple[Fact, ...]:
    """The order the user reveals things in: genres, the decade, people (actors, then
    directors), hinted attributes (agenda_hints), then keywords."""
    facts = [Fact("genre", g) for g in attrs.genres]
    if attrs.year is not None:
        facts.append(Fact("decade", decade_label(attrs.year)))
    ordered = sorted(people, key=lambda f: f.kind != "actor")
    return (*facts, *ordered, *hinted, *(Fact("keyword", k) for k in attrs.keywords))


def agenda_opening(
    attrs: ItemAttributes,
    people: Sequence[Fact] = (),
    *,
    noun: str = "movie",
    hinted: Sequence[Fact] = (),
) -> str:
    """First genre plus the first actor (else director), else the first hinted attribute,
    else the first keyword, else the decade."""
    item = an_item(attrs.genres[0] if attrs.genres else None, noun)
    person = next((f for f in people if f.kind == "actor"), people[0] if people else None)
    if person is not None:
        form = OPENING_STARRING if person.kind == "actor" else OPENING_DIRECTED
        return form.format(item=item, name=person.value)
    if hinted:
        return OPENING_ATTRIBUTE.format(item=item, label=hinted[0].label, value=hinted[0].value)
    if attrs.keywords:
        return OPENING_WITH.format(item=item, keyword=attrs.keywords[0])
    if attrs.year is not None:
        return OPENING_FROM.format(item=item, decade=decade_label(attrs.year))
    return OPENING.format(item=item)


def statement(fact: Fact, noun: str = "movie") -> str:
    if fact.kind == "genre":
        return STATE_GENRE.format(item=an_item(fact.value, noun))
    if fact.kind == "attribute":
        return STATE_ATTRIBUTE.format(label=fact.label, value=fact.value)
    if fact.kind == "decade":
        return STATE_DECADE.format(decade=fact.value)
    if fact.kind == "actor":
        return STATE_ACTOR.format(name=fact.value)
    if fact.kind == "director":
        return STATE_DIRECTOR.format(name=fact.value)
    return STATE_KEYWORD.format(keyword=fact.value)


def difference(
    target: ItemAttributes, rec: ItemAttributes, noun: str = "movie"
) -> tuple[Fact, str] | None:
    """The first way a recommended item differs from the target, worded as a refusal."""
    for genre in target.genres:
        if genre not in rec.genres:
            return Fact("genre", genre), REJECT_GENRE.format(item=an_item(genre, noun))
    wanted, got = target.year, rec.year
    if wanted is not None and got is not None and decade_of(wanted) != decade_of(got):
        decade = decade_label(wanted)
        text = REJECT_DECADE.format(rec_decade=decade_label(got), decade=decade)
        return Fact("decade", decade), text
    rec_keywords = {k.lower() for k in rec.keywords}
    for keyword in target.keywords:
        if keyword.lower() not in rec_keywords:
            return Fact("keyword", keyword), REJECT_KEYWORD.format(keyword=keyword)
    return None

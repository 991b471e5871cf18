"""The agenda user's vocabulary: which facts it may state, and the exact words it states them in.

Pure functions over ItemAttributes, so every reply can be worked out by hand in a
test. Texts live in module constants: tests assert these exact strings.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from macrs_sim.data.attributes import ItemAttributes, decade_label, decade_of
from macrs_sim.protocol import Item
from macrs_sim.simulators.leak_guard import LeakGuard

ACCEPT = "Yes, that's exactly what I was looking for!"
OPENING = "I'm looking for {movie}."
OPENING_WITH = "I'm looking for {movie}, something with {keyword}."
OPENING_FROM = "I'm looking for {movie}, something from the {decade}."
STATE_GENRE = "I'd like {movie}."
STATE_DECADE = "Something from the {decade}."
STATE_KEYWORD = "Something with {keyword}."
NO_PEOPLE = "I don't mind who is in it."
NOTHING_MORE = "I don't have anything more specific in mind."
REJECT_GENRE = "Not quite. I want {movie}."
REJECT_DECADE = "That one is from the {rec_decade}; I'd prefer something from the {decade}."
REJECT_KEYWORD = "Not that one. I'm after something with {keyword}."
REJECT_OTHER = "Not that one. {statement}"
UNKNOWN = "I don't know that one. I'm looking for {movie}."
# People, stated only when the target profile names them (simulator.profile_people).
OPENING_STARRING = "I'm looking for {movie} starring {name}."
OPENING_DIRECTED = "I'm looking for {movie} directed by {name}."
STATE_ACTOR = "Something starring {name}."
STATE_DIRECTOR = "Something directed by {name}."
REJECT_ACTOR = "Not that one. I'm after something starring {name}."
# As the paper's case study (Figure 7): the refusal says the director is wrong, not who.
REJECT_DIRECTOR = "Not that one. The director of it did not meet my expectations."

FactKind = Literal["genre", "decade", "keyword", "actor", "director"]


@dataclass(frozen=True)
class Fact:
    """One statable attribute of the target."""

    kind: FactKind
    value: str

    @property
    def key(self) -> str:
        """Same spelling as ItemAttributes.mentioned_in ('genre:Crime', 'decade:1970s')."""
        return f"{self.kind}:{self.value}"


def a_movie(genre: str | None) -> str:
    """'a Crime movie', 'an Action movie', or 'a movie' for a target with no genre."""
    if genre is None:
        return "a movie"
    article = "an" if genre[:1].lower() in "aeiou" else "a"
    return f"{article} {genre} movie"


def agenda_attributes(
    item: Item, profile: tuple[str, ...], guards: Sequence[LeakGuard]
) -> ItemAttributes:
    """The target's attributes minus keywords that would leak it or that just repeat a genre.

    A profile made of the genres (prepare_agenda_sample's fallback) must not be
    stated twice, once as a genre and again as 'something with Crime'.
    """
    attrs = ItemAttributes.of(item, profile)
    genres = {g.lower() for g in attrs.genres}
    keywords = tuple(
        k
        for k in attrs.keywords
        if k.strip() and k.lower() not in genres and not any(g.leaks(k) for g in guards)
    )
    return ItemAttributes(attrs.genres, attrs.year, keywords)


def agenda_facts(attrs: ItemAttributes, people: Sequence[Fact] = ()) -> tuple[Fact, ...]:
    """The order the user reveals things in: genres, the decade, people (actors, then
    directors), then keywords."""
    facts = [Fact("genre", g) for g in attrs.genres]
    if attrs.year is not None:
        facts.append(Fact("decade", decade_label(attrs.year)))
    ordered = sorted(people, key=lambda f: f.kind != "actor")
    return (*facts, *ordered, *(Fact("keyword", k) for k in attrs.keywords))


def agenda_opening(attrs: ItemAttributes, people: Sequence[Fact] = ()) -> str:
    """First genre plus the first actor (else director), else the first keyword, else the
    decade."""
    movie = a_movie(attrs.genres[0] if attrs.genres else None)
    person = next((f for f in people if f.kind == "actor"), people[0] if people else None)
    if person is not None:
        form = OPENING_STARRING if person.kind == "actor" else OPENING_DIRECTED
        return form.format(movie=movie, name=person.value)
    if attrs.keywords:
        return OPENING_WITH.format(movie=movie, keyword=attrs.keywords[0])
    if attrs.year is not None:
        return OPENING_FROM.format(movie=movie, decade=decade_label(attrs.year))
    return OPENING.format(movie=movie)


def statement(fact: Fact) -> str:
    if fact.kind == "genre":
        return STATE_GENRE.format(movie=a_movie(fact.value))
    if fact.kind == "decade":
        return STATE_DECADE.format(decade=fact.value)
    if fact.kind == "actor":
        return STATE_ACTOR.format(name=fact.value)
    if fact.kind == "director":
        return STATE_DIRECTOR.format(name=fact.value)
    return STATE_KEYWORD.format(keyword=fact.value)


def difference(target: ItemAttributes, rec: ItemAttributes) -> tuple[Fact, str] | None:
    """The first way a recommended item differs from the target, worded as a refusal."""
    for genre in target.genres:
        if genre not in rec.genres:
            return Fact("genre", genre), REJECT_GENRE.format(movie=a_movie(genre))
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

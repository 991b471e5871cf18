"""The report's question slots in the words of the run's domain: what a system's question
asks about, whether the user's reply gives a value for it, whether the reply describes some
other item (off-profile), and which true facts of the target a reply names (a usable reason).

Films (`Domain.layout == "films"`) keep the MACRS paper's slots and rules exactly:
genre, era, theme, people, open (data/attributes.py, behaviour_text.is_off_profile). Every
other domain has one slot per hint, named by its label ("category", "brand", "price
range", "feature"; the category first, from the category label when no hint names it), then
"open". Lexical and deterministic, as the film rules are:

- asked: the question names the label, its plural, its first word, the attribute's own name
  or one of the hint's cues (`AttributeHint.cues`: "budget", "area");
- answered: the reply names a value some catalog item has for it (the catalog's brands, its
  price bands), or one of the hint's answer words ("cheap"), or says it has no preference;
  "open": a true fact of the target, or any value of any slot;
- off-profile: asked about a slot, the reply names catalog values of it and none of the
  target's;
- a usable reason: one of the target's values of a slot, its decade, or one of its keywords.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from macrs_sim.analysis.metrics import behaviour_text as bt
from macrs_sim.analysis.metrics.slot_values import ValueIndex, names_any
from macrs_sim.data.attributes import (
    NO_PREFERENCE,
    ItemAttributes,
    answers_slot,
    decade_label,
    genre_words,
    mentions_decade,
    mentions_keyword,
    question_slots,
)
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import AttributeHint, Domain
from macrs_sim.data.domain_words import plural_of
from macrs_sim.protocol import Item

FILM_SLOTS = ("genre", "era", "theme", "people", "open")  # question_slots' names
OPEN = "open"  # no slot recognised: always last


class TargetChecks(Protocol):
    """The slot tests of one dialogue, against its target."""

    def asked(self, question: str) -> set[str]: ...
    def answers(self, reply: str, slot: str) -> bool: ...
    def off_profile(self, question: str, reply: str) -> bool: ...
    def reasons(self, reply: str) -> list[str]: ...


@dataclass(frozen=True)
class FilmChecks:
    """The paper's film slots (data/attributes.py), unchanged."""

    attrs: ItemAttributes

    def asked(self, question: str) -> set[str]:
        return question_slots(question)

    def answers(self, reply: str, slot: str) -> bool:
        return answers_slot(reply, slot, self.attrs)

    def off_profile(self, question: str, reply: str) -> bool:
        return bt.is_off_profile(question, reply, self.attrs)

    def reasons(self, reply: str) -> list[str]:
        return self.attrs.mentioned_in(reply)


@dataclass(frozen=True)
class Slot:
    """One hint as a question slot: its name (the hint's label), the item attribute it reads
    ("categories" for the category path), the words asking for it, the words answering it
    that name no catalog value, and the catalog's values of it."""

    name: str
    attribute: str
    cues: tuple[str, ...]
    answers: tuple[str, ...]
    index: ValueIndex


def _values(item: Item, attribute: str, plain: frozenset[str]) -> tuple[str, ...]:
    """The item's values of the attribute; categories that only name the domain's items
    (Yelp's "Restaurants") say nothing of it and are left out."""
    if attribute == "categories":
        return tuple(c for c in item.categories if c.strip().lower() not in plain)
    return tuple(v for v in item.attribute(attribute) if v.strip())


class HintChecks:
    """The hint slots against one target (see the module docstring)."""

    def __init__(
        self, slots: Sequence[Slot], item: Item, profile: tuple[str, ...], plain: frozenset[str]
    ) -> None:
        self.slots = {s.name: s for s in slots}
        self.values = {s.name: _values(item, s.attribute, plain) for s in slots}
        self.year = item.year
        self.keywords = ItemAttributes.of(item, profile).keywords

    def asked(self, question: str) -> set[str]:
        return {s.name for s in self.slots.values() if names_any(question, s.cues)} or {OPEN}

    def answers(self, reply: str, slot: str) -> bool:
        if slot not in self.slots:  # "open"
            return bool(self.reasons(reply)) or any(
                s.index.named(reply) for s in self.slots.values()
            )
        s = self.slots[slot]
        low = reply.lower()
        return (
            bool(s.index.named(reply))
            or any(s.index.names(reply, v) for v in self.values[slot])
            or names_any(reply, s.answers)
            or any(p in low for p in NO_PREFERENCE)
        )

    def off_profile(self, question: str, reply: str) -> bool:
        return any(self._other(name, reply) for name in self.asked(question) if name != OPEN)

    def _other(self, name: str, reply: str) -> bool:
        s = self.slots[name]
        named = s.index.named(reply)
        return bool(named) and not any(s.index.names(reply, v) for v in self.values[name])

    def reasons(self, reply: str) -> list[str]:
        """The target's facts the reply names: 'brand:CeraVe', 'decade:2010s', 'keyword:X'."""
        found = [
            f"{name}:{v}"
            for name, s in self.slots.items()
            for v in self.values[name]
            if s.index.names(reply, v)
        ]
        if self.year is not None and mentions_decade(reply, self.year):
            found.append(f"decade:{decade_label(self.year)}")
        return found + [f"keyword:{k}" for k in self.keywords if mentions_keyword(reply, k)]


class DomainSlots:
    """A domain's question slots over one catalog: built once per report, then one
    `target` per dialogue. `names` are the slots in table order, "open" last."""

    def __init__(self, domain: Domain, catalog: Catalog | None = None) -> None:
        self.domain = domain
        self.films = domain.layout == "films"
        self.plain = frozenset({domain.noun.lower(), domain.plural.lower()})
        self.hints = () if self.films else _slot_hints(domain)
        self.slots = tuple(_slot(h, catalog, self.plain) for h in self.hints)
        self.names = FILM_SLOTS if self.films else (*(s.name for s in self.slots), OPEN)

    def target(self, item: Item, profile: tuple[str, ...] = ()) -> TargetChecks:
        if self.films:
            return FilmChecks(ItemAttributes.of(item, profile))
        return HintChecks(self.slots, item, profile, self.plain)


def _slot_hints(domain: Domain) -> tuple[AttributeHint, ...]:
    """The hints that are slots: the category's first (its label's when no hint names it),
    one per label."""
    hints = list(domain.hints)
    if not any(h.name == "categories" for h in hints):
        hints.insert(0, AttributeHint("categories", domain.category_label))
    hints.sort(key=lambda h: h.name != "categories")
    first: dict[str, AttributeHint] = {}
    for hint in hints:
        first.setdefault(hint.label, hint)
    return tuple(first.values())


def _slot(hint: AttributeHint, catalog: Catalog | None, plain: frozenset[str]) -> Slot:
    words = hint.label.split()
    cues = (hint.label, plural_of(hint.label), words[0], hint.name.replace("_", " "), *hint.cues)
    items = list(catalog) if catalog is not None else []
    values = [v for item in items for v in _values(item, hint.name, plain)]
    index = ValueIndex(values, genre_words if hint.name == "categories" else _itself)
    return Slot(hint.label, hint.name, tuple(dict.fromkeys(cues)), hint.answers, index)


def _itself(value: str) -> tuple[str, ...]:
    return (value,)

"""The agenda user's hinted attributes: what a domain's hints name besides the category
(a product's brand and price range, a restaurant's neighbourhood, a game's developer).

A person looking for an item names these, so the agenda user states them, answers a
question that names one, and refuses an item whose value differs. Films have none: their
director and cast are people, stated from the target profile (agenda_people). Pure
functions: every text is a constant of agenda_rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from macrs_sim.data.attributes import mentions_keyword
from macrs_sim.data.domain import Domain
from macrs_sim.data.domain_words import plural_of
from macrs_sim.protocol import Item
from macrs_sim.simulators.agenda_rules import REJECT_ATTRIBUTE, Fact
from macrs_sim.simulators.leak_guard import LeakGuard

# Films' people: named by the target profile, never hinted from the catalog.
PERSON_ATTRIBUTES = frozenset({"director", "cast"})
# A person names a few of an item's tags or features, not all twenty.
VALUES_PER_ATTRIBUTE = 3


def hinted_facts(item: Item, domain: Domain, guards: Sequence[LeakGuard]) -> tuple[Fact, ...]:
    """The target's values of each hinted attribute, in the hints' order, but a value that
    would name the target (a guard leaks it)."""
    facts: list[Fact] = []
    for hint in domain.hints:
        if hint.name == "categories" or hint.name in PERSON_ATTRIBUTES:
            continue
        values = [v for v in item.attribute(hint.name) if v.strip()]
        kept = [v for v in values if not any(g.leaks(v) for g in guards)]
        facts += [Fact("attribute", v, hint.name, hint.label) for v in kept[:VALUES_PER_ATTRIBUTE]]
    return tuple(facts)


def asks_people(domain: Domain) -> bool:
    """Whether the domain's items have people a question may ask about (films)."""
    return any(h.name in PERSON_ATTRIBUTES for h in domain.hints)


def _cues(label: str, attribute: str) -> tuple[str, ...]:
    """Words naming an attribute: its label, plural, first word, and its own name."""
    words = label.split()
    return (label, plural_of(label), words[0], attribute.replace("_", " "))


def _position(text: str, cues: Sequence[str]) -> int | None:
    low = text.lower()
    hits = [
        m.start()
        for cue in cues
        for m in re.finditer(rf"(?<![a-z0-9]){re.escape(cue.lower())}(?![a-z0-9])", low)
    ]
    return min(hits) if hits else None


def asks_category(text: str, domain: Domain) -> bool:
    """Whether a question names the domain's category label ("What cuisine ...?")."""
    return _position(text, (domain.category_label, plural_of(domain.category_label))) is not None


def asked_attributes(text: str, facts: Sequence[Fact]) -> list[str]:
    """The hinted attributes a question names, in the order it names them."""
    found: dict[str, int] = {}
    for fact in facts:
        if fact.attribute not in found:
            at = _position(text, _cues(fact.label, fact.attribute))
            if at is not None:
                found[fact.attribute] = at
    return sorted(found, key=found.__getitem__)


def mentioned_hints(facts: Sequence[Fact], text: str) -> list[Fact]:
    """The hinted facts a text already states (an LLM-written opening)."""
    return [f for f in facts if mentions_keyword(text, f.value)]


def hinted_difference(facts: Sequence[Fact], rec: Item) -> tuple[Fact, str] | None:
    """The first hinted value the recommended item lacks where it has a value of that
    attribute (one with none says nothing either way), worded as a refusal."""
    for fact in facts:
        values = {v.lower() for v in rec.attribute(fact.attribute)}
        if values and fact.value.lower() not in values:
            return fact, REJECT_ATTRIBUTE.format(label=fact.label, value=fact.value)
    return None

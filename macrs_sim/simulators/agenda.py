"""Rule-based (agenda) user simulator: no LLM, same inputs give the same texts.

A cheap, reproducible control for the LLM user (DESIGN.md §3): it knows only the
target's genres, decade, keywords, the people its profile names (agenda_people) and the
attributes its domain hints at (agenda_hints: a brand, a city), reveals them in a fixed
order, answers the slot a question asks about, and refuses a wrong item by naming one
attribute in which it differs from the target. It speaks of items in the domain's noun.
Acceptance follows the LLM user's rule: a recommended item grounded to the target's id.
"""

from __future__ import annotations

from macrs_sim.data.attributes import ItemAttributes, question_slots
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.protocol import ItemRef, Sample, SystemTurn, UserTurn
from macrs_sim.simulators.agenda_hints import (
    asked_attributes,
    asks_category,
    asks_people,
    hinted_difference,
    hinted_facts,
    mentioned_hints,
)
from macrs_sim.simulators.agenda_people import (
    agenda_guards,
    asked_people,
    mentioned_people,
    people_difference,
    profile_keywords,
    profile_people,
)
from macrs_sim.simulators.agenda_rules import (
    ACCEPT,
    NO_PEOPLE,
    NOTHING_MORE,
    REJECT_OTHER,
    UNKNOWN,
    Fact,
    FactKind,
    agenda_attributes,
    agenda_facts,
    agenda_opening,
    an_item,
    difference,
    statement,
)
from macrs_sim.simulators.target_profile import clean_keywords, with_people

# question_slots' slot -> the fact kind that answers it, in the order answers are given.
_SLOT_FACTS: tuple[tuple[str, FactKind], ...] = (
    ("genre", "genre"),
    ("era", "decade"),
    ("theme", "keyword"),
)


class AgendaUserSimulator:
    def __init__(self, sample: Sample, catalog: Catalog, domain: Domain = MOVIES) -> None:
        self.sample = sample
        self._catalog = catalog
        self._noun = domain.noun
        self._domain = domain
        target = catalog[sample.target_id]
        self.people = profile_people(sample.target_profile)
        # Title and unnamed people: templates never name them, this is the safety net.
        self._guards = agenda_guards(target, self.people, domain)
        keywords = profile_keywords(sample.target_profile)
        nouns = (domain.noun, domain.plural)
        self.attributes = agenda_attributes(
            target, keywords, self._guards, nouns, specific_first=domain.category_path
        )
        self.hinted = hinted_facts(target, domain, self._guards)
        self.agenda = agenda_facts(self.attributes, self.people, self.hinted)
        self._revealed: list[Fact] = []

    @property
    def revealed(self) -> tuple[str, ...]:
        """Facts stated so far, first mention first, as 'genre:Crime', 'decade:1970s', ..."""
        return tuple(f.key for f in self._revealed)

    def planned_opening(self) -> str:
        """The opening the agenda gives (a sample's own opening may replace it)."""
        return agenda_opening(self.attributes, self.people, noun=self._noun, hinted=self.hinted)

    async def open(self) -> UserTurn:
        text = self.sample.opening or self.planned_opening()
        # A given opening may have been written by an LLM: read back what it revealed.
        said = set(self.attributes.mentioned_in(text))
        said |= {f.key for f in mentioned_people(self.people, text)}
        said |= {f.key for f in mentioned_hints(self.hinted, text)}
        self._reveal(*(f for f in self.agenda if f.key in said))
        return self._guarded(text)

    def accepts(self, turn: SystemTurn) -> bool:
        return any(item.item_id == self.sample.target_id for item in turn.items)

    async def reply(self, turn: SystemTurn) -> UserTurn:
        if self.accepts(turn):
            return UserTurn(text=ACCEPT, accepted=True)
        # Like the LLM user, any turn that names items is treated as a recommendation.
        text = self._refuse(turn.items) if turn.items else self._answer(turn.text)
        return self._guarded(text)

    def _refuse(self, items: tuple[ItemRef, ...]) -> str:
        rec = next((i.item_id for i in items if i.item_id in self._catalog), None)
        if rec is None:
            first = self._first_of("genre")
            self._reveal(*([first] if first else []))
            return UNKNOWN.format(item=an_item(first.value if first else None, self._noun))
        item = self._catalog[rec]
        rec_attrs = ItemAttributes.of(item)
        a = self.attributes
        # Genres and decade first, then people, then hinted attributes, then keywords.
        found = (
            difference(ItemAttributes(a.genres, a.year, ()), rec_attrs, self._noun)
            or people_difference(self.people, item)
            or hinted_difference(self.hinted, item)
            or difference(a, rec_attrs, self._noun)
        )
        if found is not None:
            self._reveal(*([found[0]] if found[0] else []))
            return found[1]
        return REJECT_OTHER.format(statement=self._next_statement())

    def _answer(self, text: str) -> str:
        slots = self._slots(text)
        hinted = [self._answer_attribute(name) for name in asked_attributes(text, self.hinted)]
        people = [
            said
            for kind in (asked_people(text) if "people" in slots else [])
            if (said := self._answer_kind(kind)) is not None
        ]
        answers = [
            said
            for slot, kind in _SLOT_FACTS
            if slot in slots and (said := self._answer_kind(kind)) is not None
        ]
        if "people" in slots and not people:
            return " ".join([NO_PEOPLE, *hinted, *(answers or [self._next_statement()])])
        answers = [*people, *hinted, *answers]
        return " ".join(answers) if answers else self._next_statement()

    def _slots(self, text: str) -> set[str]:
        """question_slots, with the domain's category label asking for the category
        ("What cuisine?") and no people asked about where items have none."""
        slots = question_slots(text)
        if asks_category(text, self._domain):
            slots = (slots - {"open"}) | {"genre"}
        return slots if asks_people(self._domain) else slots - {"people"}

    def _answer_attribute(self, name: str) -> str:
        """The next unrevealed value of a hinted attribute, else its first again."""
        facts = [f for f in self.hinted if f.attribute == name]
        fact = next((f for f in facts if f not in self._revealed), facts[0])
        self._reveal(fact)
        return statement(fact)

    def _answer_kind(self, kind: FactKind) -> str | None:
        """The next unrevealed fact of this kind, else its first again; None if it has none."""
        facts = [f for f in self.agenda if f.kind == kind]
        if not facts:
            return None
        fact = next((f for f in facts if f not in self._revealed), facts[0])
        self._reveal(fact)
        return statement(fact, self._noun)

    def _next_statement(self) -> str:
        """The next unrevealed fact; once all are out, restate the first (the first genre)."""
        if not self.agenda:
            return NOTHING_MORE
        fact = next((f for f in self.agenda if f not in self._revealed), self.agenda[0])
        self._reveal(fact)
        return statement(fact, self._noun)

    def _first_of(self, kind: FactKind) -> Fact | None:
        return next((f for f in self.agenda if f.kind == kind), None)

    def _reveal(self, *facts: Fact) -> None:
        for fact in facts:
            if fact not in self._revealed:
                self._revealed.append(fact)

    def _guarded(self, text: str) -> UserTurn:
        redacted = False
        for guard in self._guards:
            if guard.leaks(text):
                text, redacted = guard.redact(text), True
        return UserTurn(text=text, redacted=redacted)


def prepare_agenda_sample(
    catalog: Catalog, sample: Sample, *, people: bool = True, domain: Domain = MOVIES
) -> Sample:
    """The agenda user's per-sample preparation, without an LLM: catalog keywords as profile,
    plus (with `people`, simulator.profile_people) the director(s) and leading actors."""
    item = catalog[sample.target_id]
    base = clean_keywords(list(item.keywords), catalog, sample.target_id, keep_people=people)
    profile = base or item.genres
    if people:
        profile = with_people(profile, item)
    with_profile = sample.model_copy(update={"target_profile": profile})
    opening = AgendaUserSimulator(with_profile, catalog, domain).planned_opening()
    return sample.model_copy(update={"target_profile": profile, "opening": opening})

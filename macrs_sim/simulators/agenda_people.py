"""The agenda user's people: the director(s) and actors its target profile names.

The agenda user knows what the profile says, like the LLM user: with
`simulator.profile_people` on, the profile holds "director: X" / "actor: Y" entries and
the user opens with, answers about and refuses by them; people the profile does not name
stay guarded (never said). Pure functions: every text is a constant of agenda_rules.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.protocol import Item
from macrs_sim.simulators.agenda_rules import REJECT_ACTOR, REJECT_DIRECTOR, Fact, FactKind
from macrs_sim.simulators.leak_guard import LeakGuard
from macrs_sim.simulators.target_profile import (
    ACTOR_ATTRIBUTES,
    DIRECTOR_ATTRIBUTES,
    directors,
    split_entry,
    title_guard,
)

# Profile attributes the agenda takes from the catalog instead (genres, year).
CATALOG_ATTRIBUTES = frozenset({"genre", "genres", "era", "decade", "year", "title"})
_CUES: dict[FactKind, tuple[str, ...]] = {
    "director": ("director", "directors", "directed", "filmmaker", "filmmakers"),
    "actor": ("actor", "actors", "actress", "actresses", "star", "stars", "starring", "cast"),
}


def _names(value: str) -> list[str]:
    return [n.strip() for n in re.split(r",|&| and ", value) if n.strip()]


def profile_people(profile: Sequence[str]) -> tuple[Fact, ...]:
    """'director: X' and 'actor: Y, Z' entries as facts, in profile order, once each."""
    facts: list[Fact] = []
    for attribute, value in map(split_entry, profile):
        kind: FactKind | None = (
            "director"
            if attribute in DIRECTOR_ATTRIBUTES
            else "actor"
            if attribute in ACTOR_ATTRIBUTES
            else None
        )
        if kind is not None:
            facts += [Fact(kind, n) for n in _names(value) if Fact(kind, n) not in facts]
    return tuple(facts)


def profile_keywords(profile: Sequence[str]) -> tuple[str, ...]:
    """The profile's other entries as keywords: 'feature: heist' -> 'heist'."""
    out = []
    for entry in profile:
        attribute, value = split_entry(entry)
        people = DIRECTOR_ATTRIBUTES | ACTOR_ATTRIBUTES
        if attribute is None or attribute not in people | CATALOG_ATTRIBUTES:
            out.append(value)
    return tuple(out)


def agenda_guards(item: Item, people: Sequence[Fact], domain: Domain = MOVIES) -> list[LeakGuard]:
    """The title guard, plus one per catalog person the profile does not name."""
    stated = {f.value.lower() for f in people}
    unnamed = [p for p in (*directors(item), *item.cast) if p.strip().lower() not in stated]
    return [title_guard(item, domain), *(LeakGuard(p) for p in unnamed)]


def asked_people(text: str) -> list[FactKind]:
    """Which people a question asks about ('director', 'actor'), in the order it asks."""
    found: list[tuple[int, FactKind]] = []
    for kind, cues in _CUES.items():
        hits = [m.start() for c in cues for m in re.finditer(rf"\b{c}\b", text, re.IGNORECASE)]
        if hits:
            found.append((min(hits), kind))
    return [kind for _, kind in sorted(found)]


def mentioned_people(people: Sequence[Fact], text: str) -> list[Fact]:
    return [f for f in people if LeakGuard(f.value).leaks(text)]


def people_difference(people: Sequence[Fact], rec: Item) -> tuple[Fact | None, str] | None:
    """How a recommended item's people differ from the target's, director first; the fact
    the refusal reveals (None: the director refusal names nobody, as in Figure 7)."""
    rec_directors = {d.lower() for d in directors(rec)}
    wanted = [f for f in people if f.kind == "director"]
    if rec_directors and wanted and not any(f.value.lower() in rec_directors for f in wanted):
        return None, REJECT_DIRECTOR
    rec_cast = {a.lower() for a in rec.cast}
    actors = [f for f in people if f.kind == "actor"]
    if rec_cast and actors and not any(f.value.lower() in rec_cast for f in actors):
        return actors[0], REJECT_ACTOR.format(name=actors[0].value)
    return None

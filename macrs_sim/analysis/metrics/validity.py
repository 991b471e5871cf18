"""How believable the simulated user was, measured from the stored dialogues.

Pure functions over records (no model calls): target leaks before and after the
leak guard, whether answers answer the question, whether rejections give a usable
reason, and how recommended titles were grounded to the catalog. Dialogues that
ended in an error count like the others for whatever turns they hold. A rate whose
denominator is zero is None, never 0 or NaN.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Protocol

from macrs_sim.analysis.metrics.behaviour import BehaviourTally, dialogue_flags
from macrs_sim.analysis.metrics.slots import FILM_SLOTS, DomainSlots, TargetChecks
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.errors import DataError
from macrs_sim.protocol import DialogueAct, DialogueResult, Exchange, Item, ItemRef, Sample
from macrs_sim.simulators.leak_guard import LeakGuard

__all__ = [
    "OVERALL",
    "GroundingAudit",
    "ValidityCounter",
    "ValidityStats",
    "quantile",
    "validity_stats",
]

SLOTS = FILM_SLOTS  # films' slots, "open" last; another domain's: DomainSlots(domain).names
OVERALL = "all"  # the row over every system
METHODS = ("exact", "normalized", "fuzzy", "ambiguous", "none")  # ItemRef.method
# Acceptances that rest on a guess, listed title by title for a person to check.
AUDITED_METHODS = ("fuzzy", "ambiguous")
# Fuzzy-score summary points: name -> quantile (linear interpolation, see validity.quantile).
QUANTILES = (("min", 0.0), ("q25", 0.25), ("median", 0.5), ("q75", 0.75), ("max", 1.0))
MAX_EXAMPLES = 5


def _rate(count: int, total: int) -> float | None:
    return count / total if total else None


@dataclass(frozen=True)
class GroundingAudit:
    """A title accepted by a guess (spelling repaired, or one of several same-titled films)."""

    said: str
    grounded: str  # the catalog item's display title
    method: str  # one of AUDITED_METHODS
    score: float
    count: int


@dataclass(frozen=True)
class ValidityStats:
    system: str  # OVERALL ("all") for the row over every system
    dialogues: int
    user_turns: int  # user turns after the opening
    leaks_before: int  # turns whose first generation named the target
    leaks_after: int  # non-accepting turns whose kept text still names the target
    ask_turns: int
    answered: int
    rejections: int
    usable_reasons: int
    titles: int  # every recommended title: turn items and final-list items
    ungrounded: int
    ungrounded_examples: tuple[tuple[str, int], ...]
    methods: dict[str, int]  # every key of METHODS, in that order
    fuzzy_scores: dict[str, float] | None  # keys of QUANTILES; None without fuzzy matches
    slot_counts: dict[str, tuple[int, int]]  # every slot of the domain -> (asked, answered)
    audit: tuple[GroundingAudit, ...] = ()  # most frequent first
    # 'user_echo' -> (turns failing, turns checked): see metrics.behaviour
    behaviour: dict[str, tuple[int, int]] = field(default_factory=dict)

    @property
    def leak_rate_before(self) -> float | None:
        return _rate(self.leaks_before, self.user_turns)

    @property
    def leak_rate_after(self) -> float | None:
        return _rate(self.leaks_after, self.user_turns)

    @property
    def answer_share(self) -> float | None:
        return _rate(self.answered, self.ask_turns)

    @property
    def usable_reason_share(self) -> float | None:
        return _rate(self.usable_reasons, self.rejections)

    @property
    def ungrounded_share(self) -> float | None:
        return _rate(self.ungrounded, self.titles)


def quantile(ordered: Sequence[float], q: float) -> float:
    """numpy's default 'linear' percentile (Hyndman & Fan type 7) of sorted, non-empty data."""
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


@dataclass
class _Tally:
    """Running counts for one row; `add` one dialogue at a time, then `freeze`."""

    dialogues: int = 0
    user_turns: int = 0
    leaks_before: int = 0
    leaks_after: int = 0
    ask_turns: int = 0
    answered: int = 0
    rejections: int = 0
    usable_reasons: int = 0
    slots_asked: Counter[str] = field(default_factory=Counter)
    slots_answered: Counter[str] = field(default_factory=Counter)
    methods: Counter[str] = field(default_factory=Counter)
    ungrounded: Counter[str] = field(default_factory=Counter)
    fuzzy: list[float] = field(default_factory=list)
    audited: Counter[tuple[str, str, str, float]] = field(default_factory=Counter)
    behaviour: BehaviourTally = field(default_factory=BehaviourTally)

    def add(
        self,
        result: DialogueResult,
        guard: LeakGuard,
        checks: TargetChecks,
        profile: tuple[str, ...] = (),
    ) -> None:
        self.dialogues += 1
        self.behaviour.add(dialogue_flags(result, profile, checks))
        for ex in result.exchanges:
            self._add_exchange(ex, guard, checks)
        refs = [ref for ex in result.exchanges for ref in ex.system.items]
        for ref in (*refs, *result.final_list):
            self._add_title(ref)

    def merge(self, other: _Tally) -> None:
        """Add `other`'s counts (a system's, into the overall row)."""
        for f in fields(self):
            mine, theirs = getattr(self, f.name), getattr(other, f.name)
            if isinstance(mine, int):
                setattr(self, f.name, mine + theirs)
            elif isinstance(mine, Counter):
                mine.update(theirs)
            elif isinstance(mine, list):
                mine.extend(theirs)
            else:
                mine.merge(theirs)

    def _add_exchange(self, ex: Exchange, guard: LeakGuard, checks: TargetChecks) -> None:
        system, user = ex.system, ex.user
        self.user_turns += 1
        self.leaks_before += int(user.leak_retries > 0 or user.redacted)
        # Accepting a recommendation of the target is no leak: the system named it first
        # (and the simulator does not guard those turns).
        self.leaks_after += int(not user.accepted and guard.leaks(user.text))
        if system.act == DialogueAct.ASK:
            slots = checks.asked(system.text)
            hits = {slot for slot in slots if checks.answers(user.text, slot)}
            self.ask_turns += 1
            self.answered += int(bool(hits))
            self.slots_asked.update(slots)
            self.slots_answered.update(hits)
        if system.items and not user.accepted:
            self.rejections += 1
            self.usable_reasons += int(bool(checks.reasons(user.text)))

    def _add_title(self, ref: ItemRef) -> None:
        self.methods[ref.method] += 1
        if ref.item_id is None:
            self.ungrounded[ref.title.strip()] += 1
        if ref.method == "fuzzy":
            self.fuzzy.append(ref.score)
        if ref.method in AUDITED_METHODS and ref.item_id is not None:
            self.audited[(ref.title.strip(), ref.item_id, ref.method, ref.score)] += 1

    def _audit(self, catalog: Catalog) -> tuple[GroundingAudit, ...]:
        rows = [
            GroundingAudit(
                said=said,
                grounded=catalog[item_id].display_title if item_id in catalog else item_id,
                method=method,
                score=score,
                count=count,
            )
            for (said, item_id, method, score), count in self.audited.items()
        ]
        # Every field in the key: the order does not depend on which dialogue came first.
        return tuple(sorted(rows, key=lambda r: (-r.count, r.said, r.grounded, r.method, r.score)))

    def freeze(self, system: str, catalog: Catalog, slots: Sequence[str] = SLOTS) -> ValidityStats:
        ordered = sorted(self.fuzzy)
        fuzzy = {name: quantile(ordered, q) for name, q in QUANTILES} if ordered else None
        examples = sorted(self.ungrounded.items(), key=lambda kv: (-kv[1], kv[0]))
        return ValidityStats(
            system=system,
            dialogues=self.dialogues,
            user_turns=self.user_turns,
            leaks_before=self.leaks_before,
            leaks_after=self.leaks_after,
            ask_turns=self.ask_turns,
            answered=self.answered,
            rejections=self.rejections,
            usable_reasons=self.usable_reasons,
            titles=sum(self.methods.values()),
            ungrounded=sum(self.ungrounded.values()),
            ungrounded_examples=tuple(examples[:MAX_EXAMPLES]),
            methods={m: self.methods[m] for m in METHODS},
            fuzzy_scores=fuzzy,
            slot_counts={s: (self.slots_asked[s], self.slots_answered[s]) for s in slots},
            audit=self._audit(catalog),
            behaviour=self.behaviour.freeze(),
        )


class SampleLookup(Protocol):
    """Where a dialogue's sample is found by id (a dict, or a reader over the store)."""

    def get(self, sample_id: str, /) -> Sample | None: ...


def _sample_of(
    result: DialogueResult, samples: Mapping[str, Sample] | SampleLookup, catalog: Catalog
) -> Sample:
    if result.target_id not in catalog:
        raise DataError(
            f"dialogue {result.dialogue_id}: target {result.target_id!r} is not in the catalog"
        )
    sample = samples.get(result.sample_id)
    if sample is None:
        raise DataError(f"dialogue {result.dialogue_id}: sample {result.sample_id!r} not found")
    return sample


def leak_guard(item: Item, domain: Domain) -> LeakGuard:
    """The guard the leak-after count rechecks with: the target's title; where the domain
    names items by long names (products, businesses), also the shorter forms that still
    name it, as the simulator's guard has them (LeakGuard.for_item)."""
    if domain.grounding.matcher == "names":
        return LeakGuard.for_item(item, domain)
    return LeakGuard(item.title)


class ValidityCounter:
    """validity_stats one dialogue at a time (a pass that reads the store for more), in
    the terms of the run's domain (its question slots, its leak guard)."""

    def __init__(
        self,
        samples: Mapping[str, Sample] | SampleLookup,
        catalog: Catalog,
        domain: Domain = MOVIES,
    ) -> None:
        self.samples, self.catalog, self.domain = samples, catalog, domain
        self.slots = DomainSlots(domain, catalog)
        self.tallies: dict[str, _Tally] = {}

    def add(self, result: DialogueResult) -> None:
        sample = _sample_of(result, self.samples, self.catalog)
        item = self.catalog[result.target_id]
        profile = sample.target_profile
        tally = self.tallies.get(result.system)
        if tally is None:
            tally = self.tallies[result.system] = _Tally()
        guard = leak_guard(item, self.domain)
        tally.add(result, guard, self.slots.target(item, profile), profile)

    def stats(self) -> list[ValidityStats]:
        """One row per system in order of first appearance, then the OVERALL row."""
        overall = _Tally()  # every dialogue is one system's: the overall row is their sum
        for tally in self.tallies.values():
            overall.merge(tally)
        names = self.slots.names
        rows = [tally.freeze(name, self.catalog, names) for name, tally in self.tallies.items()]
        return [*rows, overall.freeze(OVERALL, self.catalog, names)]


def validity_stats(
    results: Iterable[DialogueResult],
    samples: Mapping[str, Sample] | SampleLookup,
    catalog: Catalog,
    domain: Domain = MOVIES,
) -> list[ValidityStats]:
    """One row per system in order of first appearance, then the OVERALL row."""
    counter = ValidityCounter(samples, catalog, domain)
    for result in results:
        counter.add(result)
    return counter.stats()

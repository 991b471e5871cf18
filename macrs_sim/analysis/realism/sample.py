"""A side's dialogues kept in bounded memory: every dialogue up to `cap`, then a uniform
reservoir sample of `cap` (Vitter's algorithm R, seeded), so a run or corpus of any size
is measured in the memory of `cap` dialogues' measures."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from macrs_sim.analysis.realism.measures import DialogueMeasures

CAP = 20_000


@dataclass
class SideSample:
    label: str
    cap: int = CAP
    seed: int = 0
    seen: int = 0
    kept: list[DialogueMeasures] = field(default_factory=list)
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)

    def add(self, measures: DialogueMeasures) -> None:
        self.seen += 1
        if len(self.kept) < self.cap:
            self.kept.append(measures)
            return
        slot = self._rng.randrange(self.seen)
        if slot < self.cap:
            self.kept[slot] = measures

    @property
    def sampled(self) -> bool:
        return self.seen > len(self.kept)

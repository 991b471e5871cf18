"""Most-interacted items first (the reference row of every comparison)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from macrs_sim.rankers.base import Arrays, Scores, mask_seen
from macrs_sim.rankers.params import PopularityParams
from macrs_sim.rankers.registry import RankerSpec

if TYPE_CHECKING:
    from macrs_sim.data.splits import Split


class PopularityRanker:
    kind = "popularity"

    def __init__(self, item_ids: tuple[str, ...], counts: Scores) -> None:
        self.item_ids = item_ids
        self.counts = counts

    @classmethod
    def fit(cls, item_ids: tuple[str, ...], train: Mapping[str, Sequence[int]]) -> PopularityRanker:
        counts = np.zeros(len(item_ids), dtype=np.float32)
        for seq in train.values():
            np.add.at(counts, np.asarray(seq, dtype=np.int64), 1.0)
        return cls(item_ids, counts)

    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        return mask_seen(np.tile(self.counts, (len(histories), 1)), histories)

    def arrays(self) -> Arrays:
        return {"counts": self.counts}

    @classmethod
    def from_arrays(cls, item_ids: tuple[str, ...], arrays: Arrays) -> PopularityRanker:
        return cls(item_ids, arrays["counts"].astype(np.float32))


def train(
    item_ids: tuple[str, ...], split: Split, params: PopularityParams, progress: Any = None
) -> PopularityRanker:
    """The registry's trainer: counts over the split's training sequences."""
    return PopularityRanker.fit(item_ids, split.train)


def load(item_ids: tuple[str, ...], arrays: Arrays, params: PopularityParams) -> PopularityRanker:
    return PopularityRanker.from_arrays(item_ids, arrays)


SPEC = RankerSpec(
    "popularity", PopularityParams, train=f"{__name__}:train", load=f"{__name__}:load"
)

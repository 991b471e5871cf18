"""`reverse_popularity`: least-interacted items first (ties in catalog order), seen items
excluded. Its checkpoint holds the training counts."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from macrs_sim.rankers.base import Arrays, Scores, mask_seen
from macrs_sim.rankers.params import RankerParams
from macrs_sim.rankers.registry import RankerSpec

if TYPE_CHECKING:
    from macrs_sim.data.splits import Split


class ReversePopularityParams(RankerParams):
    pass


class ReversePopularityRanker:
    kind = "reverse_popularity"

    def __init__(self, item_ids: tuple[str, ...], counts: Scores) -> None:
        self.item_ids = item_ids
        self.counts = counts

    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        return mask_seen(np.tile(-self.counts, (len(histories), 1)), histories)

    def arrays(self) -> Arrays:
        return {"counts": self.counts}


def train(
    item_ids: tuple[str, ...], split: Split, params: ReversePopularityParams, progress: Any = None
) -> ReversePopularityRanker:
    counts = np.zeros(len(item_ids), dtype=np.float32)
    for seq in split.train.values():
        np.add.at(counts, np.asarray(seq, dtype=np.int64), 1.0)
    return ReversePopularityRanker(item_ids, counts)


def load(
    item_ids: tuple[str, ...], arrays: Arrays, params: ReversePopularityParams
) -> ReversePopularityRanker:
    return ReversePopularityRanker(item_ids, arrays["counts"].astype(np.float32))


SPEC = RankerSpec(
    "reverse_popularity",
    ReversePopularityParams,
    train=f"{__name__}:train",
    load=f"{__name__}:load",
)

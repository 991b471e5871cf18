"""The `ItemRanker` protocol: score every item for a user's history, seen items excluded."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

Scores = npt.NDArray[np.float32]
# A ranker's learned state as named arrays (what the checkpoint cache stores).
Arrays = dict[str, npt.NDArray[np.generic]]


@runtime_checkable
class ItemRanker(Protocol):
    kind: str
    item_ids: tuple[str, ...]

    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        """(len(histories), n_items) scores; items in a history get -inf."""
        ...


@runtime_checkable
class CheckpointedRanker(ItemRanker, Protocol):
    """A ranker whose learned state the checkpoint cache can store."""

    def arrays(self) -> Arrays: ...


def mask_seen(scores: Scores, histories: Sequence[Sequence[int]]) -> Scores:
    rows = np.repeat(np.arange(len(histories)), [len(h) for h in histories])
    cols = np.fromiter((i for h in histories for i in h), dtype=np.int64, count=len(rows))
    scores[rows, cols] = -np.inf
    return scores


def top_items(ranker: ItemRanker, history: Sequence[str], k: int) -> list[tuple[str, float]]:
    """The k best unseen items for a history of item ids (ids outside the catalog ignored)."""
    index = {item_id: i for i, item_id in enumerate(ranker.item_ids)}
    known = [index[i] for i in history if i in index]
    scores = ranker.score([known])[0]
    k = min(k, int(np.isfinite(scores).sum()))
    best = np.argsort(-scores, kind="stable")[:k]
    return [(ranker.item_ids[i], float(scores[i])) for i in best]

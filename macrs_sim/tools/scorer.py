"""What the ranking and neighbour tools need from a recommender model.

Defined here (structurally) so any model fits: a `Scorer` scores items for a history of item
ids, a `Neighbours` lists an item's most similar items. Adapters turn the rankers' index-based
`ItemRanker` shape (`item_ids` + `score(histories of row indices)` / `neighbours(row, k)`)
into these without importing the rankers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Scorer(Protocol):
    def score(self, history: Sequence[str]) -> Mapping[str, float]:
        """Scores by item id; items the history holds are left out (or scored -inf)."""
        ...


@runtime_checkable
class Neighbours(Protocol):
    def neighbours(self, item_id: str, k: int) -> Sequence[tuple[str, float]]:
        """Up to k (item id, similarity) pairs, most similar first, the item itself excluded."""
        ...


class IndexedRanker(Protocol):
    @property
    def item_ids(self) -> tuple[str, ...]: ...

    def score(self, histories: Sequence[Sequence[int]]) -> Any: ...


class IndexedNeighbours(Protocol):
    @property
    def item_ids(self) -> tuple[str, ...]: ...

    def neighbours(self, item: int, k: int) -> Sequence[tuple[int, float]]: ...


class RankerScorer:
    """A `Scorer` over an index-based ranker (ids outside its vocabulary are ignored)."""

    def __init__(self, ranker: IndexedRanker) -> None:
        self.ranker = ranker
        self._row = {item_id: i for i, item_id in enumerate(ranker.item_ids)}

    def score(self, history: Sequence[str]) -> Mapping[str, float]:
        rows = [self._row[i] for i in history if i in self._row]
        scores = np.asarray(self.ranker.score([rows]))[0]
        ids = self.ranker.item_ids
        return {ids[j]: float(scores[j]) for j in np.flatnonzero(np.isfinite(scores))}


class RankerNeighbours:
    """A `Neighbours` over an index-based item-CF model."""

    def __init__(self, model: IndexedNeighbours) -> None:
        self.model = model
        self._row = {item_id: i for i, item_id in enumerate(model.item_ids)}

    def neighbours(self, item_id: str, k: int) -> Sequence[tuple[str, float]]:
        if item_id not in self._row:
            return []
        ids = self.model.item_ids
        return [(ids[j], float(s)) for j, s in self.model.neighbours(self._row[item_id], k)]

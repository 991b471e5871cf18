"""Item-CF: cosine similarity over user co-occurrence (InteRecAgent's soft-condition tool).

sim(i, j) = users who have both / sqrt(users who have i * users who have j), i != j,
each row pruned to its `neighbours` most similar items. A history scores item j
as the sum of sim(h, j) over its items h.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import scipy.sparse as sp

from macrs_sim.rankers.base import Arrays, Scores, mask_seen
from macrs_sim.rankers.params import ItemCFParams as ItemCFParams
from macrs_sim.rankers.registry import RankerSpec

if TYPE_CHECKING:
    from macrs_sim.data.splits import Split


def user_item_matrix(n_items: int, train: Mapping[str, Sequence[int]]) -> sp.csr_matrix:
    rows = [u for u, seq in enumerate(train.values()) for _ in seq]
    cols = [i for seq in train.values() for i in seq]
    m = sp.csr_matrix(
        (np.ones(len(cols), dtype=np.float32), (rows, cols)), shape=(len(train), n_items)
    )
    m.data[:] = 1.0  # repeats count once
    return m


def _prune(sim: sp.csr_matrix, keep: int) -> sp.csr_matrix:
    if keep == 0:
        return sim
    data, indices, indptr = [], [], [0]
    for row in range(sim.shape[0]):
        lo, hi = sim.indptr[row], sim.indptr[row + 1]
        vals, cols = sim.data[lo:hi], sim.indices[lo:hi]
        if hi - lo > keep:
            best = np.argsort(-vals, kind="stable")[:keep]
            vals, cols = vals[best], cols[best]
        data.append(vals)
        indices.append(cols)
        indptr.append(indptr[-1] + len(vals))
    return sp.csr_matrix(
        (np.concatenate(data), np.concatenate(indices), np.asarray(indptr)), shape=sim.shape
    )


def cosine_similarity(users_items: sp.csr_matrix, neighbours: int) -> sp.csr_matrix:
    co = (users_items.T @ users_items).tocsr().astype(np.float32)
    co.setdiag(0.0)
    co.eliminate_zeros()
    norm = np.sqrt(np.asarray(users_items.sum(axis=0), dtype=np.float32).ravel())
    inv = np.divide(1.0, norm, out=np.zeros_like(norm), where=norm > 0)
    sim = sp.diags(inv) @ co @ sp.diags(inv)
    return _prune(sp.csr_matrix(sim, dtype=np.float32), neighbours)


class ItemCFRanker:
    kind = "itemcf"

    def __init__(self, item_ids: tuple[str, ...], similarity: sp.csr_matrix) -> None:
        self.item_ids = item_ids
        self.similarity = similarity

    @classmethod
    def fit(
        cls, item_ids: tuple[str, ...], train: Mapping[str, Sequence[int]], params: ItemCFParams
    ) -> ItemCFRanker:
        users_items = user_item_matrix(len(item_ids), train)
        return cls(item_ids, cosine_similarity(users_items, params.neighbours))

    def neighbours(self, item: int, k: int) -> list[tuple[int, float]]:
        """The k items most similar to `item`, best first (ties: lower index first)."""
        row = self.similarity.getrow(item)
        order = np.lexsort((row.indices, -row.data))[:k]
        return [(int(row.indices[i]), float(row.data[i])) for i in order]

    def score(self, histories: Sequence[Sequence[int]]) -> Scores:
        rows = [u for u, h in enumerate(histories) for _ in h]
        cols = [i for h in histories for i in h]
        hist = sp.csr_matrix(
            (np.ones(len(cols), dtype=np.float32), (rows, cols)),
            shape=(len(histories), len(self.item_ids)),
        )
        hist.data[:] = 1.0
        scores = np.asarray((hist @ self.similarity).todense(), dtype=np.float32)
        return mask_seen(scores, histories)

    def arrays(self) -> Arrays:
        s = self.similarity
        return {"data": s.data, "indices": s.indices, "indptr": s.indptr}

    @classmethod
    def from_arrays(cls, item_ids: tuple[str, ...], arrays: Arrays) -> ItemCFRanker:
        n = len(item_ids)
        sim = sp.csr_matrix((arrays["data"], arrays["indices"], arrays["indptr"]), shape=(n, n))
        return cls(item_ids, sim)


def train(
    item_ids: tuple[str, ...], split: Split, params: ItemCFParams, progress: Any = None
) -> ItemCFRanker:
    """The registry's trainer: co-occurrence over the split's training sequences."""
    return ItemCFRanker.fit(item_ids, split.train, params)


def load(item_ids: tuple[str, ...], arrays: Arrays, params: ItemCFParams) -> ItemCFRanker:
    return ItemCFRanker.from_arrays(item_ids, arrays)


SPEC = RankerSpec("itemcf", ItemCFParams, train=f"{__name__}:train", load=f"{__name__}:load")

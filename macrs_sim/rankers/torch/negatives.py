"""Sampled negatives outside each user's own sequence, a whole batch in one draw.

The SASRec paper's reference implementations draw a position's negative uniformly
from the items the user never interacted with (`random_neq(1, itemnum + 1, ts)`, ts the
user's training sequence); a negative drawn from all items is now and then the user's
own item, and the loss then pushes down an item the user did choose.

Exact, no rejection loop: for a user whose sorted seen items are s_0 < s_1 < ...,
the r-th unseen item (0-based) is r + #{j : s_j - j <= r}, since s_j - j counts the
unseen items below s_j. Every user's shifted values s_j - j, offset by user * stride,
form one sorted array, so one `searchsorted` serves a whole batch.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import torch


class NegativeSampler:
    def __init__(self, sequences: Sequence[Sequence[int]], n_items: int) -> None:
        """`sequences[u]`: user u's catalog indices; draws are for rows u of this list."""
        seen = [np.unique(np.asarray(s, dtype=np.int64)) for s in sequences]
        counts = np.array([len(s) for s in seen], dtype=np.int64)
        self.n_items, self.stride = n_items, n_items + 1
        self.free = torch.from_numpy(n_items - counts)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
        self.starts = torch.from_numpy(starts)
        parts = [u * self.stride + s - np.arange(len(s)) for u, s in enumerate(seen)]
        shifted = np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
        self.keys = torch.from_numpy(shifted.astype(np.int64))

    def draw(self, users: torch.Tensor, width: int, generator: torch.Generator) -> torch.Tensor:
        """(len(users), width) embedding rows (catalog index + 1), uniform over the items
        outside each row's user's sequence; a user who has seen every item gets any item."""
        free = self.free[users].unsqueeze(-1)
        uniform = torch.rand(len(users), width, generator=generator, dtype=torch.float64)
        rank = (uniform * free.clamp(min=1)).long()
        query = users.unsqueeze(-1) * self.stride + rank
        below = torch.searchsorted(self.keys, query, right=True) - self.starts[users].unsqueeze(-1)
        anything = (uniform * self.n_items).long()
        return torch.where(free > 0, rank + below, anything) + 1

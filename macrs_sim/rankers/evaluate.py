"""Offline sequential evaluation: full ranking over all items, HR@K, NDCG@K, MRR.

A target's rank counts every unseen item scored at least as high (ties count
against the model, so a ranker that cannot tell items apart earns nothing).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from macrs_sim.data.splits import EvalCase
from macrs_sim.rankers.base import ItemRanker

Ranks = npt.NDArray[np.int64]


def target_ranks(ranker: ItemRanker, cases: Sequence[EvalCase], batch: int = 256) -> Ranks:
    """1-based rank of each case's target among all items, the case's history excluded."""
    out = np.empty(len(cases), dtype=np.int64)
    for lo in range(0, len(cases), batch):
        chunk = cases[lo : lo + batch]
        scores = ranker.score([c.history for c in chunk])
        targets = np.array([c.target for c in chunk])
        target_scores = scores[np.arange(len(chunk)), targets]
        ahead = (scores >= target_scores[:, None]).sum(axis=1)  # includes the target itself
        # A target inside its own history was masked (-inf): it can never be found.
        ahead = np.where(np.isneginf(target_scores), scores.shape[1], ahead)
        out[lo : lo + len(chunk)] = ahead
    return out


def ranking_metrics(ranks: Ranks, ks: Sequence[int]) -> dict[str, float]:
    """HR@K and NDCG@K for each K, and MRR over the full ranking; means over cases."""
    if len(ranks) == 0:
        return {
            **{f"HR@{k}": math.nan for k in ks},
            **{f"NDCG@{k}": math.nan for k in ks},
            "MRR": math.nan,
        }
    r = ranks.astype(np.float64)
    out: dict[str, float] = {}
    for k in ks:
        out[f"HR@{k}"] = float((r <= k).mean())
    for k in ks:
        out[f"NDCG@{k}"] = float(np.where(r <= k, 1.0 / np.log2(r + 1.0), 0.0).mean())
    out["MRR"] = float((1.0 / r).mean())
    return out


def ndcg_at(ranker: ItemRanker, cases: Sequence[EvalCase], k: int = 10) -> float:
    return ranking_metrics(target_ranks(ranker, cases), [k])[f"NDCG@{k}"]

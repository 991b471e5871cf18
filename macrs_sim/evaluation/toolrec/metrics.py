"""Recall@K and NDCG@K of one ranked list with one held-out target, and mean ± std.

With a single relevant item, Recall@K is 1 when the target is in the top K, and
NDCG@K is 1 / log2(1 + rank) for a target at 1-based `rank` <= K (the ideal DCG is 1).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def target_rank(ranked: Sequence[str], target: str) -> int | None:
    """1-based position of the target in the list, None when absent."""
    try:
        return ranked.index(target) + 1
    except ValueError:
        return None


def recall_at(ranked: Sequence[str], target: str, k: int) -> float:
    rank = target_rank(ranked[:k], target)
    return 0.0 if rank is None else 1.0


def ndcg_at(ranked: Sequence[str], target: str, k: int) -> float:
    rank = target_rank(ranked[:k], target)
    return 0.0 if rank is None else 1.0 / math.log2(rank + 1)


def mean_std(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (n - 1); the std of one value is 0."""
    if not values:
        return math.nan, math.nan
    mean = statistics.fmean(values)
    return mean, statistics.stdev(values) if len(values) > 1 else 0.0

"""The paper's task metrics (§4.1): RMSE and MAE, HR@K and NDCG@K over candidate lists.

Pure functions of parsed answers. A ranking answer that named no candidate has no target
position (None) and scores 0, as a miss; an unparsable rating is left out of RMSE and MAE
and counted beside them (the row's `unparsable`), never scored as a guess.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def target_position(ranked: Sequence[str], target: str) -> int | None:
    """1-based place of `target` in the ranked list; None when it is not there."""
    try:
        return ranked.index(target) + 1
    except ValueError:
        return None


def hit_at(position: int | None, k: int) -> float:
    return 1.0 if position is not None and position <= k else 0.0


def ndcg_at(position: int | None, k: int) -> float:
    """One relevant item: DCG = 1 / log2(position + 1), and the ideal DCG is 1."""
    if position is None or position > k:
        return 0.0
    return 1.0 / math.log2(position + 1)


def ranking_metrics(positions: Sequence[int | None], ks: Sequence[int]) -> dict[str, float]:
    """HR@K then NDCG@K for each K, averaged over the cases (NaN when there are none)."""
    n = len(positions)
    out: dict[str, float] = {}
    for name, fn in (("HR", hit_at), ("NDCG", ndcg_at)):
        for k in ks:
            out[f"{name}@{k}"] = sum(fn(p, k) for p in positions) / n if n else math.nan
    return out


def rating_metrics(predicted: Sequence[float | None], truth: Sequence[float]) -> dict[str, float]:
    """RMSE and MAE over the predictions that were read (None: unparsable, left out)."""
    if len(predicted) != len(truth):
        raise ValueError("predictions and ratings differ in length")
    errors = [p - t for p, t in zip(predicted, truth, strict=True) if p is not None]
    if not errors:
        return {"RMSE": math.nan, "MAE": math.nan}
    n = len(errors)
    return {
        "RMSE": math.sqrt(sum(e * e for e in errors) / n),
        "MAE": sum(abs(e) for e in errors) / n,
    }


def mean_or_nan(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else math.nan

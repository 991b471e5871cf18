"""Item popularity buckets (paper §5.3.2): top 10% / 10-20% / 20-30% / 30-50% / bottom 50%.

Items are ranked by interaction count, most popular first. Tied items share
their average rank (pandas' ``rank(method="average", pct=True)``), so items with
equal counts always land in the same bucket and a long tail of single-rating
items is not dumped into whichever bucket its first member happens to reach.
Only items with at least one interaction are ranked: popularity is measured by
interactions, and an item nobody touched is never a target.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from fractions import Fraction


def bucket_labels(edges: Sequence[float]) -> list[str]:
    """[0.1, 0.2, 0.3, 0.5, 1.0] -> ['top 10%', '10-20%', '20-30%', '30-50%', 'bottom 50%']."""
    pct = [round(e * 100) for e in edges]
    labels = []
    for i, hi in enumerate(pct):
        lo = pct[i - 1] if i else 0
        if i == 0:
            labels.append(f"top {hi}%")
        elif hi == 100:
            labels.append(f"bottom {100 - lo}%")
        else:
            labels.append(f"{lo}-{hi}%")
    return labels


def percentile_ranks(counts: Mapping[str, int]) -> dict[str, Fraction]:
    """Average-rank percentile from the top: the most popular of N items (untied) gets 1/N."""
    ranked = {i: c for i, c in counts.items() if c > 0}
    n = len(ranked)
    ties = Counter(ranked.values())
    above = 0
    rank_of_count: dict[int, Fraction] = {}
    for count in sorted(ties, reverse=True):
        t = ties[count]
        # positions above+1 .. above+t share their mean, above + (t + 1) / 2
        rank_of_count[count] = Fraction(2 * above + t + 1, 2 * n)
        above += t
    return {i: rank_of_count[c] for i, c in ranked.items()}


def assign_buckets(counts: Mapping[str, int], edges: Sequence[float]) -> dict[str, str]:
    """item id -> bucket label, for every item with at least one interaction."""
    labels = bucket_labels(edges)
    limits = [Fraction(str(e)) for e in edges]
    out: dict[str, str] = {}
    for item_id, rank in percentile_ranks(counts).items():
        out[item_id] = next(label for label, lim in zip(labels, limits, strict=True) if rank <= lim)
    return out

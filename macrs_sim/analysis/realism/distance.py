"""Distances between a run's users and the corpus's seekers, with bootstrap intervals.

Dialogues are the resampling unit (a dialogue's turns are not independent): each draw
takes every side's dialogues with replacement, so a measure's values are histograms with
dialogue weights. Numbers: scipy's Wasserstein distance over the values' histograms;
categories: total variation. distinct-n (one value per side) is taken over a fixed budget
of words, from dialogues drawn without replacement (repeats would lower it), the same
budget on every side, since distinct-n falls as a text grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import wasserstein_distance

from macrs_sim.analysis.realism.measures import DialogueMeasures
from macrs_sim.analysis.realism.spec import MeasureSpec

Floats = np.ndarray
WORD_BUDGET = 10_000


@dataclass(frozen=True)
class Flat:
    values: Floats
    lengths: Floats

    @classmethod
    def of(cls, kept: Sequence[DialogueMeasures], spec: MeasureSpec) -> Flat:
        per = [spec.values(m) for m in kept]
        values = np.fromiter((v for vs in per for v in vs), dtype=np.int64)
        return cls(values, np.fromiter(map(len, per), dtype=np.int64, count=len(per)))

    def histogram(self, weights: Floats, size: int) -> Floats:
        return np.bincount(self.values, weights=np.repeat(weights, self.lengths), minlength=size)


def histogram_distance(spec: MeasureSpec, a: Floats, b: Floats) -> float:
    if a.sum() <= 0 or b.sum() <= 0:
        return float("nan")
    if spec.kind == "category":
        return float(0.5 * np.abs(a / a.sum() - b / b.sum()).sum())
    support = np.arange(len(a), dtype=float)
    return float(wasserstein_distance(support, support, a, b))


def distinct_n(texts: Sequence[tuple[str, ...]], order: Floats, budget: int, n: int) -> float:
    """Distinct n-grams / all n-grams over the turns of dialogues in `order` until `budget`
    words are read (n-grams never cross a turn)."""
    grams: set[tuple[str, ...]] = set()
    total = read = 0
    for d in order:
        for text in texts[d]:
            ws = text.split()
            grams.update(tuple(ws[i : i + n]) for i in range(len(ws) - n + 1))
            total += max(len(ws) - n + 1, 0)
            read += len(ws)
            if read >= budget:
                return len(grams) / total if total else float("nan")
    return len(grams) / total if total else float("nan")


def word_budget(sides: Sequence[Sequence[DialogueMeasures]]) -> int:
    """Half the smallest side's words (so draws differ), at most WORD_BUDGET."""
    least = min(sum(sum(m.words) for m in side) for side in sides) if sides else 0
    return max(1, min(WORD_BUDGET, least // 2))


@dataclass(frozen=True)
class Interval:
    point: float
    lo: float
    hi: float

    @classmethod
    def of(cls, point: float, draws: Sequence[float]) -> Interval:
        ok = np.asarray([d for d in draws if d == d], dtype=float)
        if not len(ok) or point != point:
            return cls(point, float("nan"), float("nan"))
        lo, hi = np.percentile(ok, [2.5, 97.5])
        return cls(point, float(lo), float(hi))

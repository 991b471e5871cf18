"""The realism table: each measure's summary on every side, and each run's distance to the
corpus's seekers (and, for two runs or more, each run's distance minus the first's), with
95 % bootstrap intervals (percentile, `draws` resamples, seeded)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from macrs_sim.analysis.realism.distance import (
    Flat,
    Floats,
    Interval,
    distinct_n,
    histogram_distance,
    word_budget,
)
from macrs_sim.analysis.realism.sample import SideSample
from macrs_sim.analysis.realism.spec import MEASURES, MeasureSpec

DRAWS = 200


@dataclass(frozen=True)
class Summary:
    """A side's value: the mean (numbers), each category's share, or distinct-n; `n`
    counts the values (turns, answers, dialogues) it rests on."""

    mean: float
    shares: tuple[float, ...]
    n: int


@dataclass(frozen=True)
class MeasureResult:
    spec: MeasureSpec
    people: Summary
    runs: tuple[Summary, ...]
    distances: tuple[Interval, ...]  # run k to the people
    differences: tuple[Interval, ...]  # run k's distance minus run 0's (k >= 1)


def _summary(spec: MeasureSpec, hist: Floats) -> Summary:
    total = float(hist.sum())
    if not total:
        return Summary(float("nan"), (), 0)
    mean = float((np.arange(len(hist)) * hist).sum() / total)
    shares = tuple(float(h / total) for h in hist) if spec.kind == "category" else ()
    return Summary(mean, shares, int(total))


def _histogram_measure(
    spec: MeasureSpec, sides: Sequence[SideSample], draws: int, seed: int
) -> MeasureResult:
    flats = [Flat.of(s.kept, spec) for s in sides]
    size = max([len(spec.categories)] + [int(f.values.max()) + 1 for f in flats if len(f.values)])
    ones = [np.ones(len(f.lengths)) for f in flats]
    hists = [f.histogram(w, size) for f, w in zip(flats, ones, strict=True)]
    points = [histogram_distance(spec, h, hists[0]) for h in hists[1:]]
    rng = np.random.default_rng(seed)
    drawn = np.empty((draws, len(points)))
    for b in range(draws):
        weights = [np.bincount(rng.integers(0, len(w), len(w)), minlength=len(w)) for w in ones]
        hs = [f.histogram(w.astype(float), size) for f, w in zip(flats, weights, strict=True)]
        drawn[b] = [histogram_distance(spec, h, hs[0]) for h in hs[1:]]
    return _result(spec, [_summary(spec, h) for h in hists], points, drawn)


def _diversity_measure(
    spec: MeasureSpec, sides: Sequence[SideSample], draws: int, seed: int
) -> MeasureResult:
    texts = [[m.texts for m in s.kept] for s in sides]
    budget = word_budget([s.kept for s in sides])
    rng = np.random.default_rng(seed)
    values = np.array(
        [
            [distinct_n(t, rng.permutation(len(t)), budget, spec.order) for t in texts]
            for _ in range(draws)
        ]
    )
    drawn = np.abs(values[:, 1:] - values[:, :1])
    means = values.mean(axis=0) if draws else np.full(len(sides), np.nan)
    summaries = [
        Summary(float(v), (), min(budget, sum(sum(m.words) for m in s.kept)))
        for v, s in zip(means, sides, strict=True)
    ]
    return _result(spec, summaries, [float(abs(v - means[0])) for v in means[1:]], drawn)


def _result(
    spec: MeasureSpec, summaries: list[Summary], points: list[float], drawn: Floats
) -> MeasureResult:
    distances = tuple(Interval.of(p, list(drawn[:, k])) for k, p in enumerate(points))
    differences = tuple(
        Interval.of(points[k] - points[0], list(drawn[:, k] - drawn[:, 0]))
        for k in range(1, len(points))
    )
    return MeasureResult(spec, summaries[0], tuple(summaries[1:]), distances, differences)


def realism_table(
    people: SideSample, runs: Sequence[SideSample], *, draws: int = DRAWS, seed: int = 0
) -> list[MeasureResult]:
    """Every measure of MEASURES, people first; the same seed gives the same intervals."""
    sides = [people, *runs]
    out = []
    for i, spec in enumerate(MEASURES):
        build = _diversity_measure if spec.kind == "diversity" else _histogram_measure
        out.append(build(spec, sides, draws, seed + i))
    return out

"""The figure: each measure's distribution on every side, side by side (shares of the side's
values, so sides of different sizes compare), and distinct-1/2 as bars."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.figure import Figure

from macrs_sim.analysis.figures.plain import plain_text
from macrs_sim.analysis.realism.compute import MeasureResult
from macrs_sim.analysis.realism.distance import Flat
from macrs_sim.analysis.realism.sample import SideSample

BINS = 16


def _shares(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    counts, _ = np.histogram(values, bins=edges)
    return counts / counts.sum() if counts.sum() else counts.astype(float)


def _edges(flats: Sequence[Flat], categories: int) -> np.ndarray:
    if categories:
        return np.arange(categories + 1) - 0.5
    top = max([int(np.percentile(f.values, 99)) for f in flats if len(f.values)] + [1])
    width = max(1, int(np.ceil((top + 1) / BINS)))
    return np.arange(0, top + width + 1, width) - 0.5


@plain_text
def realism_figure(results: Sequence[MeasureResult], sides: Sequence[SideSample]) -> Figure:
    shown = [r for r in results if r.spec.kind != "diversity"]
    fig = Figure(figsize=(12, 2.8 * ((len(shown) + 2) // 3)), layout="constrained")
    axes = fig.subplots((len(shown) + 2) // 3, 3).ravel()
    width = 0.8 / len(sides)
    for ax, r in zip(axes, shown, strict=False):
        flats = [Flat.of(s.kept, r.spec) for s in sides]
        edges = _edges(flats, len(r.spec.categories))
        mids = (edges[:-1] + edges[1:]) / 2
        step = edges[1] - edges[0]
        for k, (side, flat) in enumerate(zip(sides, flats, strict=True)):
            ax.bar(mids + (k - (len(sides) - 1) / 2) * width * step, _shares(flat.values, edges),
                   width=width * step, label=side.label)  # fmt: skip
        ax.set_title(r.spec.label, fontsize=10)
        ax.set_ylabel("share")
        if r.spec.categories:
            ax.set_xticks(range(len(r.spec.categories)), r.spec.categories)
        elif step == 1:
            ax.set_xticks(mids)
    diversity = [r for r in results if r.spec.kind == "diversity"]
    ax = axes[len(shown)]
    for k, side in enumerate(sides):
        values = [(r.people if k == 0 else r.runs[k - 1]).mean for r in diversity]
        ax.bar(
            np.arange(len(diversity)) + (k - (len(sides) - 1) / 2) * width,
            values,
            width=width,
            label=side.label,
        )
    ax.set_xticks(range(len(diversity)), [r.spec.label for r in diversity])
    ax.set_title("lexical diversity (same word budget)", fontsize=10)
    for extra in axes[len(shown) + 1 :]:
        extra.set_visible(False)
    axes[0].legend(fontsize=8)
    return fig

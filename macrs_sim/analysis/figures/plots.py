"""The paper's discussion figures (§5.3, Figures 4-6) from the frames of `metrics.acts`.

Each figure has a builder (`*_figure`, returns the Figure for inspection) and a `plot_*`
that saves it as a PNG. Figures are plain `matplotlib.figure.Figure` objects rendered by
Agg: nothing goes through pyplot, so no window ever opens and nothing needs closing.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from pathlib import Path

import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from macrs_sim.analysis.atomic import save_png_atomic
from macrs_sim.analysis.figures.plain import plain_text

# One colour per dialogue act, the same in every figure of the project.
ACT_COLORS: dict[str, str] = {
    "ask": "#4C72B0",
    "chat": "#55A868",
    "recommend": "#DD8452",
}
# Acts other than the paper's three, in order of appearance, then systems by position.
OTHER_ACT_COLORS = ("#8172B3", "#937860", "#DA8BC3", "#8C8C8C", "#CCB974", "#64B5CD")
SYSTEM_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b")
SYSTEM_MARKERS = ("o", "s", "^", "D", "v", "P")
DPI = 120


def act_color(act: str, others: Sequence[str] = ()) -> str:
    """The act's colour: fixed for the paper's acts, by position in `others` for the rest."""
    if act in ACT_COLORS:
        return ACT_COLORS[act]
    index = list(others).index(act) if act in others else 0
    return OTHER_ACT_COLORS[index % len(OTHER_ACT_COLORS)]


def _wrap(name: str, width: int = 26) -> str:
    return "\n".join(textwrap.wrap(name, width)) or name


def _unique(values: pd.Series) -> list[str]:
    return [str(v) for v in dict.fromkeys(values)]


def _note(ax: Axes, text: str) -> None:
    """A visible statement in the middle of a panel whose data are all zero or absent, so an
    empty-looking plot cannot be mistaken for a rendering fault."""
    box = {"boxstyle": "round,pad=0.4", "facecolor": "white", "edgecolor": "#999999"}
    ax.text(0.5, 0.6, text, transform=ax.transAxes, ha="center", va="center", bbox=box)


def _save(fig: Figure, path: str | Path) -> Path:
    return save_png_atomic(fig, path, dpi=DPI)


def _stack_turns(ax: Axes, frame: pd.DataFrame, acts: Sequence[str]) -> None:
    turns = sorted(int(t) for t in frame["turn"].unique())
    others = [a for a in acts if a not in ACT_COLORS]
    bottom = [0.0] * len(turns)
    for act in acts:
        share = frame[frame["act"] == act].set_index("turn")["ratio"]
        heights = [float(share.get(t, 0.0)) for t in turns]
        heights = [0.0 if math.isnan(h) else h for h in heights]
        ax.bar(turns, heights, 0.7, bottom=bottom, color=act_color(act, others), label=act)
        for x, h, b in zip(turns, heights, bottom, strict=True):
            if h >= 0.1:
                ax.text(x, b + h / 2, f"{h:.0%}", ha="center", va="center", fontsize=8)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    totals = frame.groupby("turn")["total"].first()
    counts = [f"n={int(totals[t])}" for t in turns]
    # Five-digit counts would run into each other at the default size.
    ax.set_xticks(turns, [f"{t}\n{n}" for t, n in zip(turns, counts, strict=True)])
    if max(map(len, counts), default=0) > 6:
        ax.tick_params(axis="x", labelsize=7)
    if not any(int(v) for v in totals):
        _note(ax, "No turns recorded")


@plain_text
def act_ratios_figure(ratios: pd.DataFrame) -> Figure:
    """Figure 4: one panel per system, a stacked bar of act shares per turn."""
    systems, acts = _unique(ratios["system"]), _unique(ratios["act"])
    ncols = len(systems) if len(systems) <= 4 else 3
    nrows = math.ceil(len(systems) / ncols)
    fig = Figure(figsize=(3.6 * ncols + 0.6, 3.6 * nrows + 0.6), layout="constrained")
    axes = fig.subplots(nrows, ncols, sharey=True, squeeze=False).ravel()
    for i, (ax, system) in enumerate(zip(axes, systems, strict=False)):
        _stack_turns(ax, ratios[ratios["system"] == system], acts)
        ax.set_title(_wrap(system), fontsize=11)
        ax.set_xlabel("Turn (n: dialogues that reached it)")
        ax.set_ylim(0, 1)
        if i % ncols == 0:
            ax.set_ylabel("Share of dialogues")
    for ax in axes[len(systems) :]:
        ax.set_visible(False)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncols=len(acts), title="Act")
    fig.suptitle("Dialogue act chosen at each turn", fontsize=13)
    return fig


def plot_act_ratios(ratios: pd.DataFrame, path: str | Path) -> Path:
    return _save(act_ratios_figure(ratios), path)


def _system_label(system: str, mine: pd.DataFrame) -> str:
    if "dialogues" not in mine.columns or mine.empty:
        return _wrap(system)
    return _wrap(f"{system} (n={int(mine['dialogues'].iloc[0])})")


@plain_text
def cumulative_successes_figure(cum: pd.DataFrame) -> Figure:
    """Figure 5: one line per system, successes so far at each turn (integer counts).

    With no success at all, the y axis still runs to 1 and a note says so. A `dialogues`
    column, when present, puts each system's n in the legend.
    """
    fig = Figure(figsize=(6.4, 4.2), layout="constrained")
    ax = fig.subplots()
    for i, system in enumerate(_unique(cum["system"])):
        mine = cum[cum["system"] == system]
        ax.plot(
            mine["turn"],
            mine["successes"],
            marker=SYSTEM_MARKERS[i % len(SYSTEM_MARKERS)],
            color=SYSTEM_COLORS[i % len(SYSTEM_COLORS)],
            label=_system_label(system, mine),
        )
    ax.set_xticks(sorted(int(t) for t in cum["turn"].unique()))
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    top = int(cum["successes"].max()) if len(cum) else 0
    ax.set_ylim(0, max(top, 1) * 1.08)
    if top == 0:
        _note(ax, "No successes: every dialogue failed")
    ax.grid(alpha=0.3)
    ax.set_xlabel("Turn")
    ax.set_ylabel("Cumulative successful dialogues")
    ax.set_title("Successful dialogues by turn")
    ax.legend(title="System", loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0)
    return fig


def plot_cumulative_successes(cum: pd.DataFrame, path: str | Path) -> Path:
    return _save(cumulative_successes_figure(cum), path)


def _n_label(bucket: str, ns: pd.Series) -> str:
    lo, hi = int(ns.min()), int(ns.max())
    return f"{bucket}\nn={lo}" if lo == hi else f"{bucket}\nn={lo}-{hi}"


def _value_labels(ax: Axes, xs: Sequence[float], values: Sequence[float], size: int) -> None:
    """The value of every bar above it, zeros included, so an all-zero panel still reads."""
    for x, v in zip(xs, values, strict=True):
        text = "n/a" if math.isnan(v) else f"{v:.2f}"
        y = 0.0 if math.isnan(v) else v
        ax.text(x, y + 0.01, text, ha="center", va="bottom", fontsize=size, rotation=90)


def _grouped_bars(ax: Axes, perf: pd.DataFrame, column: str, title: str, empty: str) -> None:
    systems, buckets = _unique(perf["system"]), _unique(perf["bucket"])
    width = 0.8 / len(systems)
    size = 7 if len(systems) <= 3 else 6
    for i, system in enumerate(systems):
        mine = perf[perf["system"] == system].set_index("bucket")
        xs = [b + (i - (len(systems) - 1) / 2) * width for b in range(len(buckets))]
        values = [float(mine[column].get(b, math.nan)) for b in buckets]
        heights = [0.0 if math.isnan(v) else v for v in values]
        color = SYSTEM_COLORS[i % len(SYSTEM_COLORS)]
        ax.bar(xs, heights, width, color=color, label=_wrap(system))
        _value_labels(ax, xs, values, size)
    if not perf[column].fillna(0.0).any():
        _note(ax, empty)
    labels = [_n_label(b, perf.loc[perf["bucket"] == b, "n"]) for b in buckets]
    ax.set_xticks(range(len(buckets)), labels)
    ax.set_ylim(0, 1.15)  # room for the value labels above a bar of 1.0
    ax.set_yticks([0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
    ax.grid(axis="y", alpha=0.3)
    ax.set_title(title)
    ax.set_xlabel("Target item popularity")
    ax.set_ylabel(title)


@plain_text
def bucket_performance_figure(perf: pd.DataFrame) -> Figure:
    """Figure 6: success rate and Hit@10 per popularity bucket, one bar per system."""
    fig = Figure(figsize=(12.0, 4.6), layout="constrained")
    left, right = fig.subplots(1, 2)
    _grouped_bars(left, perf, "success_rate", "Success rate", "No successes in any bucket")
    _grouped_bars(right, perf, "hit@10", "Hit@10", "No hits in any bucket")
    handles, labels = left.get_legend_handles_labels()
    ncols = min(len(labels), 3)
    fig.legend(handles, labels, loc="outside lower center", ncols=ncols, title="System")
    fig.suptitle("Performance by target item popularity", fontsize=13)
    return fig


def plot_bucket_performance(perf: pd.DataFrame, path: str | Path) -> Path:
    return _save(bucket_performance_figure(perf), path)

"""Figures 4-6: the PNG files, and the texts and bar heights of the figures behind them."""

from __future__ import annotations

import itertools
import math
import struct
from pathlib import Path

import pandas as pd
import pytest
from matplotlib.axes import Axes
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle
from matplotlib.text import Text

from macrs_sim.analysis.figures.plots import (
    ACT_COLORS,
    SYSTEM_COLORS,
    act_ratios_figure,
    bucket_performance_figure,
    cumulative_successes_figure,
    plot_act_ratios,
    plot_bucket_performance,
    plot_cumulative_successes,
)
from macrs_sim.data.popularity import bucket_labels

SYSTEMS = ["MACRS-C", "ChatGPT", "MACRS w/o SR+IR"]
MANY = [*SYSTEMS, "MACRS w/o SR", "MACRS w/o IR with a rather long backbone name", "Llama2"]
ACTS = ["ask", "chat", "recommend"]
BUCKETS = bucket_labels([0.1, 0.2, 0.3, 0.5, 1.0])


def ratios_frame(systems: list[str], turns: int = 5) -> pd.DataFrame:
    rows = []
    for s, t in itertools.product(range(len(systems)), range(1, turns + 1)):
        total = 20 - 3 * (t - 1)
        counts = [(t + s) % 4 + 2, s + 1, 0]
        counts[2] = total - counts[0] - counts[1]
        for act, count in zip(ACTS, counts, strict=True):
            rows.append([systems[s], t, act, count, total, count / total])
    return pd.DataFrame(rows, columns=["system", "turn", "act", "count", "total", "ratio"])


def cum_frame(systems: list[str]) -> pd.DataFrame:
    rows = [
        [system, t, 2 * t + s, (2 * t + s) / 20]
        for s, system in enumerate(systems)
        for t in range(1, 6)
    ]
    return pd.DataFrame(rows, columns=["system", "turn", "successes", "rate"])


def perf_frame(systems: list[str]) -> pd.DataFrame:
    rows = []
    for s, system in enumerate(systems):
        for b, bucket in enumerate(BUCKETS):
            n = 0 if (s, b) == (1, 4) else 20 - s
            rate = math.nan if n == 0 else round(0.1 * (b + 1) + 0.05 * s, 2)
            rows.append([system, bucket, n, rate, math.nan if n == 0 else min(rate + 0.1, 1.0)])
    return pd.DataFrame(rows, columns=["system", "bucket", "n", "success_rate", "hit@10"])


def _texts(fig: Figure) -> list[Text]:
    return [
        t
        for t in fig.findobj(Text)
        if isinstance(t, Text)
        and t.get_visible()
        and t.get_text().strip()
        and (t.axes is None or t.axes.get_visible())
    ]


def _overlapping(fig: Figure) -> list[tuple[str, str]]:
    fig.draw_without_rendering()  # lays the figure out as saving it would
    boxes = [(t.get_text(), t.get_window_extent()) for t in _texts(fig)]
    return [(a, b) for (a, ba), (b, bb) in itertools.combinations(boxes, 2) if ba.overlaps(bb)]


def _heights(ax: Axes) -> list[float]:
    bars = [p for p in ax.patches if isinstance(p, Rectangle)]
    assert len(bars) == len(ax.patches)
    return [float(b.get_height()) for b in bars]


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def test_act_ratios_figure_texts_and_heights() -> None:
    frame = ratios_frame(SYSTEMS)
    fig = act_ratios_figure(frame)
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == SYSTEMS
    assert {ax.get_xlabel() for ax in axes} == {"Turn (n: dialogues that reached it)"}
    assert axes[0].get_ylabel() == "Share of dialogues"
    assert axes[0].get_ylim() == (0.0, 1.0)
    assert fig.get_suptitle() == "Dialogue act chosen at each turn"
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ACTS
    labels = [t.get_text() for t in axes[0].get_xticklabels()]
    assert labels == ["1\nn=20", "2\nn=17", "3\nn=14", "4\nn=11", "5\nn=8"]
    for ax, system in zip(axes, SYSTEMS, strict=True):
        mine = frame[frame["system"] == system]
        expected = [r for act in ACTS for r in mine[mine["act"] == act]["ratio"]]
        assert _heights(ax) == pytest.approx(expected)
        colours = [p.get_facecolor() for p in ax.patches]
        assert colours[0] == to_rgba(ACT_COLORS["ask"])
        assert colours[-1] == to_rgba(ACT_COLORS["recommend"])


def test_act_ratios_figure_unreached_turn_draws_nothing() -> None:
    frame = ratios_frame(["A"], turns=2)
    frame.loc[frame["turn"] == 2, ["count", "total"]] = 0
    frame.loc[frame["turn"] == 2, "ratio"] = math.nan
    ax = act_ratios_figure(frame).axes[0]
    assert _heights(ax)[1::2] == [0.0, 0.0, 0.0]
    assert ax.get_xticklabels()[1].get_text() == "2\nn=0"


def test_cumulative_successes_figure() -> None:
    frame = cum_frame(SYSTEMS)
    ax = cumulative_successes_figure(frame).axes[0]
    assert ax.get_title() == "Successful dialogues by turn"
    assert ax.get_xlabel() == "Turn"
    assert ax.get_ylabel() == "Cumulative successful dialogues"
    assert list(ax.get_xticks()) == [1, 2, 3, 4, 5]
    legend = ax.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == SYSTEMS
    for line, system in zip(ax.get_lines(), SYSTEMS, strict=True):
        expected = frame[frame["system"] == system]["successes"]
        assert list(line.get_ydata()) == list(expected)  # type: ignore[arg-type]
        assert line.get_marker() is not None


def test_bucket_performance_figure() -> None:
    frame = perf_frame(SYSTEMS)
    fig = bucket_performance_figure(frame)
    left, right = fig.axes
    assert [left.get_title(), right.get_title()] == ["Success rate", "Hit@10"]
    assert fig.get_suptitle() == "Performance by target item popularity"
    assert [t.get_text() for t in fig.legends[0].get_texts()] == SYSTEMS
    labels = [t.get_text() for t in left.get_xticklabels()]
    assert labels == ["top 10%\nn=18-20", "10-20%\nn=18-20", "20-30%\nn=18-20"] + [
        "30-50%\nn=18-20",
        "bottom 50%\nn=0-20",
    ]
    for ax, column in ((left, "success_rate"), (right, "hit@10")):
        assert ax.get_ylim() == (0.0, 1.15)  # room for a label above a bar of 1.0
        assert list(ax.get_yticks()) == pytest.approx([0.0, 0.2, 0.4, 0.6, 0.8, 1.0])
        expected = frame[column].fillna(0.0).tolist()  # systems in turn, buckets in order
        assert _heights(ax) == pytest.approx(expected)
        assert ax.patches[0].get_facecolor() == to_rgba(SYSTEM_COLORS[0])
        # Every bar is labelled with its value; ChatGPT's empty bottom 50% reads n/a.
        labels = ["n/a" if math.isnan(v) else f"{v:.2f}" for v in frame[column]]
        assert [t.get_text() for t in ax.texts] == labels
        assert labels[9] == "n/a" and labels[0] == ("0.10" if column == "success_rate" else "0.20")


def test_long_names_wrap_and_many_systems_fit() -> None:
    fig = act_ratios_figure(ratios_frame(MANY))
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert len(visible) == 6
    assert visible[4].get_title() == "MACRS w/o IR with a rather\nlong backbone name"
    legend = cumulative_successes_figure(cum_frame(MANY)).axes[0].get_legend()
    assert legend is not None and len(legend.get_texts()) == 6


@pytest.mark.parametrize("systems", [SYSTEMS, MANY[:5], MANY], ids=["3", "5", "6"])
def test_no_text_overlaps(systems: list[str]) -> None:
    for fig in (
        act_ratios_figure(ratios_frame(systems)),
        cumulative_successes_figure(cum_frame(systems)),
        bucket_performance_figure(perf_frame(systems)),
    ):
        assert _overlapping(fig) == []


def test_plot_files(tmp_path: Path) -> None:
    import matplotlib.pyplot as plt

    out = [
        plot_act_ratios(ratios_frame(SYSTEMS), tmp_path / "figs" / "fig4.png"),
        plot_cumulative_successes(cum_frame(SYSTEMS), tmp_path / "fig5.png"),
        plot_bucket_performance(perf_frame(SYSTEMS), tmp_path / "fig6.png"),
    ]
    assert out == [tmp_path / "figs" / "fig4.png", tmp_path / "fig5.png", tmp_path / "fig6.png"]
    (w4, h4), (w5, h5), (w6, h6) = (_png_size(p) for p in out)
    assert 1100 < w4 < 1700 and 400 < h4 < 700  # three panels side by side
    assert 600 < w5 < 1000 and 400 < h5 < 700
    assert 1200 < w6 < 1700 and 450 < h6 < 800
    assert plt.get_fignums() == []  # nothing went through pyplot, so no window to close


def _notes(ax: Axes) -> list[str]:
    """Texts drawn in a box: the notes a panel with nothing to show carries."""
    return [t.get_text() for t in ax.texts if t.get_bbox_patch() is not None]


def test_no_successes_is_said_not_left_blank() -> None:
    frame = cum_frame(SYSTEMS).assign(successes=0, rate=0.0, dialogues=20)
    fig = cumulative_successes_figure(frame)
    ax = fig.axes[0]
    assert _notes(ax) == ["No successes: every dialogue failed"]
    assert ax.get_ylim() == pytest.approx((0.0, 1.08))  # not a sliver around 0
    assert [t for t in ax.get_yticks() if 0 <= t <= 1.08] == [0.0, 1.0]  # whole dialogues
    legend = ax.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == [f"{s} (n=20)" for s in SYSTEMS]
    assert _overlapping(fig) == []


def test_some_successes_have_integer_ticks_and_no_note() -> None:
    frame = cum_frame(SYSTEMS[:1]).assign(successes=[0, 0, 1, 1, 3])
    ax = cumulative_successes_figure(frame).axes[0]
    assert _notes(ax) == []
    assert ax.get_ylim() == pytest.approx((0.0, 3 * 1.08))
    assert all(float(t).is_integer() for t in ax.get_yticks())


def test_all_zero_buckets_are_labelled_and_noted() -> None:
    frame = perf_frame(SYSTEMS).assign(success_rate=0.0, **{"hit@10": 0.0})
    fig = bucket_performance_figure(frame)
    left, right = fig.axes
    assert _notes(left) == ["No successes in any bucket"]
    assert _notes(right) == ["No hits in any bucket"]
    values = [t.get_text() for t in left.texts if t.get_bbox_patch() is None]
    assert values == ["0.00"] * 15
    assert _overlapping(fig) == []
    assert _notes(bucket_performance_figure(perf_frame(SYSTEMS)).axes[0]) == []


def test_a_system_without_turns_says_so() -> None:
    frame = ratios_frame(SYSTEMS[:2], turns=2)
    frame.loc[frame["system"] == SYSTEMS[1], ["count", "total"]] = 0
    frame.loc[frame["system"] == SYSTEMS[1], "ratio"] = math.nan
    fig = act_ratios_figure(frame)
    assert [_notes(ax) for ax in fig.axes[:2]] == [[], ["No turns recorded"]]
    assert [t.get_text() for t in fig.axes[1].get_xticklabels()] == ["1\nn=0", "2\nn=0"]


@pytest.mark.parametrize("name", ["3", "6", "fig5.pdf"])
def test_a_figure_path_without_png_is_refused(tmp_path: Path, name: str) -> None:
    with pytest.raises(ValueError, match=r"must end in \.png"):
        plot_cumulative_successes(cum_frame(SYSTEMS), tmp_path / name)
    assert list(tmp_path.iterdir()) == []


def test_names_with_dollar_signs_are_drawn_as_typed(tmp_path: Path) -> None:
    """matplotlib reads `$...$` as math: an act a server named `$\\frac{$` used to fail the
    report at its figure step; names from runs are plain text."""
    frame = ratios_frame(["$x$ CRS", "MACRS"])
    frame["act"] = frame["act"].replace({"chat": "$\\frac{$"})
    path = plot_act_ratios(frame, tmp_path / "acts.png")
    assert _png_size(path)[0] > 0
    fig = act_ratios_figure(frame)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["ask", "$\\frac{$", "recommend"]
    assert fig.axes[0].get_title() == "$x$ CRS"


def test_act_ratio_counts_of_five_digits_get_smaller_tick_labels() -> None:
    """At 20,000 dialogues "n=20000" under each turn ran into its neighbour (issue 28)."""
    from macrs_sim.analysis.figures.plots import act_ratios_figure

    def sizes(total: int) -> set[float]:
        rows = [
            {"system": "MACRS", "turn": t, "act": "ask", "count": total, "total": total,
             "ratio": 1.0}
            for t in (1, 2, 3)
        ]  # fmt: skip
        fig = act_ratios_figure(pd.DataFrame(rows))
        return {label.get_fontsize() for label in fig.axes[0].get_xticklabels()}

    assert sizes(20000) == {7.0}
    assert sizes(9999) == {10.0}

"""The realism table's text: cells for a side's value and a distance, the verdict on which
run's users are closer to people, and the per-turn-position table."""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.analysis.realism.compute import MeasureResult, Summary
from macrs_sim.analysis.realism.distance import Interval
from macrs_sim.analysis.realism.sample import SideSample

POSITIONS = 5  # turns 1-5, then "6+"
_UNIT = {"category": "TV", "number": "W1", "diversity": "diff"}
_SHORT = {"accepted": "acc", "rejected": "rej", "unanswered": "none"}


def value_cell(result: MeasureResult, summary: Summary) -> str:
    spec = result.spec
    if summary.n == 0 or summary.mean != summary.mean:
        return "–"
    if spec.kind == "category" and spec.name == "titles":
        return f"{100 * summary.shares[1]:.0f}%"
    if spec.kind == "category":
        parts = (
            f"{_SHORT.get(c, c)} {100 * s:.0f}"
            for c, s in zip(spec.categories, summary.shares, strict=False)
        )
        return " / ".join(parts) + " %"
    return f"{summary.mean:.3f}" if spec.kind == "diversity" else f"{summary.mean:.2f}"


def interval_cell(interval: Interval) -> str:
    if interval.point != interval.point:
        return "–"
    if interval.lo != interval.lo:
        return f"{interval.point:.3f}"
    return f"{interval.point:.3f} [{interval.lo:.3f}, {interval.hi:.3f}]"


def verdict(difference: Interval, first: str, other: str) -> str:
    """Which run's users are closer: the difference (other's distance minus first's) and its
    interval on one side of zero, else no clear difference."""
    if difference.hi != difference.hi:
        return "–"
    if difference.hi < 0:
        return f"{other} closer"
    if difference.lo > 0:
        return f"{first} closer"
    return "no clear difference"


def table_rows(
    results: Sequence[MeasureResult], names: Sequence[str]
) -> tuple[list[str], list[list[str]]]:
    headers = ["measure", "people"]
    for name in names:
        headers += [name, f"distance {name} [95% CI]"]
    if len(names) > 1:
        for name in names[1:]:
            headers += [f"{name} − {names[0]} [95% CI]", "closer to people"]
    rows = []
    for r in results:
        row = [f"{r.spec.label} ({_UNIT[r.spec.kind]})", value_cell(r, r.people)]
        for summary, distance in zip(r.runs, r.distances, strict=True):
            row += [value_cell(r, summary), interval_cell(distance)]
        for name, diff in zip(names[1:], r.differences, strict=True):
            row += [interval_cell(diff), verdict(diff, names[0], name)]
        rows.append(row)
    return headers, rows


def position_rows(side: SideSample) -> list[list[str]]:
    """Per user turn position: turns, mean words, mean target attributes, share naming a
    title, mean questions."""
    rows = []
    for pos in range(POSITIONS + 1):
        at = [
            (m, i)
            for m in side.kept
            for i in range(len(m.words))
            if (i == pos if pos < POSITIONS else i >= pos)
        ]
        if not at:
            continue
        attrs = [m.attributes[i] for m, i in at if m.attributes is not None]
        rows.append([
            side.label, str(pos + 1) if pos < POSITIONS else f"{POSITIONS + 1}+", str(len(at)),
            f"{sum(m.words[i] for m, i in at) / len(at):.1f}",
            f"{sum(attrs) / len(attrs):.2f}" if attrs else "–",
            f"{100 * sum(m.titles[i] for m, i in at) / len(at):.0f}%",
            f"{sum(m.questions[i] for m, i in at) / len(at):.2f}",
        ])  # fmt: skip
    return rows

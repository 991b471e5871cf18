"""The MACRS paper's Table 1 (§5) for a run: means, bootstrap CIs and t-tests per system.

    >>> run = load_run("runs/paper_table1-...")
    >>> frame = table1(run.dialogues, run.systems, reference="chatgpt", paired=True)
    >>> print(render_table1_markdown(frame, reference="chatgpt", paired=True))

The frame `table1` returns is flat (one row per system, plain columns) and is written to
CSV as it is (`frame.to_csv(path, index=False)`); no separate CSV frame is needed.
As in `metrics.py`, every dialogue counts (an error is a failure with max_turns + 1 turns
and no hit; `errors` says how many) unless `completed_only=True`, the secondary view.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from macrs_sim.analysis.markdown import markdown_table
from macrs_sim.analysis.metrics.significance import (
    STRONG_MARKER,
    STRONG_P,
    WEAK_MARKER,
    WEAK_P,
    bootstrap_ci,
    significance_marker,
    t_test,
)
from macrs_sim.analysis.runs.load import SystemInfo

METRICS = ("success", "turns", "hit@5", "hit@10")
DISPLAY_NAMES = {
    "success": "Success rate",
    "turns": "Avg turns",
    "hit@5": "Hit@5",
    "hit@10": "Hit@10",
}
LOWER_IS_BETTER = frozenset({"turns"})


def columns() -> list[str]:
    """The columns of `table1`'s frame, in order."""
    cols = ["system", "variant", "n", "errors"]
    for m in METRICS:
        cols += [m, f"{m}_ci_low", f"{m}_ci_high", f"{m}_p"]
    return cols


def _per_sample(counted: pd.DataFrame) -> dict[str, pd.Series]:
    """A system's value of each metric per sample_id (the mean, should a sample repeat)."""
    if counted.empty:
        return {m: pd.Series(dtype=float) for m in METRICS}
    means = counted.groupby("sample_id")[list(METRICS)].mean()  # the ids hashed once
    return {m: means[m].dropna().astype(float) for m in METRICS}


def _counted(dialogues: pd.DataFrame, completed_only: bool) -> pd.DataFrame:
    return dialogues[dialogues["status"] != "error"] if completed_only else dialogues


def _system_row(
    info: SystemInfo,
    dialogues: pd.DataFrame,
    ref_values: dict[str, pd.Series] | None,
    *,
    paired: bool,
    n_resamples: int,
    level: float,
    seed: int,
    completed_only: bool,
) -> dict[str, object]:
    # The columns Table 1 reads, of this system's rows only: a copy of every column of every
    # dialogue was a report's largest allocation.
    mine = dialogues.loc[dialogues["system"] == info.name, ["sample_id", "status", *METRICS]]
    counted = _counted(mine, completed_only)
    row: dict[str, object] = {
        "system": info.name,
        "variant": info.variant or info.kind,
        "n": len(counted),
        "errors": int((mine["status"] == "error").sum()),
    }
    per_sample = _per_sample(counted)
    for m in METRICS:
        values = per_sample[m]
        low, high = bootstrap_ci(values.to_numpy(), n_resamples=n_resamples, level=level, seed=seed)
        p = math.nan
        if ref_values is not None:
            p = t_test(ref_values[m], values, paired=paired).p_value
        mean = float(values.mean()) if len(values) else math.nan
        row.update({m: mean, f"{m}_ci_low": low, f"{m}_ci_high": high, f"{m}_p": p})
    return row


def table1(
    dialogues: pd.DataFrame,
    systems: Sequence[SystemInfo],
    *,
    reference: str | None,
    paired: bool,
    n_resamples: int = 2000,
    seed: int = 0,
    level: float = 0.95,
    completed_only: bool = False,
) -> pd.DataFrame:
    """One row per system of `systems` (in that order); see `columns()`.

    `m` is the mean of metric m over all the system's dialogues, errors counted as failures
    (only the completed ones with `completed_only`; one per sample, a sample that repeats is
    averaged first), `m_ci_low`/`m_ci_high`
    its percentile bootstrap CI over samples, `m_p` the two-sided Student's t-test p-value
    against `reference`'s per-sample values (paired by sample_id or not). `m_p` is NaN for
    the reference itself and everywhere when `reference` is None. A system with no
    dialogues gets n=0 and NaNs. `frame.attrs` keeps n_resamples, level, reference, paired
    and completed_only.
    """
    names = [s.name for s in systems]
    if reference is not None and reference not in names:
        raise ValueError(f"reference system {reference!r} is not one of: {', '.join(names)}")
    ref_values: dict[str, pd.Series] | None = None
    if reference is not None:
        ref_rows = _counted(dialogues[dialogues["system"] == reference], completed_only)
        ref_values = _per_sample(ref_rows)
    rows = [
        _system_row(
            info,
            dialogues,
            None if info.name == reference else ref_values,
            paired=paired,
            n_resamples=n_resamples,
            level=level,
            seed=seed,
            completed_only=completed_only,
        )
        for info in systems
    ]
    frame = pd.DataFrame(rows, columns=columns())
    frame.attrs.update(
        n_resamples=n_resamples,
        level=level,
        reference=reference,
        paired=paired,
        completed_only=completed_only,
    )
    return frame


def _num(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.2f}"


def _cell(row: pd.Series, metric: str) -> str:
    mean = float(row[metric])
    if math.isnan(mean):
        return "n/a"
    low, high = float(row[f"{metric}_ci_low"]), float(row[f"{metric}_ci_high"])
    marker = significance_marker(float(row[f"{metric}_p"]))
    return f"{mean:.2f} [{_num(low)}, {_num(high)}]{marker}"


def format_p(p: float) -> str:
    """A p-value for a table: `0.031`, `<0.001`, or `—` when there is none."""
    if math.isnan(p):
        return "—"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


COUNTING_NOTE = (
    "n counts every dialogue of the system; dialogues that ended in an error ({errors} here) "
    "count as failures (max_turns + 1 turns, no hit), as the paper divides by all N test samples."
)
COMPLETED_NOTE = (
    "Completed dialogues only: n leaves out the {errors} dialogue(s) that ended in an error, "
    "so each system is scored on its own subset of the samples."
)


def _counting(frame: pd.DataFrame) -> str:
    errors = int(frame["errors"].sum())
    if frame.attrs.get("completed_only"):
        return COMPLETED_NOTE.format(errors=errors)
    return COUNTING_NOTE.format(errors=errors)


def _note(reference: str | None, paired: bool, level: float, n_resamples: object) -> str:
    resamples = f" ({n_resamples} resamples)" if isinstance(n_resamples, int | np.integer) else ""
    ci = f"CIs are {level:.0%} percentile bootstrap intervals over samples{resamples}."
    if reference is None:
        return f"{ci} No significance tests (no reference system). Avg turns: lower is better."
    test = "paired" if paired else "unpaired (equal-variance)"
    return (
        f"{ci} Tests: two-sided {test} Student's t-test against {reference}; "
        f"{STRONG_MARKER} p ≤ {STRONG_P}, {WEAK_MARKER} p ≤ {WEAK_P} "
        f"(a difference in either direction: read it from the means; the paper marks "
        f"improvements over ChatGPT). Avg turns: lower is better."
    )


def render_table1_markdown(
    frame: pd.DataFrame,
    *,
    reference: str | None,
    paired: bool,
    level: float = 0.95,
    n_resamples: int | None = None,
) -> str:
    """Table 1 as markdown: `mean [low, high]marker` cells, a note, then the p-values table.

    Markers compare each p-value with the paper's thresholds (`significance_marker`).
    `n_resamples` (for the note) defaults to the one `table1` kept in `frame.attrs`.
    """
    names = [DISPLAY_NAMES[m] for m in METRICS]
    resamples = frame.attrs.get("n_resamples") if n_resamples is None else n_resamples
    header = ["System", "Variant", "n", "Errors", *names]
    rows = [
        [str(row["system"]), str(row["variant"]), str(row["n"]), str(row["errors"])]
        + [_cell(row, m) for m in METRICS]
        for _, row in frame.iterrows()
    ]
    lines = markdown_table(header, rows, left=2)
    lines += ["", _counting(frame) + " " + _note(reference, paired, level, resamples)]
    if reference is not None:
        p_rows = [
            [str(row["system"]), *(format_p(float(row[f"{m}_p"])) for m in METRICS)]
            for _, row in frame.iterrows()
        ]
        lines += ["", *markdown_table(["System", *(f"{n} p" for n in names)], p_rows)]
    return "\n".join(lines) + "\n"

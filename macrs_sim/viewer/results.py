"""The results page: metrics of every system, and each run's report figures and tables.

Metrics are computed from the stored dialogues (so a run without a report still has
them); figures and CSV tables are taken from the run's own report (`macrs-sim report`),
figures copied into the site so it opens anywhere.
"""

from __future__ import annotations

import math
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from macrs_sim.analysis.metrics.outcomes import metrics_frame, metrics_from_dialogues
from macrs_sim.analysis.runs.combine import Comparison
from macrs_sim.analysis.runs.load import RunData

# Report tables can be long (transitions); the page shows their head, the CSV has the rest.
MAX_TABLE_ROWS = 200


@dataclass
class Table:
    name: str
    columns: list[str]
    rows: list[list[str]]
    truncated: int = 0


@dataclass
class RunReport:
    name: str
    path: str
    report_md: str | None
    figures: list[tuple[str, str]] = field(default_factory=list)  # (label, site-relative src)
    tables: list[Table] = field(default_factory=list)


def cell(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "—"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def frame_table(name: str, frame: pd.DataFrame) -> Table:
    shown = frame.head(MAX_TABLE_ROWS)
    rows = [[cell(v) for v in row] for row in shown.itertuples(index=False, name=None)]
    columns = [str(c).strip() for c in frame.columns]
    return Table(name, columns, rows, max(len(frame) - len(shown), 0))


def metrics_tables(cmp: Comparison) -> list[Table]:
    order = cmp.system_names

    def sorted_frame(completed_only: bool) -> pd.DataFrame:
        metrics = metrics_from_dialogues(cmp.dialogues, completed_only=completed_only)
        metrics.sort(key=lambda m: order.index(m.system) if m.system in order else len(order))
        return metrics_frame(metrics)

    return [
        frame_table("All dialogues (an error counts as a failure)", sorted_frame(False)),
        frame_table("Completed dialogues only", sorted_frame(True)),
    ]


def _csv_table(path: Path) -> Table | None:
    try:
        frame = pd.read_csv(path, encoding="utf-8-sig")
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError):
        return None
    return frame_table(path.stem, frame)


def run_report(run: RunData, run_index: int, site: Path) -> RunReport:
    """The run's report files; its figures are copied to `site`/figures/run<index>/."""
    report_md = run.path / "report.md"
    path = run.path.absolute()
    out = RunReport(run.name, str(path), str(report_md.absolute()) if report_md.is_file() else None)
    # The paper's figures (fig4, fig5, ...) first, then the others by name.
    figures = sorted(
        (run.path / "figures").glob("*.png"), key=lambda p: (not p.name.startswith("fig"), p.name)
    )
    if figures:
        target = site / "figures" / f"run{run_index}"
        target.mkdir(parents=True, exist_ok=True)
        for fig in figures:
            shutil.copyfile(fig, target / fig.name)
            out.figures.append((fig.stem, f"figures/run{run_index}/{fig.name}"))
    tables = sorted((run.path / "tables").glob("*.csv"))
    out.tables = [t for t in (_csv_table(p) for p in tables) if t is not None]
    return out


def run_reports(runs: Sequence[RunData], site: Path) -> list[RunReport]:
    return [run_report(run, k, site) for k, run in enumerate(runs)]

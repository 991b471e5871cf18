"""Reports of a run's metrics: markdown, a rich table, and the files written next to a run."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from macrs_sim.analysis.markdown import markdown_table
from macrs_sim.analysis.metrics.outcomes import SystemMetrics, compute_metrics
from macrs_sim.analysis.metrics.stored import stored_metrics
from macrs_sim.analysis.runs.access import RunAccess, run_access
from macrs_sim.analysis.runs.load import BehaviourCounts
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import MacrsSimError
from macrs_sim.protocol import DialogueResult
from macrs_sim.store import RunStore
from macrs_sim.textsafe import terminal_line

_BASE_HEADERS = ["System", "Dialogues", "Errors", "Success rate", "Avg turns"]


def _ks(metrics: Sequence[SystemMetrics]) -> list[int]:
    return list(dict.fromkeys(k for m in metrics for k in m.hit_at))


def _num(value: float) -> str:
    # A system with no completed dialogue has no rates; "nan" would read as a bug.
    return "n/a" if math.isnan(value) else f"{value:.2f}"


def _headers(ks: Sequence[int], access: RunAccess | None = None) -> list[str]:
    history = ["History"] if access else []
    return [_BASE_HEADERS[0], *history, *_BASE_HEADERS[1:]] + [f"Hit@{k}" for k in ks]


def _cells(m: SystemMetrics, ks: Sequence[int], access: RunAccess | None = None) -> list[str]:
    """One system's row; with the run's access record, what history it was given."""
    hits = [_num(m.hit_at.get(k, math.nan)) for k in ks]
    history = [access.history_of(m.system)] if access else []
    rates = [_num(m.success_rate), _num(m.avg_turns), *hits]
    return [m.system, *history, str(m.n), str(m.n_errors), *rates]


def render_markdown(
    title: str,
    metrics: Sequence[SystemMetrics],
    notes: Sequence[str] = (),
    access: RunAccess | None = None,
) -> str:
    """A markdown report: heading, metrics table, then the notes as bullets (with the run's
    access record: a History column and the limits every system shared)."""
    ks = _ks(metrics)
    headers = _headers(ks, access)
    rows = [_cells(m, ks, access) for m in metrics]
    lines = [f"# {title}", "", *markdown_table(headers, rows, left=2 if access else 1)]
    notes = [*notes, access.limits_line()] if access else list(notes)
    if notes:
        lines += ["", *(f"- {note}" for note in notes)]
    return "\n".join(lines) + "\n"


# Short enough for an 80-column terminal: rich wraps a caption to the table's width.
COUNTING_CAPTION = "Rates over all dialogues: an error counts as a failure."
COMPLETED_CAPTION = "Rates over completed dialogues only (errors left out)."


def counting_caption(metrics: Sequence[SystemMetrics]) -> str:
    """How the rates of `metrics` were counted, in one line."""
    completed = any(m.completed_only for m in metrics)
    return COMPLETED_CAPTION if completed else COUNTING_CAPTION


def print_table(
    metrics: Sequence[SystemMetrics],
    console: Console | None = None,
    access: RunAccess | None = None,
) -> None:
    """The metrics as a terminal table; with the run's access record, a History column and
    the shared limits under the caption."""
    ks = _ks(metrics)
    caption = counting_caption(metrics)
    if access:
        caption += "\n" + access.limits_line()
    # No outer padding: with the History column the table still fits 80 columns.
    table = Table(title="Metrics", caption=caption, pad_edge=not access)
    rows = [_cells(m, ks, access) for m in metrics]
    names = 2 if access else 1  # System (and History): kept whole, the numbers' headers wrap
    for i, header in enumerate(_headers(ks, access)):
        if i < names:
            widest = max([len(header), *(len(r[i]) for r in rows)])
            table.add_column(header, justify="left", no_wrap=True, min_width=widest)
        else:
            table.add_column(header, justify="right")
    for row in rows:  # system names from the store: data, never markup or escape sequences
        table.add_row(*(Text(terminal_line(cell)) for cell in row))
    (console or Console()).print(table)


def run_metrics(
    store: RunStore, results: Sequence[DialogueResult] | None = None
) -> list[SystemMetrics]:
    """Metrics of a stored run, systems in scenario order (meta "systems"), not finish order."""
    order: list[str] = json.loads(store.get_meta("systems") or "[]")
    metrics = stored_metrics(store) if results is None else compute_metrics(results)
    return sorted(metrics, key=lambda m: order.index(m.system) if m.system in order else len(order))


def run_catalog(run_dir: Path) -> Catalog | None:
    """The run's catalog, from its saved scenario; None when its dataset is no longer there."""
    from macrs_sim.config import load_scenario
    from macrs_sim.data.dataset import open_dataset

    try:
        return open_dataset(load_scenario(run_dir / "scenario.resolved.toml").data).catalog
    except MacrsSimError:
        return None


def store_access(store: RunStore) -> RunAccess | None:
    """The stored run's record of who knew what (None for runs made before it existed)."""
    return run_access(store.all_meta())


def behaviour_lines(store: RunStore, known: BehaviourCounts | None = None) -> list[str]:
    """The one-line warnings of a user or systems that echo or refuse (report/behaviour.py),
    from the counts a report `known` worked out, else from one pass over the store (echo and
    refusal do not depend on the target's profile, so both give the same lines)."""
    from macrs_sim.analysis.metrics.behaviour import BehaviourTally, dialogue_flags
    from macrs_sim.analysis.report.behaviour import warnings

    if known is not None:
        return warnings(*known)
    per_system: dict[str, BehaviourTally] = {}
    overall = BehaviourTally()
    for result in store.iter_results():  # one dialogue at a time: any size of run
        flags = dialogue_flags(result, ())
        per_system.setdefault(result.system, BehaviourTally()).add(flags)
        overall.add(flags)
    return warnings({s: t.freeze() for s, t in per_system.items()}, overall.freeze())

"""Reports of a run's metrics: markdown, a rich table, and the files written next to a run."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.table import Table

from macrs_sim.analysis.metrics import SystemMetrics, compute_metrics, metrics_frame
from macrs_sim.analysis.validity import (
    ValidityStats,
    render_validity_markdown,
    validity_frame,
    validity_stats,
)
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import DataError, MacrsSimError
from macrs_sim.protocol import DialogueResult, Sample
from macrs_sim.store import RunStore

_BASE_HEADERS = ["System", "Dialogues", "Errors", "Success rate", "Avg turns"]


def _ks(metrics: Sequence[SystemMetrics]) -> list[int]:
    return list(dict.fromkeys(k for m in metrics for k in m.hit_at))


def _num(value: float) -> str:
    # A system with no completed dialogue has no rates; "nan" would read as a bug.
    return "n/a" if math.isnan(value) else f"{value:.2f}"


def _headers(ks: Sequence[int]) -> list[str]:
    return _BASE_HEADERS + [f"Hit@{k}" for k in ks]


def _cells(m: SystemMetrics, ks: Sequence[int]) -> list[str]:
    hits = [_num(m.hit_at.get(k, math.nan)) for k in ks]
    return [m.system, str(m.n), str(m.n_errors), _num(m.success_rate), _num(m.avg_turns), *hits]


def render_markdown(title: str, metrics: Sequence[SystemMetrics], notes: Sequence[str] = ()) -> str:
    """A markdown report: heading, metrics table, then the notes as bullets."""
    ks = _ks(metrics)
    headers = _headers(ks)
    lines = [f"# {title}", "", "| " + " | ".join(headers) + " |"]
    lines.append("| --- |" + " ---: |" * (len(headers) - 1))
    lines += ["| " + " | ".join(_cells(m, ks)) + " |" for m in metrics]
    if notes:
        lines += ["", *(f"- {note}" for note in notes)]
    return "\n".join(lines) + "\n"


def print_table(metrics: Sequence[SystemMetrics], console: Console | None = None) -> None:
    ks = _ks(metrics)
    table = Table(title="Metrics")
    for i, header in enumerate(_headers(ks)):
        table.add_column(header, justify="left" if i == 0 else "right")
    for m in metrics:
        table.add_row(*_cells(m, ks))
    (console or Console()).print(table)


def run_metrics(
    store: RunStore, results: Sequence[DialogueResult] | None = None
) -> list[SystemMetrics]:
    """Metrics of a stored run, systems in scenario order (meta "systems"), not finish order."""
    rows = store.read_results() if results is None else results
    order: list[str] = json.loads(store.get_meta("systems") or "[]")
    metrics = compute_metrics(rows)
    return sorted(metrics, key=lambda m: order.index(m.system) if m.system in order else len(order))


def _run_catalog(run_dir: Path) -> Catalog | None:
    """The run's catalog, from its saved scenario; None when its dataset is no longer there."""
    from macrs_sim.config import load_scenario
    from macrs_sim.data.dataset import open_dataset

    try:
        return open_dataset(load_scenario(run_dir / "scenario.resolved.toml").data).catalog
    except MacrsSimError:
        return None


def _validity_section(
    results: Sequence[DialogueResult],
    samples: Sequence[Sample],
    catalog: Catalog | None,
    order: Sequence[str],
) -> tuple[str, list[ValidityStats]]:
    title = "## Simulator validity\n\n"
    if catalog is None:
        return title + "Not computed: the run's dataset could not be opened.\n", []
    try:
        stats = validity_stats(results, {s.sample_id: s for s in samples}, catalog)
    except MacrsSimError as err:
        return title + f"Not computed: {err}\n", []
    # Scenario order like the metrics table, the overall row last.
    stats.sort(key=lambda v: order.index(v.system) if v.system in order else len(order))
    return render_validity_markdown(stats), stats


def write_report(run_dir: Path, catalog: Catalog | None = None) -> Path:
    """Write `report.md`, `results.csv` and `validity.csv` for a run; return the report path."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise DataError(f"{run_dir}: run directory not found")
    with RunStore.open(run_dir / "store.sqlite") as store:
        results = store.read_results()
        samples = store.read_samples()
        calls = store.read_calls()
        title = store.get_meta("scenario_name") or "Run report"
        metrics = run_metrics(store, results)
    errors = sum(m.n_errors for m in metrics)
    prompt = sum(c.prompt_tokens for c in calls)
    completion = sum(c.completion_tokens for c in calls)
    notes = [
        f"{len(results)} dialogues, {errors} ended in an error (left out of every rate).",
        f"{len(calls)} LLM calls, {prompt + completion} tokens "
        f"({prompt} prompt, {completion} completion).",
    ]
    order = [m.system for m in metrics]
    section, stats = _validity_section(results, samples, catalog or _run_catalog(run_dir), order)
    report = run_dir / "report.md"
    report.write_text(render_markdown(title, metrics, notes) + "\n" + section, encoding="utf-8")
    metrics_frame(metrics).to_csv(run_dir / "results.csv", index=False)
    if stats:
        validity_frame(stats).to_csv(run_dir / "validity.csv", index=False)
    return report

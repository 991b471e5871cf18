"""The paper's §5 for one run or several: report.md with figures, CSV tables, from stores alone.

    build_report([load_run(a), load_run(b)], Path("reports/cmp"), ReportOptions(reference="MACRS"))

Writes `report.md`, `figures/*.png` (Figures 4-6 and the act-transition graphs),
`tables/*.csv` (every table of the report, `results_completed_only.csv` among them),
`results.csv` and `validity.csv`, each atomically (a killed report leaves no half file).
Every headline number counts all dialogues, an error as a failure (see `metrics.outcomes`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from macrs_sim.analysis.atomic import write_csv_atomic, write_text_atomic
from macrs_sim.analysis.figures import plots
from macrs_sim.analysis.figures.transition_plot import plot_transition_graphs
from macrs_sim.analysis.markdown import markdown_table
from macrs_sim.analysis.metrics import acts, transitions
from macrs_sim.analysis.metrics.call_tally import CallTally
from macrs_sim.analysis.metrics.cost import render_cost_tables, run_prices
from macrs_sim.analysis.metrics.outcomes import metrics_frame, metrics_from_dialogues
from macrs_sim.analysis.metrics.table1 import render_table1_markdown, table1
from macrs_sim.analysis.metrics.usage import render_usage_markdown, usage_table
from macrs_sim.analysis.realism.section import realism_section
from macrs_sim.analysis.report.alike import RunGroup, differences, group_runs, refusal
from macrs_sim.analysis.report.sections import (
    case_study_section,
    completed_section,
    judge_section,
    runs_section,
    summary_section,
    validity_section,
)
from macrs_sim.analysis.report.split import render_split_index, split_note
from macrs_sim.analysis.report.summary import run_catalog
from macrs_sim.analysis.runs.calls import llm_usage, tally_calls
from macrs_sim.analysis.runs.combine import Comparison, combine_runs
from macrs_sim.analysis.runs.load import RunData, load_run
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.popularity import bucket_labels
from macrs_sim.errors import DataError
from macrs_sim.textsafe import markdown_cell

CatalogFor = Callable[[RunData], Catalog | None]


@dataclass(frozen=True)
class ReportOptions:
    title: str | None = None
    # Table 1's significance tests compare every system with this one (default: the first).
    reference: str | None = None
    # Dialogue ids to render as case studies; default: Figure 7's pick.
    case_ids: Sequence[str] = ()
    explain: bool = False
    n_resamples: int = 2000
    seed: int = 0
    extra_notes: Sequence[str] = field(default_factory=tuple)
    # Runs whose protocols differ (report/alike.py) are refused; split: one report per group.
    split: bool = False


def _bucket_order(cmp: Comparison) -> list[str]:
    seen = [b for b in cmp.dialogues["bucket"].dropna().unique()]
    for run in cmp.runs:
        edges = run.scenario.get("data", {}).get("popularity_buckets")
        if edges:
            labels = bucket_labels(edges)
            return labels + sorted(b for b in seen if b not in labels)
    return sorted(seen)


def _reference(cmp: Comparison, wanted: str | None) -> str | None:
    names = cmp.system_names
    if wanted is None:
        return names[0] if names else None
    if wanted not in names:
        raise DataError(f"--reference {wanted!r} is not one of the systems: {', '.join(names)}")
    return wanted


def _img(label: str, path: Path, out: Path) -> str:
    return f"![{label}]({path.relative_to(out).as_posix()})"


def _cumulative_table(cum: pd.DataFrame, names: Sequence[str]) -> list[str]:
    pivot = cum.pivot(index="system", columns="turn", values="successes").reindex(names)
    headers = ["System", *(f"T={t}" for t in pivot.columns)]
    rows = [[str(system), *(str(int(v)) for v in row)] for system, row in pivot.iterrows()]
    return markdown_table(headers, rows)


def _figures(cmp: Comparison, out: Path, tables: dict[str, pd.DataFrame]) -> list[str]:
    figs = out / "figures"
    figs.mkdir(parents=True, exist_ok=True)
    names = cmp.system_names
    max_turns = max((r.max_turns for r in cmp.runs if r.finished), default=5)
    ratios = acts.act_ratios(cmp.turns, names)
    cum = acts.cumulative_successes(cmp.dialogues, names, max_turns)
    tables |= {"act_ratios": ratios, "cumulative_successes": cum}
    md = ["## Dialogue acts at each turn (Figure 4)", ""]
    if ratios.empty:
        md += ["No system turns were recorded.", ""]
    else:
        fig4 = plots.plot_act_ratios(ratios, figs / "fig4_act_ratios.png")
        md += [_img("Figure 4", fig4, out), ""]
    fig5 = plots.plot_cumulative_successes(cum, figs / "fig5_cumulative_successes.png")
    md += ["## Cumulative successes (Figure 5)", "", _img("Figure 5", fig5, out), ""]
    md += _cumulative_table(cum, names)
    buckets = _bucket_order(cmp)
    if buckets:
        perf = acts.bucket_performance(cmp.dialogues, names, buckets)
        tables["popularity"] = perf
        fig6 = plots.plot_bucket_performance(perf, figs / "fig6_popularity.png")
        md += ["", "## Success by target popularity (Figure 6)", "", _img("Figure 6", fig6, out)]
    return md


def _transitions(cmp: Comparison, out: Path, tables: dict[str, pd.DataFrame]) -> list[str]:
    names = [n for n in cmp.system_names if n in set(cmp.turns["system"])]
    if not names:
        return []
    frame = transitions.transition_frame(cmp.turns, names)
    stats = transitions.act_sequence_stats(cmp.turns, names)
    tables |= {
        "transitions": frame,
        "act_sequence_stats": stats,
        "turn_entropy": transitions.turn_entropy_frame(cmp.turns, names),
    }
    graphs = {n: transitions.transition_graph(cmp.turns, n) for n in names}
    path = plot_transition_graphs(graphs, out / "figures" / "act_transitions.png")
    section = transitions.render_transitions_markdown(frame, stats).rstrip("\n").split("\n")
    return [section[0], "", _img("Act transitions", path, out), *section[1:]]


def build_report(
    runs: Sequence[RunData],
    out: Path,
    options: ReportOptions = ReportOptions(),
    catalog_for: CatalogFor | None = None,
) -> Path:
    """The report over `runs` in `out`; its report.md.

    Runs whose protocols differ (report/alike.py: max_turns, final_list_k, max_items_per_turn,
    the simulator, each system's history, prompt files) are refused with a DataError naming
    every difference, before anything is written; with `options.split`, each group of runs
    that agree gets its own full report in `out/group-N/` and `out/report.md` indexes them.
    """
    if not runs:
        raise DataError("no runs to report on")
    groups = group_runs(runs)
    if len(groups) == 1:
        cmp = combine_runs(runs)
        return _write_report(cmp, out, options, catalog_for, _read_calls(cmp))
    if not options.split:
        raise DataError(refusal(differences(runs)))
    return _write_split(runs, groups, out, options, catalog_for)


def _default_title(runs: Sequence[RunData]) -> str:
    return runs[0].name if len(runs) == 1 else "Comparison: " + ", ".join(r.name for r in runs)


def _read_calls(cmp: Comparison) -> CallTally:
    """Every model and tool call read before anything is written: a damaged row is one
    error and no file."""
    calls = tally_calls(cmp, run_prices(r.scenario for r in cmp.runs))
    cmp.tool_calls  # noqa: B018 (read now: the summary and usage tables need it)
    return calls


def _write_report(
    cmp: Comparison,
    out: Path,
    options: ReportOptions,
    catalog_for: CatalogFor | None,
    calls: CallTally,
) -> Path:
    runs = cmp.runs
    out.mkdir(parents=True, exist_ok=True)
    reference = _reference(cmp, options.reference)
    tables: dict[str, pd.DataFrame] = {}
    t1 = table1(
        cmp.dialogues,
        cmp.systems,
        reference=reference,
        paired=cmp.paired,
        n_resamples=options.n_resamples,
        seed=options.seed,
    )
    tables["table1"] = t1
    title = options.title or _default_title(runs)
    prices = calls.prices
    metrics = metrics_from_dialogues(cmp.dialogues)
    metrics.sort(key=lambda m: cmp.system_names.index(m.system))
    completed = metrics_from_dialogues(cmp.dialogues, completed_only=True)
    completed.sort(key=lambda m: cmp.system_names.index(m.system))
    tables["results_completed_only"] = metrics_frame(completed)
    md = [
        f"# {markdown_cell(title)}",  # a scenario's name from the store: data
        "",
        *runs_section(cmp, [*options.extra_notes]),
        "",
        summary_section(metrics, cmp, calls),
        "## Results (Table 1)",
        "",
    ]
    md += [
        render_table1_markdown(
            t1, reference=reference, paired=cmp.paired, n_resamples=options.n_resamples
        ).rstrip("\n"),
        "",
        completed_section(completed),
    ]
    md += [*_figures(cmp, out, tables), "", *_transitions(cmp, out, tables)]
    md += ["", judge_section(cmp, tables), validity_section(cmp, out, catalog_for)]
    md += realism_section(runs, out, catalog_for)
    per_turn = calls.table(["system", "turn"], turns_only=True)
    md += [render_cost_tables(calls.table(["system"]), calls.table(["system", "role"]), per_turn,
                              prices)]  # fmt: skip
    for by in (["system"], ["system", "role"], ["system", "turn"]):
        tables["cost_by_" + "_".join(by)] = calls.table(by)
    usage = usage_table(cmp.dialogues, cmp.turns, llm_usage(cmp), cmp.tool_calls, cmp.system_names)
    tables["calls_per_turn"] = usage
    md += [render_usage_markdown(usage)]
    md += [case_study_section(cmp, options.case_ids, options.explain, catalog_for)]
    for name, frame in tables.items():
        write_csv_atomic(frame, out / "tables" / f"{name}.csv")
    write_csv_atomic(metrics_frame(metrics), out / "results.csv")
    return write_text_atomic(out / "report.md", "\n".join(md).rstrip("\n") + "\n")


def _group_options(
    groups: Sequence[RunGroup], cmps: Sequence[Comparison], options: ReportOptions, title: str
) -> list[ReportOptions]:
    """Each group's options: its title, a note on the split, the --reference and --case
    that are in it. Checked before anything is written: one in no group is an error."""
    wanted, n = options.reference, len(cmps)
    if wanted is not None and not any(wanted in c.system_names for c in cmps):
        names = ", ".join(dict.fromkeys(s for c in cmps for s in c.system_names))
        raise DataError(f"--reference {wanted!r} is not one of the systems: {names}")
    ids = [set(c.dialogues["dialogue_id"]) for c in cmps]
    missing = [d for d in options.case_ids if not any(d in group for group in ids)]
    if missing:
        raise DataError(f"--case {missing[0]!r}: no such dialogue in any group")
    out = []
    for i, (group, cmp, group_ids) in enumerate(zip(groups, cmps, ids, strict=True), start=1):
        notes = [f"Group {i} of {n} of a split comparison: {split_note(group)}"]
        reference = wanted if wanted in cmp.system_names else None
        if wanted is not None and reference is None:
            notes.append(f"{wanted} is not in this group: the tests compare with its first system.")
        out.append(
            replace(
                options,
                title=f"{title}: group {i} of {n}",
                reference=reference,
                case_ids=tuple(d for d in options.case_ids if d in group_ids),
                extra_notes=(*options.extra_notes, *notes),
            )
        )
    return out


def _write_split(
    runs: Sequence[RunData],
    groups: Sequence[RunGroup],
    out: Path,
    options: ReportOptions,
    catalog_for: CatalogFor | None,
) -> Path:
    cmps = [combine_runs(g.runs) for g in groups]
    title = options.title or _default_title(runs)
    per_group = _group_options(groups, cmps, options, title)
    calls = [_read_calls(cmp) for cmp in cmps]
    paths = [
        _write_report(cmp, out / f"group-{i}", opts, catalog_for, tally)
        for i, (cmp, opts, tally) in enumerate(zip(cmps, per_group, calls, strict=True), start=1)
    ]
    text = render_split_index(title, differences(runs), groups, cmps, paths, out)
    return write_text_atomic(out / "report.md", text)


def write_report(
    run_dir: Path, catalog: Catalog | None = None, *, run: RunData | None = None, **options: Any
) -> Path:
    """Write the full report (report.md, figures/, tables/, CSVs) into a run directory
    (`run`: the run already loaded from it, so it is read once)."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise DataError(f"{run_dir}: run directory not found")
    if not (run_dir / "store.sqlite").is_file():
        raise DataError(f"{run_dir}: not a run directory (no store.sqlite)")
    run = run if run is not None and run.path == run_dir else load_run(run_dir)
    title = run.meta.get("scenario_name", "Run report")
    opts = ReportOptions(**{"title": title, **options})
    return build_report([run], run_dir, opts, lambda r: catalog or run_catalog(r.path))

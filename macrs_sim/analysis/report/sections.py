"""Sections of the full report that are not a table or figure of their own module."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from macrs_sim.analysis.atomic import write_csv_atomic
from macrs_sim.analysis.metrics.call_tally import CallTally
from macrs_sim.analysis.metrics.outcomes import SystemMetrics
from macrs_sim.analysis.metrics.validity import ValidityStats, validity_stats
from macrs_sim.analysis.report.summary import render_markdown
from macrs_sim.analysis.report.transcript import pick_case_ids, render_transcript
from macrs_sim.analysis.report.validity import render_validity_markdown, validity_frame
from macrs_sim.analysis.runs.access import RunAccess, merged_access, run_access
from macrs_sim.analysis.runs.combine import Comparison
from macrs_sim.analysis.runs.domain import shared_domain
from macrs_sim.analysis.runs.load import RunData
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import DataError, MacrsSimError
from macrs_sim.textsafe import markdown_cell, markdown_code

CatalogFor = Callable[[RunData], Catalog | None]


def _model(run: RunData) -> str:
    model = run.scenario.get("model", {})
    name = model.get("model") or model.get("path") or "default"
    return markdown_cell(f"{model.get('backend', '?')} ({name})") if model else "?"


def runs_section(cmp: Comparison, notes: list[str]) -> list[str]:
    lines = [
        "| Run | Directory | Systems | Dialogues | Dataset | Model |",
        "| --- | --- | --- | ---: | --- | --- |",
    ]
    for run in cmp.runs:
        done = f"{run.finished}/{run.expected}" + ("" if run.complete else " (partial)")
        dataset = run.meta.get("dataset", run.scenario.get("data", {}).get("dataset", "?"))
        systems = ", ".join(run.system_names)
        # Names from the run's files: data, shown as typed (textsafe).
        name, folder = markdown_cell(run.name), markdown_code(run.path.name)
        shown = f"{markdown_cell(systems)} | {done} | {markdown_cell(str(dataset))}"
        lines.append(f"| {name} | {folder} | {shown} | {_model(run)} |")
    all_notes = [*(markdown_cell(n) for n in cmp.notes), *notes]  # cmp's notes name runs
    if cmp.paired and len(cmp.runs) > 1:
        all_notes.append("All runs used the same sample set: the significance tests are paired.")
    errors = int((cmp.dialogues["status"] == "error").sum())
    if errors:
        all_notes.append(
            f"{errors} dialogue(s) ended in an error; they count as failures in every "
            'headline number (see "Completed dialogues only" for the view without them).'
        )
    return lines + ([""] + [f"- {n}" for n in all_notes] if all_notes else [])


def summary_section(metrics: Sequence[SystemMetrics], cmp: Comparison, calls: CallTally) -> str:
    """The at-a-glance table (no intervals), with the run's size and token bill."""
    prompt, completion = calls.prompt_tokens, calls.completion_tokens
    errors = sum(m.n_errors for m in metrics)
    notes = [
        f"{len(cmp.dialogues)} dialogues, {errors} ended in an error. Every rate divides by all "
        "of a system's dialogues, as the paper divides by all N test samples: an error counts "
        "as a failure (max_turns + 1 turns, no hit).",
        f"{calls.n} LLM calls, {prompt + completion} tokens "
        f"({prompt} prompt, {completion} completion).",
    ]
    tools = cmp.tool_calls
    if not tools.empty:
        failed = int((~tools["ok"].astype(bool)).sum())
        notes.append(f"{len(tools)} tool calls, {failed} returned an error.")
    table = render_markdown("", metrics, notes, comparison_access(cmp)).split("\n", 2)[2]
    return "## Summary\n\n" + table


def comparison_access(cmp: Comparison) -> RunAccess | None:
    """Who knew what, for the systems as the comparison names them (None for older runs)."""
    shared = merged_access([run_access(run.meta) for run in cmp.runs])
    if shared is None:
        return None
    return replace(shared, history={s.name: s.history for s in cmp.systems})


def completed_section(completed: Sequence[SystemMetrics]) -> str:
    """The secondary view: the same metrics over the dialogues that ended without an error."""
    title = "## Completed dialogues only (secondary)\n\n"
    errors = sum(m.n_errors for m in completed)
    if not errors:
        return title + "No dialogue ended in an error: this view equals the summary above.\n"
    note = (
        f"The {errors} dialogue(s) that ended in an error are left out here, so each system "
        "is scored on its own subset of the samples; the headline numbers above count them "
        "as failures. Also in tables/results_completed_only.csv."
    )
    return title + render_markdown("", completed, [note]).split("\n", 2)[2]


def judge_section(cmp: Comparison, tables: dict[str, pd.DataFrame]) -> str:
    from macrs_sim.judge import judge_table, read_judgments, render_table2_markdown
    from macrs_sim.judge.checks import judge_warning

    records = [rec for run in cmp.runs for rec in read_judgments(run.path)]
    if not records:
        return ""
    frame = judge_table(records)
    tables["judge"] = frame
    text = render_table2_markdown(frame).rstrip("\n") + "\n"
    warned = judge_warning(records)
    return text if warned is None else text + f"\n**{warned}**\n"


def _run_validity(run: RunData, cmp: Comparison, catalog: Catalog) -> list[ValidityStats]:
    if len(cmp.runs) == 1 and run.validity is not None:  # worked out as the run was loaded
        if isinstance(run.validity, Exception):
            raise run.validity
        return list(run.validity)
    results = cmp.results.of_run(run, cmp.results.labels[cmp.runs.index(run)])
    with run.sample_reader() as samples:
        stats = validity_stats(results, samples, catalog, run.domain)
    if len(cmp.runs) > 1:
        return [s for s in stats if s.system != "all"]
    *systems, overall = stats
    run.behaviour = ({s.system: s.behaviour for s in systems}, overall.behaviour)
    return stats


def validity_section(cmp: Comparison, out: Path, catalog_for: CatalogFor | None) -> str:
    title = "## Simulator validity\n\n"
    stats: list[ValidityStats] = []
    for run in cmp.runs:
        catalog = catalog_for(run) if catalog_for else None
        if catalog is None:
            name = markdown_cell(run.name)
            return title + f"Not computed: the dataset of run {name} could not be opened.\n"
        try:
            stats += _run_validity(run, cmp, catalog)
        except MacrsSimError as err:
            return title + f"Not computed: {markdown_cell(str(err))}\n"
    order = cmp.system_names
    stats.sort(key=lambda v: order.index(v.system) if v.system in order else len(order))
    write_csv_atomic(validity_frame(stats), out / "validity.csv")
    return render_validity_markdown(stats, shared_domain([run.domain for run in cmp.runs]))


def case_study_section(
    cmp: Comparison, case_ids: Sequence[str], explain: bool, catalog_for: CatalogFor | None
) -> str:
    known_ids = cmp.origin if case_ids else {}
    missing = [d for d in case_ids if d not in known_ids]
    if missing:
        known = ", ".join(list(known_ids)[:3])
        raise DataError(f"--case {missing[0]!r}: no such dialogue (ids look like {known})")
    ids = list(case_ids) or pick_case_ids(cmp.dialogues, cmp.system_names)
    picked = cmp.results_by_ids(ids)
    if not picked:
        return ""
    catalog = catalog_for(cmp.runs[0]) if catalog_for else None
    parts = ["## Case studies (Figure 7)", ""]
    for result in picked:
        parts += [render_transcript(result, cmp.samples_of(result), catalog, explain=explain), ""]
    return "\n".join(parts)

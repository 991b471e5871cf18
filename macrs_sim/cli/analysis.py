"""`macrs-sim report`, `compare`: the paper's tables and figures from run stores alone."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from rich.console import Console

console = Console(markup=False, highlight=False)


def _options(args: argparse.Namespace) -> dict[str, Any]:
    opts: dict[str, Any] = {"explain": args.explain, "case_ids": tuple(args.case or ())}
    if args.reference:
        opts["reference"] = args.reference
    return opts


def _print_summary(report: Path) -> None:
    console.print(f"report: {report}")
    console.print(f"figures: {report.parent / 'figures'}   tables: {report.parent / 'tables'}")


def _report(args: argparse.Namespace) -> int:
    from macrs_sim.analysis.memory import give_back_freed_memory
    from macrs_sim.analysis.report.for_report import load_for_report
    from macrs_sim.analysis.report.full import write_report
    from macrs_sim.analysis.report.summary import (
        behaviour_lines,
        print_table,
        run_catalog,
        run_metrics,
        store_access,
    )
    from macrs_sim.textsafe import terminal_line

    give_back_freed_memory()  # freed numpy temporaries go back (analysis/memory.py)
    given = Path(args.run)
    catalog = run_catalog(given.parent if given.name == "store.sqlite" else given)
    run = load_for_report(given, catalog)  # one line for a missing or foreign directory
    if not run.complete:
        console.print(
            f"note: partial run, {run.finished} of {run.expected} dialogues finished "
            f"({run.missing} missing); reporting on what finished"
        )
    path = write_report(run.path, catalog, run=run, **_options(args))
    with run.store() as store:
        print_table(run_metrics(store), Console(), store_access(store))
        for line in behaviour_lines(store, run.behaviour):
            print(terminal_line(line))  # one line, never wrapped; names from the store
    _print_summary(path)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from macrs_sim.analysis.memory import give_back_freed_memory
    from macrs_sim.analysis.report.alike import group_runs
    from macrs_sim.analysis.report.full import ReportOptions, build_report
    from macrs_sim.analysis.report.summary import run_catalog
    from macrs_sim.analysis.runs.load import load_run

    give_back_freed_memory()  # freed numpy temporaries go back (analysis/memory.py)
    runs = [load_run(Path(p)) for p in args.runs]
    out = Path(args.out or f"reports/compare-{time.strftime('%Y%m%d-%H%M%S')}")
    options = ReportOptions(title=args.title, split=args.split, **_options(args))
    # Runs whose protocols differ are refused here (one line, nothing written) unless --split.
    path = build_report(runs, out, options, lambda r: run_catalog(r.path))
    from macrs_sim.textsafe import terminal_line

    for run in runs:  # names and values from the runs' files: data, never escape sequences
        if not run.complete:
            done = f"{run.finished}/{run.expected} dialogues"
            console.print(terminal_line(f"note: {run.name} is partial ({done})"))
    groups = group_runs(runs)
    if len(groups) == 1:
        _print_summary(path)
        return 0
    console.print(f"report: {path} (one group per protocol)")
    for i, group in enumerate(groups, start=1):
        report = path.parent / f"group-{i}" / "report.md"
        console.print(terminal_line(f"group {i}: {report}  {group.heading()}"), soft_wrap=True)
    return 0


def _judge(args: argparse.Namespace) -> int:
    import asyncio

    from macrs_sim.analysis.report.full import write_report
    from macrs_sim.analysis.runs.load import load_run
    from macrs_sim.campaign.judging import judge_campaign
    from macrs_sim.campaign.setup import CampaignSetup
    from macrs_sim.config import load_scenario
    from macrs_sim.judge import judge_table, read_judgments, render_table2_markdown
    from macrs_sim.llm.factory import preflight

    run = load_run(Path(args.run))
    scenario = load_scenario(run.path / "scenario.resolved.toml")
    setup = CampaignSetup.from_scenario(scenario)

    async def judge() -> int:
        try:
            for cfg in setup.model_configs():
                await preflight(cfg)
            return len(await judge_campaign(setup, run.path, max_pairs=args.max_pairs))
        finally:
            await setup.close()

    n = asyncio.run(judge())
    console.print(f"judged {n} new pair(s)")
    console.print(render_table2_markdown(judge_table(read_judgments(run.path))))
    _print_summary(write_report(run.path))
    return 0


def _shared(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reference", help="system the t-tests compare against (default: the first)")
    p.add_argument("--case", action="append", help="a dialogue id to show as a case study")
    p.add_argument(
        "--explain", action="store_true", help="case studies show candidates, planner, profile"
    )


def add_analysis_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    report = sub.add_parser("report", help="tables, figures and report.md for a run")
    report.add_argument("run", help="a run directory")
    _shared(report)
    report.set_defaults(func=_report)
    compare = sub.add_parser("compare", help="one report over several runs")
    compare.add_argument("runs", nargs="+", help="run directories")
    compare.add_argument("--out", help="output folder (default: reports/compare-<time>)")
    compare.add_argument("--title", help="report title")
    compare.add_argument(
        "--split",
        action="store_true",
        help="runs whose protocols differ: one report per protocol (default: refuse)",
    )
    _shared(compare)
    compare.set_defaults(func=_compare)
    judge = sub.add_parser(
        "judge", help="Table 2: judge replies with vs without strategy suggestions in a run"
    )
    judge.add_argument("run", help="a run directory with MACRS dialogues")
    judge.add_argument("--max-pairs", type=int, help="judge at most this many turn pairs")
    judge.set_defaults(func=_judge)

"""`macrs-sim run SCENARIO`: a campaign from a scenario file."""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from macrs_sim.errors import ConfigError
from macrs_sim.textsafe import terminal_line

INCOMPLETE = 3  # `run` ended with dialogues left to do: the same command continues it


def _run(args: argparse.Namespace) -> int:
    # The scenario is checked before the campaign's modules (the model clients) are
    # imported: a bad file is one line at once, not after two seconds of imports.
    from macrs_sim.config import load_scenario, output_dir_option

    scenario = load_scenario(args.scenario)
    if args.executor:
        campaign = scenario.campaign.model_copy(update={"executor": args.executor})
        scenario = scenario.model_copy(update={"campaign": campaign})
    output = output_dir_option(args.output_dir)
    if output is not None and output.exists() and not output.is_dir():
        raise ConfigError(f"--output-dir {output}: not a folder (expected where runs go)")

    from rich.console import Console

    from macrs_sim.analysis.report.summary import behaviour_lines, print_table, store_access
    from macrs_sim.campaign.runner import CampaignInterrupted, run_campaign_async
    from macrs_sim.store import RunStore

    console = Console()
    try:
        result = asyncio.run(
            run_campaign_async(
                scenario,
                output_dir=output,
                progress=not args.no_progress,
                resume=not args.no_resume,
                notify=lambda line: print(terminal_line(line), file=sys.stderr),
                retry_errors=args.retry_errors,
            )
        )
    except CampaignInterrupted as stop:
        print(stop, file=sys.stderr)
        return 130
    with RunStore.open(result.store_path) as store:
        access = store_access(store)
        warned = behaviour_lines(store) if result.warnings is None else list(result.warnings)
    print_table(result.metrics, console, access)
    for line in warned:
        print(terminal_line(line))  # print: no markup; terminal_line: names from the store
    done = f"{result.stored} of {result.expected} dialogues stored"
    if result.status == "stopped_budget":
        print(
            f"budget reached: {result.spend.describe()}; {done}; raise the budget and run"
            f" the same command again to continue ({result.run_dir})"
        )
    elif result.status == "incomplete":
        missing = result.expected - result.stored
        print(
            f"incomplete: {done}; {missing} not stored (the server failed or went away);"
            f" run the same command again to run them ({result.run_dir})"
        )
    ended = "finished" if result.status == "finished" else "stopped"
    console.print(f"{ended} in {result.wall_s:.0f} s")
    console.print(f"run directory: {result.run_dir}")
    console.print(f"report: {result.report_path}")
    return INCOMPLETE if result.status == "incomplete" else 0


def add_run_command(sub: argparse._SubParsersAction[Any]) -> None:
    run = sub.add_parser("run", help="run a campaign from a scenario file")
    run.add_argument("scenario")
    run.add_argument("--output-dir", help="where run directories go (default: the scenario's)")
    run.add_argument("--no-progress", action="store_true", help="no progress bars")
    run.add_argument(
        "--no-resume",
        action="store_true",
        help="start a new run even if an unfinished run of this scenario is there",
    )
    run.add_argument(
        "--retry-errors",
        action="store_true",
        help="run again the dialogues of the run stored as errors (of a finished run too)",
    )
    run.add_argument(
        "--executor", choices=["local", "ray"], help="where dialogues run (default: the scenario's)"
    )
    run.set_defaults(func=_run)

"""`macrs-sim`: thin commands over the Python API. Errors end in one line, no traceback."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from rich.console import Console

from macrs_sim.cli_analysis import add_analysis_commands
from macrs_sim.cli_data import add_data_commands
from macrs_sim.errors import MacrsSimError

console = Console()


def _run(args: argparse.Namespace) -> int:
    from macrs_sim.analysis.report import print_table
    from macrs_sim.campaign.runner import run_campaign_async
    from macrs_sim.config import load_scenario

    scenario = load_scenario(args.scenario)
    output = Path(args.output_dir) if args.output_dir else None
    result = asyncio.run(
        run_campaign_async(scenario, output_dir=output, progress=not args.no_progress)
    )
    print_table(result.metrics, console)
    console.print(f"finished in {result.wall_s:.0f} s")
    console.print(f"run directory: {result.run_dir}")
    console.print(f"report: {result.report_path}")
    return 0


def _models_check(args: argparse.Namespace) -> int:
    from macrs_sim.campaign.setup import CampaignSetup
    from macrs_sim.config import load_scenario
    from macrs_sim.llm.factory import preflight

    setup = CampaignSetup.from_scenario(load_scenario(args.scenario))
    for cfg in setup.model_configs():
        asyncio.run(preflight(cfg))
        console.print(f"ok: {cfg.backend} model reachable")
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="macrs-sim", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a campaign from a scenario file")
    run.add_argument("scenario")
    run.add_argument("--output-dir", help="where run directories go (default: the scenario's)")
    run.add_argument("--no-progress", action="store_true", help="no progress bars")
    run.set_defaults(func=_run)
    add_analysis_commands(sub)
    models = sub.add_parser("models", help="model backends").add_subparsers(
        dest="models_cmd", required=True
    )
    check = models.add_parser("check", help="check that a scenario's models can be reached")
    check.add_argument("scenario")
    check.set_defaults(func=_models_check)
    add_data_commands(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except MacrsSimError as err:
        # Plain print: one unwrapped line whatever the terminal width.
        print(f"error: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

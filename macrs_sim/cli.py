"""`macrs-sim`: thin commands over the Python API. Errors end in one line, no traceback."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

from rich.console import Console

from macrs_sim.cli_analysis import add_analysis_commands
from macrs_sim.cli_chat import add_chat_command
from macrs_sim.cli_data import add_data_commands
from macrs_sim.cli_models import add_model_commands
from macrs_sim.cli_serve import add_serve_commands
from macrs_sim.cli_view import add_view_command
from macrs_sim.errors import ConfigError, MacrsSimError
from macrs_sim.textsafe import terminal_line

console = Console()
INCOMPLETE = 3  # `run` ended with dialogues left to do: the same command continues it


def _run(args: argparse.Namespace) -> int:
    from macrs_sim.analysis.report.summary import behaviour_lines, print_table, store_access
    from macrs_sim.campaign.runner import CampaignInterrupted, run_campaign_async
    from macrs_sim.config import load_scenario, output_dir_option
    from macrs_sim.store import RunStore

    scenario = load_scenario(args.scenario)
    if args.executor:
        campaign = scenario.campaign.model_copy(update={"executor": args.executor})
        scenario = scenario.model_copy(update={"campaign": campaign})
    output = output_dir_option(args.output_dir)
    if output is not None and output.exists() and not output.is_dir():
        raise ConfigError(f"--output-dir {output}: not a folder (expected where runs go)")
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


def _models_check(args: argparse.Namespace) -> int:
    from macrs_sim.campaign.setup import CampaignSetup
    from macrs_sim.config import load_scenario
    from macrs_sim.llm.factory import preflight

    setup = CampaignSetup.from_scenario(load_scenario(args.scenario))
    for cfg in setup.model_configs():
        # print: a server's words are no markup; terminal_line: nor control codes
        asyncio.run(preflight(cfg, notify=lambda line: print(terminal_line(line))))
        console.print(f"ok: {cfg.backend} model reachable")
    return 0


class _OneLineParser(argparse.ArgumentParser):
    """A usage mistake is one line too (argparse would print the whole usage first)."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {self.prog}: {message} (see {self.prog} --help)", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _OneLineParser(prog="macrs-sim", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
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
    add_analysis_commands(sub)
    models = sub.add_parser("models", help="model backends").add_subparsers(
        dest="models_cmd", required=True
    )
    check = models.add_parser("check", help="check that a scenario's models can be reached")
    check.add_argument("scenario")
    check.set_defaults(func=_models_check)
    add_model_commands(sub, models)
    add_data_commands(sub)
    add_serve_commands(sub)
    add_view_command(sub)
    add_chat_command(sub)
    return parser


def describe_os_error(err: OSError) -> str:
    """One line: the path, what the system said, and what to look at."""
    where = " -> ".join(str(f) for f in (err.filename, err.filename2) if f is not None)
    what = " ".join((err.strerror or str(err) or type(err).__name__).split())
    if isinstance(err, NotADirectoryError | FileExistsError):
        hint = "part of this path is a file where a folder is needed"
    else:
        hint = "a file or folder could not be read, made or written"
    return f"{where}: {what} ({hint})" if where else f"{what} ({hint})"


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except MacrsSimError as err:
        # Plain print: one unwrapped line whatever the terminal width. A server's or a model's
        # words in it are data: no control code reaches the terminal (macrs_sim/textsafe.py).
        print(f"error: {terminal_line(str(err))}", file=sys.stderr)
        return 2
    except OSError as err:  # a folder that cannot be made or written, a full disk, /proc
        print(f"error: {terminal_line(describe_os_error(err))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

"""`eval interecagent session RUN|SCENARIO`: Hit@k and AT@k of a run's dialogues (paper §4.1)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent.cli_common import parse_ks, print_frame


def session_command(args: argparse.Namespace) -> int:
    from macrs_sim.analysis.runs.load import load_run
    from macrs_sim.evaluation.interecagent.session import (
        items_line,
        run_notes,
        run_session_metrics,
        session_title,
    )

    ks = parse_ks(args.k)
    target, code = Path(args.run), 0
    if target.suffix == ".toml":
        ran = _run_scenario(args, ks)
        if ran is None:
            return 130
        target, code = ran
    run = load_run(target)
    frame = run_session_metrics(run, ks)
    print_frame(frame, session_title(run))
    for line in [*run_notes(run), items_line(run)]:
        print(line)
    return code


def _run_scenario(args: argparse.Namespace, ks: list[int]) -> tuple[Path, int] | None:
    """Run the scenario as this protocol does (the paper's items a turn, said first), like
    `macrs-sim run` (resumed if unfinished); the run's directory and the exit code (None:
    interrupted, the same command resumes it)."""
    from macrs_sim.campaign.runner import CampaignInterrupted, run_campaign_async
    from macrs_sim.config import load_scenario
    from macrs_sim.evaluation.interecagent.session import (
        check_ks,
        paper_protocol,
        paper_sampling,
    )

    scenario, line = paper_protocol(load_scenario(args.run))
    scenario, target_line = paper_sampling(scenario)
    check_ks(ks, scenario.protocol.max_turns)
    print(line)
    print(target_line)
    output = Path(args.output_dir) if args.output_dir else None
    if output is not None and output.exists() and not output.is_dir():
        raise ConfigError(f"--output-dir {output}: not a folder (expected where runs go)")
    try:
        result = asyncio.run(run_campaign_async(
            scenario, output_dir=output, progress=not args.no_progress,
            notify=lambda news: print(news, file=sys.stderr),
        ))  # fmt: skip
    except CampaignInterrupted as stop:
        print(stop, file=sys.stderr)
        return None
    print(f"run directory: {result.run_dir}")
    if result.status != "finished":
        print(f"{result.status}: {result.stored} of {result.expected} dialogues stored; the"
              " same command continues the run")  # fmt: skip
        return result.run_dir, 3
    return result.run_dir, 0

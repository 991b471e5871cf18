"""`eval interecagent demos`: demonstrations generated from the seeds (paper §3.3)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.interecagent.cli_common import MAX_DEMO_COUNT, calls_line

if TYPE_CHECKING:
    from macrs_sim.agents.interecagent.demos import Demonstration
    from macrs_sim.evaluation.interecagent.demo_gen import DemoCandidate
    from macrs_sim.llm.accounting import CallLog


def demos_command(args: argparse.Namespace) -> int:
    from macrs_sim.agents.interecagent.demos import load_seed_demonstrations
    from macrs_sim.evaluation.interecagent.demo_output import summary_line, write_demo_file
    from macrs_sim.llm.accounting import CallLog

    if not 1 <= args.count <= MAX_DEMO_COUNT:
        raise ConfigError(
            f"--count {args.count}: expected a positive number of requests,"
            f" at most {MAX_DEMO_COUNT}"
        )
    out = Path(args.out)
    if out.is_dir():
        raise ConfigError(f"--out {out}: a folder; expected the demonstration file's name")
    seeds = load_seed_demonstrations()
    log = CallLog()
    source, found = asyncio.run(_demos_async(args, tuple(seeds), log))
    paths = write_demo_file(out, seeds, found)
    kept = sum(1 for c in found if c.kept)
    print(f"{len(seeds)} seeds + {kept} generated demonstrations (model: {source})")
    for mode in ("input-first", "output-first"):
        line = summary_line(mode, found)
        if line:
            print(line)
    print(calls_line(log))
    print("wrote " + ", ".join(str(p) for p in paths))
    print(f'use it: demonstrations_file = "{out}" in an interecagent [[systems]] entry')
    return 0


async def _demos_async(
    args: argparse.Namespace, seeds: tuple[Demonstration, ...], log: CallLog
) -> tuple[str, list[DemoCandidate]]:
    from macrs_sim.config import load_scenario
    from macrs_sim.evaluation.interecagent.demo_gen import Generation, generate
    from macrs_sim.evaluation.interecagent.demo_prompts import DemoPrompts
    from macrs_sim.evaluation.interecagent.setup import choose, demo_client

    if args.scenario and args.backend:
        raise ConfigError("--scenario and --backend: give one (the scenario names its model)")
    choice = choose(load_scenario(args.scenario) if args.scenario else None,
                    args.backend or "embedded")  # fmt: skip
    client = await demo_client(choice, log)
    modes = ["input-first", "output-first"] if args.mode == "both" else [args.mode]
    if not args.no_progress:
        print(f"writing demonstrations ({', '.join(modes)}) ...", file=sys.stderr)
    gen = Generation(client, DemoPrompts.load(choice.prompts), seeds, args.count,
                     retries=choice.options.retries)  # fmt: skip
    try:
        found = await generate(gen, modes)  # type: ignore[arg-type]
    finally:
        await client.close()
    return choice.source, found

"""RecMind's planners on the scripted backend: LLM calls, tokens and seconds per turn; JSON.

A campaign of the four planners (CoT, ToT-BFS, ToT-DFS, Self-Inspiring) with the agenda
user on the demo data; every turn's `explain` holds its calls, tokens (the scripted model
counts words) and seconds. The paper's Table 10 compares planners by running time; on a
real model time follows the calls and tokens reported here.

    python benchmarks/bench_recmind_planners.py [--samples 20] [--turns 3] [--max-steps 6]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from macrs_sim.agents.recmind.options import PLANNERS
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import parse_scenario
from macrs_sim.store import RunStore

KEYS = ("llm_calls", "prompt_tokens", "completion_tokens", "seconds")


async def main(args: argparse.Namespace) -> dict[str, Any]:
    systems = [{"name": p, "kind": "recmind", "planner": p, "max_steps": args.max_steps}
               for p in PLANNERS]  # fmt: skip
    scenario = parse_scenario({
        "name": "bench-recmind", "model": {"backend": "scripted"},
        "data": {"n_samples": args.samples, "min_history": 5}, "simulator": {"kind": "agenda"},
        "protocol": {"max_turns": args.turns}, "systems": systems,
    })  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        started = time.perf_counter()
        result = await run_campaign_async(
            scenario, output_dir=Path(tmp) / "runs", progress=False, report=False
        )
        campaign_s = time.perf_counter() - started
        with RunStore.open(result.store_path) as store:
            results = store.read_results()
    out: dict[str, Any] = {"samples": args.samples, "max_turns": args.turns,
                           "max_steps": args.max_steps,
                           "campaign_s": round(campaign_s, 2)}  # fmt: skip
    for planner in PLANNERS:
        mine = [r for r in results if r.system == planner]
        turns = [ex.system.explain for r in mine for ex in r.exchanges]
        row: dict[str, Any] = {"dialogues": len(mine), "turns": len(turns),
                               "errors": sum(r.status == "error" for r in mine)}  # fmt: skip
        for key in KEYS:
            row[f"{key}_per_turn"] = round(statistics.mean(float(t[key]) for t in turns), 4)
        row["states_per_turn"] = round(statistics.mean(len(t["tree"]["nodes"]) for t in turns), 2)
        out[planner] = row
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=20)
    parser.add_argument("--turns", type=int, default=3)
    parser.add_argument("--max-steps", type=int, default=6)
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=1))

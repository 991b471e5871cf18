"""A 1,000-dialogue campaign of the `sasrec` baseline with the agenda user; prints JSON.

The demo data (400 synthetic users): 250 samples x 4 SASRec systems (same
hyperparameters, so the first trains and the other three load its checkpoint).
`train_s` is the first system's preparation (training on the campaign split, or a
cache hit when run before with the same cache); `campaign_s` the whole campaign,
setup, samples, store and report included.

    python benchmarks/bench_baselines.py [--samples 250] [--systems 4] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.store import RunStore


def scenario(samples: int, systems: int, concurrency: int) -> Scenario:
    return parse_scenario(
        {
            "name": "bench-baselines",
            "model": {"backend": "scripted"},
            "data": {"n_samples": samples, "min_history": 5},
            "simulator": {"kind": "agenda"},
            "campaign": {"concurrency": concurrency},
            "systems": [
                {"name": f"SASRec-{n}", "kind": "sasrec", "params": {"epochs": 20}}
                for n in range(systems)
            ],
        }
    )


async def main(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")  # a cold model cache
        sc = scenario(args.samples, args.systems, args.concurrency)
        setup = CampaignSetup.from_scenario(sc)
        started = time.perf_counter()
        setup.build_system(setup.scenario.systems[0], "warm-up", setup.campaign_samples()[0])
        train_s = time.perf_counter() - started
        await setup.close()
        started = time.perf_counter()
        result = await run_campaign_async(sc, output_dir=Path(tmp) / "runs", progress=False)
        campaign_s = time.perf_counter() - started
        with RunStore.open(result.store_path) as store:
            results = store.read_results()
    statuses = [r.status for r in results]
    return {
        "dialogues": len(results),
        "train_s": round(train_s, 2),
        "campaign_s": round(campaign_s, 2),
        "dialogues_per_s": round(len(results) / campaign_s, 1),
        "success_rate": round(statuses.count("success") / len(results), 3),
        "errors": statuses.count("error"),
        "cpu_count": os.cpu_count(),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=250)
    parser.add_argument("--systems", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=32)
    print(json.dumps(asyncio.run(main(parser.parse_args())), indent=2))

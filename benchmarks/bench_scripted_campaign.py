"""200-dialogue MACRS campaign on the scripted backend; prints JSON.

Measures the framework's own overhead (agents, runtime, store, accounting),
not a model: wall time, LLM calls per second through the whole stack, peak RSS.

    python benchmarks/bench_scripted_campaign.py [--dialogues 200] [--concurrency 32] [--latency 0]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
from pathlib import Path

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import parse_scenario
from macrs_sim.store import RunStore


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialogues", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=32)
    ap.add_argument("--latency", type=float, default=0.0, help="simulated seconds per call")
    args = ap.parse_args()
    scenario = parse_scenario(
        {
            "name": "bench-scripted",
            "model": {"backend": "scripted", "latency_s": args.latency},
            "data": {"n_samples": args.dialogues},
            "campaign": {"concurrency": args.concurrency},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )
    with tempfile.TemporaryDirectory() as tmp:
        result = asyncio.run(run_campaign_async(scenario, output_dir=Path(tmp), progress=False))
        with RunStore.open(result.store_path) as store:
            calls = store.read_calls()
            counts = store.counts()
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    json.dump(
        {
            "benchmark": "scripted_macrs_campaign",
            "dialogues": counts["dialogues"],
            "turns": counts["turns"],
            "llm_calls": len(calls),
            "concurrency": args.concurrency,
            "latency_s": args.latency,
            "wall_s": round(result.wall_s, 3),
            "llm_calls_per_s": round(len(calls) / result.wall_s, 1),
            "dialogues_per_s": round(counts["dialogues"] / result.wall_s, 2),
            "peak_rss_mb": round(peak_mb, 1),
        },
        sys.stdout,
    )
    print()


if __name__ == "__main__":
    main()

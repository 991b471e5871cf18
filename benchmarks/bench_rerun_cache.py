"""The response cache on a re-run: the same scripted MACRS campaign twice; prints JSON.

The second run must make no backend call: every call is answered from the SQLite
cache the first run filled. Backend calls are counted in the scripted backend itself
(not trusted from the cache layer) and cross-checked against the store's records.
Times run from a campaign's start to its last stored dialogue (the report written
after that is not model work); a small untimed campaign first pays the one-time
costs (imports, data loading), so the first run is not flattered.

The wall-clock speedup is bounded by the stack's own cost per call (agents, runtime,
store: see bench_scripted_campaign.py), which a cache does not remove; the model
time (summed per-call latency) is what the cache saves.

    python benchmarks/bench_rerun_cache.py [--dialogues 200] [--concurrency 64] [--latency 0.02]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.store import RunStore

backend_calls = 0


def count_backend_calls() -> None:
    """Counts every call that reaches a scripted backend, in any client of this process."""
    complete = ScriptedChatCompletionClient._complete

    async def counted(self: ScriptedChatCompletionClient, *args: Any, **kwargs: Any) -> Any:
        global backend_calls
        backend_calls += 1
        return await complete(self, *args, **kwargs)

    ScriptedChatCompletionClient._complete = counted  # type: ignore[method-assign]


def scenario(tmp: Path, args: argparse.Namespace, dialogues: int | None = None) -> Scenario:
    return parse_scenario(
        {
            "name": "bench-rerun-cache",
            "model": {"backend": "scripted", "latency_s": args.latency},
            "data": {"n_samples": dialogues or args.dialogues},
            "campaign": {"concurrency": args.concurrency, "output_dir": str(tmp / "runs")},
            "cache": {"enabled": True, "path": str(tmp / "llm_cache.sqlite")},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )


def run_once(sc: Scenario) -> dict[str, Any]:
    last_stored = 0.0
    original = RunStore.write_dialogue

    def write_dialogue(self: RunStore, *a: Any, **kw: Any) -> None:
        nonlocal last_stored
        original(self, *a, **kw)
        last_stored = time.perf_counter()

    RunStore.write_dialogue = write_dialogue  # type: ignore[method-assign]
    calls_before = backend_calls
    started = time.perf_counter()
    try:
        result = asyncio.run(run_campaign_async(sc, progress=False))
    finally:
        RunStore.write_dialogue = original  # type: ignore[method-assign]
    with RunStore.open(result.store_path) as store:
        calls = store.read_calls()
        dialogues = store.counts()["dialogues"]
    return {
        "s": last_stored - started,
        "dialogues": dialogues,
        "llm_calls": len(calls),
        "uncached_records": sum(not c.cached for c in calls),
        "backend_calls": backend_calls - calls_before,
        "model_time_s": sum(c.latency_s for c in calls),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialogues", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=64)
    ap.add_argument("--latency", type=float, default=0.02, help="simulated seconds per call")
    args = ap.parse_args()
    count_backend_calls()
    with tempfile.TemporaryDirectory() as warm, tempfile.TemporaryDirectory() as tmp:
        run_once(scenario(Path(warm), args, dialogues=2))
        sc = scenario(Path(tmp), args)
        first, second = run_once(sc), run_once(sc)
        cache_mb = (Path(tmp) / "llm_cache.sqlite").stat().st_size / 2**20
    speedup = first["s"] / second["s"]
    report = {
        "benchmark": "rerun_cache",
        "dialogues": args.dialogues,
        "concurrency": args.concurrency,
        "latency_s": args.latency,
        "llm_calls": first["llm_calls"],
        "first_s": round(first["s"], 3),
        "second_s": round(second["s"], 3),
        "speedup": round(speedup, 1),
        "backend_calls_first_run": first["backend_calls"],
        "backend_calls_second_run": second["backend_calls"],
        "uncached_records_second_run": second["uncached_records"],
        "same_calls": first["llm_calls"] == second["llm_calls"],
        # Summed per-call latency (calls overlap): what the model layer cost each run.
        "model_time_first_s": round(first["model_time_s"], 2),
        "model_time_second_s": round(second["model_time_s"], 2),
        "model_time_speedup": round(first["model_time_s"] / second["model_time_s"], 1),
        "cache_file_mb": round(cache_mb, 2),
        "targets": {"backend_calls_second_run": "== 0", "speedup": ">= 20"},
        "met": second["backend_calls"] == 0 and speedup >= 20,
    }
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()

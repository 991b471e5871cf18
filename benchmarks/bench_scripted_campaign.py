"""1000-dialogue MACRS campaign on the scripted backend; prints JSON.

Measures the framework's own overhead (agents, runtime, store, accounting),
not a model: LLM calls per second through the whole stack, peak RSS, and RSS
when the first dialogue starts and when 25/50/75/100% of the dialogues are
stored. The last four stay flat when nothing grows with the number of finished
dialogues. Users are prepared first, untimed; the campaign's setup and report
are not timed either: the figures are the dialogue phase's.

    python benchmarks/bench_scripted_campaign.py [--dialogues 1000] [--concurrency 32]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psutil

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.sampling import build_sample_set
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.data.sample_set import read_sample_set, write_sample_set
from macrs_sim.store import RunStore

DISTINCT_USERS = 250


def scenario(
    n: int, *, latency_s: float, concurrency: int, sample_set: Path | None = None
) -> Scenario:
    data: dict[str, Any] = {"n_samples": n}
    if sample_set is not None:
        data["sample_set"] = str(sample_set)
    return parse_scenario(
        {
            "name": "bench-scripted",
            "model": {"backend": "scripted", "latency_s": latency_s},
            "data": data,
            "campaign": {"concurrency": concurrency},
            # Every call must reach the backend: a cache would measure SQLite, not the stack.
            "cache": {"enabled": False},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )


async def repeated_users(make: Callable[[int], Scenario], n: int, out: Path) -> Path:
    """`n` users in a sample set at `out`: min(n, DISTINCT_USERS) prepared by the scenario
    `make(distinct)`, then repeated under new sample ids (new dialogue ids, so the
    scripted choices still differ). The demo has a few hundred eligible users."""
    distinct = min(n, DISTINCT_USERS)
    setup = CampaignSetup.from_scenario(make(distinct))
    try:
        made = await build_sample_set(setup, out, progress=False)
    finally:
        await setup.close()
    header = read_sample_set(out, setup.catalog)[0].model_copy(update={"n_samples": n})
    users = [
        made[i % distinct].model_copy(
            update={"sample_id": f"{made[i % distinct].sample_id}~{i // distinct}"}
        )
        for i in range(n)
    ]
    write_sample_set(out, header, users)
    return out


async def prepare_users(n: int, tmp: Path) -> Path:
    """A sample set of `n` users, made without latency: not part of what is measured."""
    return await repeated_users(
        lambda k: scenario(k, latency_s=0.0, concurrency=64), n, tmp / "samples.jsonl"
    )


def rss_mb() -> float:
    return float(psutil.Process().memory_info().rss) / 2**20


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


@contextmanager
def milestones(total: int, marks: dict[str, Any]) -> Iterator[None]:
    """Notes time, CPU time and RSS when the first dialogue starts ("start") and as each
    quarter of the dialogues is stored. CampaignSetup and RunStore are patched for the
    duration: the dialogue phase is timed without the campaign's setup and report."""
    build_system, write_dialogue = CampaignSetup.build_system, RunStore.write_dialogue
    stored = 0
    quarters = {max(1, round(total * q / 4)): f"{25 * q}%" for q in range(1, 5)}

    def mark(name: str) -> None:
        now = {"t": time.perf_counter(), "cpu": time.process_time()}
        marks[name] = {**now, "rss": rss_mb(), "peak": peak_rss_mb()}

    def first_build(self: CampaignSetup, *args: Any, **kwargs: Any) -> Any:
        if "start" not in marks:
            mark("start")
        return build_system(self, *args, **kwargs)

    def counted_write(self: RunStore, *args: Any, **kwargs: Any) -> None:
        nonlocal stored
        write_dialogue(self, *args, **kwargs)
        stored += 1
        if stored in quarters:
            mark(quarters[stored])

    CampaignSetup.build_system = first_build  # type: ignore[method-assign]
    RunStore.write_dialogue = counted_write  # type: ignore[method-assign]
    try:
        yield
    finally:
        CampaignSetup.build_system = build_system  # type: ignore[method-assign]
        RunStore.write_dialogue = write_dialogue  # type: ignore[method-assign]


async def measure(sc: Scenario, tmp: Path, total: int) -> tuple[dict[str, Any], Path]:
    """Runs the campaign: the dialogue phase's figures (first dialogue started to last
    dialogue stored), and the store."""
    marks: dict[str, Any] = {}
    with milestones(total, marks):
        result = await run_campaign_async(sc, output_dir=tmp / "runs", progress=False)
    with RunStore.open(result.store_path) as store:
        counts = store.counts()
        errors = sum(r.status == "error" for r in store.read_results())
    start, end = marks["start"], marks["100%"]
    # CPU seconds of this process: unlike wall time, not inflated by other work on the machine.
    cpu_s = end["cpu"] - start["cpu"]
    figures = {
        "dialogues": counts["dialogues"],
        "errors": errors,
        "turns": counts["turns"],
        "llm_calls": counts["llm_calls"],
        "dialogue_phase_s": round(end["t"] - start["t"], 3),
        "dialogue_phase_cpu_s": round(cpu_s, 3),
        "cpu_ms_per_call": round(1000 * cpu_s / max(1, counts["llm_calls"]), 3),
        "campaign_wall_s": round(result.wall_s, 3),
        "rss_mb": {k: round(v["rss"], 1) for k, v in marks.items()},
        "peak_rss_mb_to_last_dialogue": round(end["peak"], 1),
    }
    return figures, result.store_path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialogues", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=32)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        users = asyncio.run(prepare_users(args.dialogues, Path(tmp)))
        sc = scenario(args.dialogues, latency_s=0.0, concurrency=args.concurrency, sample_set=users)
        out, _ = asyncio.run(measure(sc, Path(tmp), args.dialogues))
    calls_per_s = out["llm_calls"] / out["dialogue_phase_s"]
    report = {
        "benchmark": "scripted_macrs_campaign",
        "concurrency": args.concurrency,
        "latency_s": 0.0,
        **out,
        "llm_calls_per_s": round(calls_per_s, 1),
        "dialogues_per_s": round(out["dialogues"] / out["dialogue_phase_s"], 2),
        # Including the report written after the dialogues (it loads the whole store).
        "peak_rss_mb": round(peak_rss_mb(), 1),
        "targets": {"llm_calls_per_s": ">= 500", "peak_rss_mb": "< 500"},
    }
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()

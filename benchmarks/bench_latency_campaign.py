"""How close a latency-bound campaign gets to its ideal wall time; prints JSON.

1000 MACRS dialogues on the scripted backend at 0.2 s per call, 256 in flight.
With an endpoint that answers every call in `latency` seconds, a dialogue cannot
finish faster than its critical path: its sequential calls, with the three
responders of a turn (asked concurrently) counted once. With 256 slots, 1000
dialogues take at least ceil(1000 / 256) such paths. The ratio of the measured
dialogue phase to that ideal is the framework's overhead (target <= 1.15).

The critical path is read from the store: each dialogue's recorded calls, in
call order, are its sequential steps. Users are prepared first, untimed.

    python benchmarks/bench_latency_campaign.py [--dialogues 1000] [--concurrency 256]
        [--latency 0.2] [--profile out.prof]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import math
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from bench_scripted_campaign import measure, prepare_users, scenario

from macrs_sim.agents.macrs.roles import ROLE_PREFIX
from macrs_sim.agents.macrs.system import RESPONDER_ACTS
from macrs_sim.protocol import LLMCallRecord
from macrs_sim.store import RunStore

# The three responders MACRS asks at once each turn (their calls' roles, as stored).
RESPONDERS = frozenset(ROLE_PREFIX + act for act in RESPONDER_ACTS)


def critical_steps(calls: list[LLMCallRecord]) -> int:
    """Sequential model calls of one dialogue: a turn's concurrent responders count once."""
    responder_turns = {c.turn for c in calls if c.role in RESPONDERS}
    others = sum(c.role not in RESPONDERS for c in calls)
    return others + len(responder_turns)


def paths_by_dialogue(store_path: Path) -> Counter[int]:
    """How many dialogues have each critical-path length (in calls)."""
    with RunStore.open(store_path) as store:
        calls = store.read_calls()
    by_dialogue: dict[str | None, list[LLMCallRecord]] = defaultdict(list)
    for c in calls:
        by_dialogue[c.dialogue_id].append(c)
    by_dialogue.pop(None, None)  # setup calls, if any: not part of a dialogue
    return Counter(critical_steps(cs) for cs in by_dialogue.values())


def ideal_s(paths: Counter[int], latency_s: float, concurrency: int) -> float:
    """ceil(n / slots) rounds of the longest critical path (how the brief defines ideal)."""
    n = sum(paths.values())
    return max(paths) * latency_s * math.ceil(n / concurrency)


async def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    users = await prepare_users(args.dialogues, tmp)
    sc = scenario(
        args.dialogues, latency_s=args.latency, concurrency=args.concurrency, sample_set=users
    )
    profiler = cProfile.Profile() if args.profile else None
    if profiler is not None:
        profiler.enable()
    figures, store_path = await measure(sc, tmp, args.dialogues)
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    paths = paths_by_dialogue(store_path)
    ideal = ideal_s(paths, args.latency, args.concurrency)
    return {
        "benchmark": "latency_bound_macrs_campaign",
        "concurrency": args.concurrency,
        "latency_s": args.latency,
        **figures,
        "critical_path_calls": dict(sorted(paths.items())),
        "ideal_s": round(ideal, 3),
        "ratio": round(figures["dialogue_phase_s"] / ideal, 3),
        "target_ratio": "<= 1.15",
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialogues", type=int, default=1000)
    ap.add_argument("--concurrency", type=int, default=256)
    ap.add_argument("--latency", type=float, default=0.2, help="simulated seconds per call")
    ap.add_argument("--profile", help="write a cProfile of the campaign to this file")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        report = asyncio.run(run(args, Path(tmp)))
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()

"""What one dialogue of each LLM system costs a model server: calls in flight; prints JSON.

For every registered kind that calls a model, a short campaign on the scripted backend
where every model call takes the same simulated latency, with the LLM user simulator (its
replies are calls of the dialogue too, as in a real campaign). Each call the backend
answers is timed (start, end) and attributed to its dialogue; each dialogue is timed from
its opening to its last reply or fallback list (`run_dialogue`: building the system and
the simulator is not part of it, nor is a kind's campaign-scoped `prepare`). Per dialogue:

* peak: the most of its calls in flight at one moment;
* mean: the sum of its calls' durations / its wall time (how many on average).

Per kind: the largest peak, and the mean over all its dialogues together (the sum of
their calls' durations / the sum of their wall times). These are a kind's
`SystemSpec.calls_in_flight` (campaign/sizing.py fills a server's batch from them).
Samples are prepared first, without latency, and shared by every kind; the campaign's
setup calls (target profiles, openings) belong to no dialogue and are not counted.
The latency is a second by default, near what a call takes on a loaded server: a
system's own work between calls (tools, rankers, grounding) then weighs as little as it
does there. At 0.2 s, InteRecAgent's tools (~18 ms a call) pull its mean to 0.9. All
dialogues of a kind run at once by default (their calls are sleeps); `--concurrency 1`
runs one at a time, so no other dialogue's work stretches a wall time.

    python benchmarks/bench_calls_in_flight.py [--dialogues 6] [--latency 1.0]
        [--max-turns 5] [--concurrency N (default: --dialogues)] [--kinds macrs,recmind]
        [--options 'toolrec={"retriever": "ranker"}' ...]

Every kind runs with its default options unless `--options` gives some (the trained
models' sizes change how long `prepare` takes, not the calls a dialogue makes).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest.mock import patch

from macrs_sim.agents.registry import registered_specs
from macrs_sim.campaign import jobs
from macrs_sim.campaign.dialogue import run_dialogue
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.sampling import build_sample_set
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.llm.context import current_call
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.store import RunStore


@dataclass(frozen=True)
class Span:
    start: float
    end: float


def peak_in_flight(calls: Sequence[Span]) -> int:
    """The most calls open at one moment; a call ending as another starts does not overlap."""
    events = sorted([(c.start, 1) for c in calls] + [(c.end, -1) for c in calls])
    most = now = 0
    for _, step in events:  # -1 sorts before +1 at the same moment
        now += step
        most = max(most, now)
    return most


@contextmanager
def timed(calls: dict[str, list[Span]], dialogues: dict[str, Span]) -> Iterator[None]:
    """Times every scripted backend call (by the dialogue that made it) and every dialogue."""
    complete = ScriptedChatCompletionClient._complete

    async def timed_complete(client: ScriptedChatCompletionClient, *a: Any, **kw: Any) -> Any:
        dialogue = current_call().dialogue_id
        start = time.perf_counter()
        try:
            return await complete(client, *a, **kw)
        finally:
            if dialogue is not None:
                calls[dialogue].append(Span(start, time.perf_counter()))

    async def timed_dialogue(*a: Any, dialogue_id: str, **kw: Any) -> Any:
        start = time.perf_counter()
        try:
            return await run_dialogue(*a, dialogue_id=dialogue_id, **kw)
        finally:
            dialogues[dialogue_id] = Span(start, time.perf_counter())

    # jobs.run_job calls run_dialogue by its name in jobs' namespace.
    with (
        patch.object(ScriptedChatCompletionClient, "_complete", timed_complete),
        patch.object(jobs, "run_dialogue", timed_dialogue),
    ):
        yield


def scenario(
    systems: Sequence[Mapping[str, Any]], args: argparse.Namespace, *,
    latency_s: float, sample_set: Path | None = None,
) -> Scenario:  # fmt: skip
    data: dict[str, Any] = {"n_samples": args.dialogues, "seed": args.seed}
    if sample_set is not None:
        data["sample_set"] = str(sample_set)
    return parse_scenario(
        {
            "name": "bench-calls-in-flight",
            "model": {"backend": "scripted", "latency_s": latency_s},
            "data": data,
            "simulator": {"kind": "llm"},
            "protocol": {"max_turns": args.max_turns},
            "campaign": {"concurrency": args.concurrency or args.dialogues},
            # Every call must reach the backend: a cache hit takes no time and no slot.
            "cache": {"enabled": False},
            "systems": [dict(s) for s in systems],
        }
    )


async def prepare_samples(args: argparse.Namespace, tmp: Path) -> Path:
    """The users every kind talks to, with their target profiles and openings (no latency)."""
    out = tmp / "samples.jsonl"
    sc = scenario([{"name": "MACRS", "kind": "macrs"}], args, latency_s=0.0)
    setup = CampaignSetup.from_scenario(sc)
    try:
        await build_sample_set(setup, out, progress=False)
    finally:
        await setup.close()
    return out


async def measure_kind(
    kind: str, args: argparse.Namespace, samples: Path, tmp: Path
) -> dict[str, Any]:
    system = {"name": kind, "kind": kind, **args.options.get(kind, {})}
    sc = scenario([system], args, latency_s=args.latency, sample_set=samples)
    calls: dict[str, list[Span]] = defaultdict(list)
    dialogues: dict[str, Span] = {}
    with timed(calls, dialogues):
        result = await run_campaign_async(
            sc, output_dir=tmp / f"runs-{kind}", progress=False, report=False
        )
    with RunStore.open(result.store_path) as store:
        results = store.read_results()
        roles = sorted({c.role for c in store.read_calls() if c.dialogue_id is not None})
    errors = [r.error for r in results if r.status == "error"]
    peaks, means, busy, wall = [], [], 0.0, 0.0
    for dialogue, span in sorted(dialogues.items()):
        mine = calls.get(dialogue, [])
        took = sum(c.end - c.start for c in mine)
        peaks.append(peak_in_flight(mine))
        means.append(took / (span.end - span.start))
        busy += took
        wall += span.end - span.start
    n_calls = sum(len(calls.get(d, [])) for d in dialogues)
    return {
        "peak": max(peaks),
        "mean": round(busy / wall, 3),
        "per_dialogue": {
            "peak": sorted(peaks),
            "mean": [round(m, 3) for m in means],
            "calls": [len(calls.get(d, [])) for d in sorted(dialogues)],
            "wall_s": [round(dialogues[d].end - dialogues[d].start, 3) for d in sorted(dialogues)],
        },
        "dialogues": len(dialogues),
        "calls": n_calls,
        "mean_call_s": round(busy / max(1, n_calls), 4),
        "outcomes": {s: sum(r.status == s for r in results) for s in ("success", "failure")},
        "errors": errors,
        "roles": roles,
        "options": system,
    }


def llm_kinds() -> list[str]:
    return [s.kind for s in registered_specs() if s.uses_llm]


async def run(args: argparse.Namespace, tmp: Path) -> dict[str, Any]:
    kinds = args.kinds.split(",") if args.kinds else llm_kinds()
    samples = await prepare_samples(args, tmp)
    measured = {kind: await measure_kind(kind, args, samples, tmp) for kind in kinds}
    declared = {s.kind: s.calls_in_flight for s in registered_specs()}
    return {
        "benchmark": "calls_in_flight_per_dialogue",
        "settings": {
            "backend": "scripted",
            "latency_s": args.latency,
            "dialogues": args.dialogues,
            "max_turns": args.max_turns,
            "concurrency": args.concurrency or args.dialogues,
            "simulator": "llm",
            "dataset": "demo",
            "seed": args.seed,
            "python": sys.version.split()[0],
        },
        "kinds": {
            kind: {
                **m,
                "spec": {"peak": declared[kind].peak, "mean": declared[kind].mean},
                "suggested": {"peak": m["peak"], "mean": round(m["mean"], 1)},
            }
            for kind, m in measured.items()
        },
    }


def _kind_options(text: str) -> tuple[str, dict[str, Any]]:
    kind, _, fields = text.partition("=")
    value = json.loads(fields)
    if not isinstance(value, dict):
        raise SystemExit(f"--options {text}: give KIND={{...}}")
    return kind, value


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialogues", type=int, default=6)
    ap.add_argument("--latency", type=float, default=1.0)
    ap.add_argument("--max-turns", type=int, default=5)
    ap.add_argument("--concurrency", type=int, default=0, help="default: --dialogues")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kinds", default="", help="comma-separated; default every LLM kind")
    ap.add_argument(
        "--options", action="append", default=[], metavar="KIND=JSON",
        help="a kind's [[systems]] fields, e.g. toolrec='{\"retriever\": \"ranker\"}'",
    )  # fmt: skip
    args = ap.parse_args()
    args.options = dict(_kind_options(o) for o in args.options)
    with tempfile.TemporaryDirectory() as tmp:
        # The demo's trained models go to the user cache: keep them in the temporary folder.
        os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        report = asyncio.run(run(args, Path(tmp)))
    json.dump(report, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()

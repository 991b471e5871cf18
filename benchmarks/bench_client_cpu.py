"""Client CPU per LLM call over HTTP: MACRS campaigns through the lean and the SDK client,
and a bare aiohttp loop posting the same bodies; prints JSON.

The fake OpenAI server runs in its own process (200 ms per reply by default), so only the
client's CPU is counted: each run is a fresh process reading its own rusage (user +
system), for a campaign from its first dialogue's start to its last dialogue's store
(imports, set-up and the report left out), for the bare loop around the loop. Users are
prepared beforehand (scripted backend), so every call counted is a dialogue's. What stays
fixed per run (ramp-up, tail) is taken out by differencing two sizes: per call =
(cpu(2n) - cpu(n)) / (calls(2n) - calls(n)), calls as the server counted them, each term
the median of --repeats runs (a single run on the shared machine can be 20 % slow, and a
difference of two runs doubles that); `*_pairs` are the figures of each pair on its own,
`load_avg_1m` says how busy the machine was (CPU time, not wall time, but a loaded
machine still inflates it somewhat).

    python benchmarks/bench_client_cpu.py [--in-flight 8 64 200] [--clients lean sdk]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
Sets = dict[int, Path]  # dialogues -> a sample set of that many users


def scenario_table(
    url: str, client: str, dialogues: int, in_flight: int, sample_set: str | None
) -> dict[str, Any]:
    data: dict[str, Any] = {"n_samples": dialogues}
    if sample_set is not None:  # users prepared beforehand: only dialogues are measured
        data["sample_set"] = sample_set
    return {
        "name": "bench-client-cpu",
        "model": {
            "backend": "openai",
            "model": "fake-model",
            "base_url": url,
            "client": client,
            "structured_outputs": "openai",  # no probe
            "max_concurrency": 4096,  # the dialogues in flight are the limit
            "timeout_s": 60.0,
        },
        "data": data,
        "campaign": {"concurrency": in_flight},
        "cache": {"enabled": False},  # every call must reach the server
        "systems": [{"name": "MACRS", "kind": "macrs"}],
    }


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def chat_requests(url: str) -> int:
    with urllib.request.urlopen(url.removesuffix("/v1") + "/stats") as response:
        return int(json.load(response)["chat_requests"])


async def run_campaign(args: argparse.Namespace) -> dict[str, float]:
    """The campaign; CPU and server-counted calls from its first dialogue's start to its
    last dialogue's store (set-up and the report are outside)."""
    from macrs_sim.campaign.runner import run_campaign_async
    from macrs_sim.campaign.setup import CampaignSetup
    from macrs_sim.config import parse_scenario
    from macrs_sim.store import RunStore

    marks: list[tuple[float, int]] = []
    build_system, write_dialogue = CampaignSetup.build_system, RunStore.write_dialogue
    stored = 0

    def first_build(self: CampaignSetup, *a: Any, **kw: Any) -> Any:
        if not marks:
            marks.append((cpu_s(), chat_requests(args.url)))
        return build_system(self, *a, **kw)

    def counted_write(self: RunStore, *a: Any, **kw: Any) -> None:
        nonlocal stored
        write_dialogue(self, *a, **kw)
        stored += 1
        if stored == args.dialogues:
            marks.append((cpu_s(), chat_requests(args.url)))

    table = scenario_table(args.url, args.client, args.dialogues, args.in_flight, args.sample_set)
    CampaignSetup.build_system = first_build  # type: ignore[method-assign]
    RunStore.write_dialogue = counted_write  # type: ignore[method-assign]
    try:
        with tempfile.TemporaryDirectory() as tmp:
            await run_campaign_async(parse_scenario(table), output_dir=Path(tmp), progress=False)
    finally:
        CampaignSetup.build_system = build_system  # type: ignore[method-assign]
        RunStore.write_dialogue = write_dialogue  # type: ignore[method-assign]
    (cpu0, calls0), (cpu1, calls1) = marks
    return {"cpu_s": cpu1 - cpu0, "calls": calls1 - calls0}


async def run_bare(args: argparse.Namespace) -> None:
    """`args.calls` posts of the recorded bodies from `args.in_flight` workers, each reply
    read and parsed: what any client must at least do."""
    import aiohttp

    bodies = Path(args.bodies).read_bytes().splitlines()
    url = args.url + "/chat/completions"
    headers = {"Authorization": "Bearer EMPTY", "Content-Type": "application/json"}
    remaining = args.calls
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:

        async def worker() -> None:
            nonlocal remaining
            while remaining > 0:
                remaining -= 1
                body = bodies[remaining % len(bodies)]
                async with session.post(url, data=body, headers=headers) as response:
                    json.loads(await response.read())

        await asyncio.gather(*(worker() for _ in range(args.in_flight)))


def child(args: argparse.Namespace) -> None:
    """One measured run, in a fresh process."""
    if args.child == "campaign":
        print(json.dumps(asyncio.run(run_campaign(args))))
        return
    before, started = chat_requests(args.url), cpu_s()
    asyncio.run(run_bare(args))
    print(json.dumps({"cpu_s": cpu_s() - started, "calls": chat_requests(args.url) - before}))


def spawn(url: str, *extra: str) -> dict[str, float]:
    cmd = [sys.executable, str(HERE), "--url", url, *extra]
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"bench_client_cpu: a measured run failed: {' '.join(extra)}\n{done.stderr}")
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def per_call_ms(
    url: str, small: list[str], large: list[str], repeats: int
) -> tuple[float, list[float]]:
    """The small and the large run `repeats` times each, interleaved. Per call: (median CPU
    of the large runs - median CPU of the small) / (the same for calls), so one run slowed
    by the shared machine moves a median, not the difference; and each pair's own figure."""
    pairs = []
    for i in range(repeats):  # order alternates: a steady drift of the machine cancels out
        if i % 2:
            b = spawn(url, *large)
            pairs.append((spawn(url, *small), b))
        else:
            pairs.append((spawn(url, *small), spawn(url, *large)))

    def per_call(a: dict[str, float], b: dict[str, float]) -> float:
        return 1000 * (b["cpu_s"] - a["cpu_s"]) / max(1.0, b["calls"] - a["calls"])

    def median_run(runs: list[dict[str, float]]) -> dict[str, float]:
        return {key: statistics.median(r[key] for r in runs) for key in ("cpu_s", "calls")}

    medians = per_call(median_run([a for a, _ in pairs]), median_run([b for _, b in pairs]))
    return medians, [per_call(a, b) for a, b in pairs]


def prepare_sample_sets(sizes: set[int], tmp: Path) -> dict[int, Path]:
    """A sample set per size (users prepared by the scripted backend, not measured); the
    demo has a few hundred eligible users, so beyond DISTINCT_USERS they repeat under new
    sample ids, as in bench_scripted_campaign."""
    from bench_scripted_campaign import DISTINCT_USERS, prepare_users

    from macrs_sim.config import DataConfig
    from macrs_sim.data.dataset import open_dataset
    from macrs_sim.data.sample_set import read_sample_set, write_sample_set

    made = asyncio.run(prepare_users(min(max(sizes), DISTINCT_USERS), tmp))
    header, users = read_sample_set(made, open_dataset(DataConfig()).catalog)
    paths = {}
    for n in sizes:
        paths[n] = tmp / f"samples-{n}.jsonl"
        repeated = [
            users[i % len(users)].model_copy(
                update={"sample_id": f"{users[i % len(users)].sample_id}~{i // len(users)}"}
            )
            for i in range(n)
        ]
        write_sample_set(paths[n], header.model_copy(update={"n_samples": n}), repeated)
    return paths


def record_bodies(path: Path, sample_set: Path) -> None:
    """The chat bodies of a small campaign (same prompts, hence same sizes), one a line,
    as the clients send them (the lean and SDK bodies are the same bytes)."""
    from macrs_sim.campaign.runner import run_campaign_async
    from macrs_sim.config import parse_scenario
    from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
    from macrs_sim.llm.lean.body import encode

    async def go() -> list[dict[str, Any]]:
        async with FakeOpenAIServer() as srv:
            table = scenario_table(srv.base_url, "lean", 8, 8, str(sample_set))
            with tempfile.TemporaryDirectory() as tmp:
                await run_campaign_async(
                    parse_scenario(table), output_dir=Path(tmp), progress=False
                )
            return srv.chat_bodies()

    path.write_bytes(b"\n".join(encode(body) for body in asyncio.run(go())))


def start_server(latency_s: float) -> tuple[subprocess.Popen[str], str]:
    cmd = [sys.executable, "-m", "macrs_sim.llm.fake_openai_server", "--latency", str(latency_s)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    url: str = json.loads(proc.stdout.readline())["base_urls"][0]
    return proc, url


def campaign_ms(
    args: argparse.Namespace, url: str, client: str, n: int, sets: Sets
) -> tuple[float, list[float]]:
    small = max(n, args.min_dialogues)

    def run(size: int) -> list[str]:
        return ["--child", "campaign", "--client", client, "--in-flight", str(n),
                "--dialogues", str(size), "--sample-set", str(sets[size])]  # fmt: skip

    return per_call_ms(url, run(small), run(2 * small), args.repeats)


def bare_ms(args: argparse.Namespace, url: str, n: int, bodies: Path) -> tuple[float, list[float]]:
    def run(calls: int) -> list[str]:
        return ["--child", "bare", "--bodies", str(bodies), "--in-flight", str(n),
                "--calls", str(calls)]  # fmt: skip

    return per_call_ms(url, run(args.bare_calls), run(2 * args.bare_calls), args.repeats)


def measure(args: argparse.Namespace, url: str, sets: Sets, bodies: Path) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for n in args.in_flight:
        row: dict[str, Any] = {}
        for client in args.clients:
            per_call, pairs = campaign_ms(args, url, client, n, sets)
            row[f"{client}_ms_per_call"] = round(per_call, 3)
            row[f"{client}_pairs"] = [round(p, 3) for p in pairs]
        per_call, pairs = bare_ms(args, url, n, bodies)
        row["bare_ms_per_call"] = round(per_call, 3)
        row["bare_pairs"] = [round(p, 3) for p in pairs]
        for client in args.clients:
            ratio = row[f"{client}_ms_per_call"] / row["bare_ms_per_call"]
            row[f"{client}_ratio_to_bare"] = round(ratio, 2)
        row["load_avg_1m"] = round(os.getloadavg()[0], 2)
        rows[str(n)] = row
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--in-flight", type=int, nargs="+", default=[8, 64, 200])
    ap.add_argument("--clients", nargs="+", default=["lean", "sdk"], choices=["lean", "sdk"])
    ap.add_argument("--min-dialogues", type=int, default=32, help="smaller campaign's size")
    ap.add_argument("--bare-calls", type=int, default=3000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--latency", type=float, default=0.2)
    # Internal: one measured run in a fresh process.
    ap.add_argument("--child", choices=["campaign", "bare"], help=argparse.SUPPRESS)
    ap.add_argument("--url", help=argparse.SUPPRESS)
    ap.add_argument("--client", default="lean", help=argparse.SUPPRESS)
    ap.add_argument("--dialogues", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--calls", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--bodies", help=argparse.SUPPRESS)
    ap.add_argument("--sample-set", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        args.in_flight = args.in_flight[0]
        child(args)
        return
    proc, url = start_server(args.latency)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            small = [max(n, args.min_dialogues) for n in args.in_flight]
            sets = prepare_sample_sets({8, *small, *(2 * n for n in small)}, Path(tmp))
            bodies = Path(tmp) / "bodies.jsonl"
            record_bodies(bodies, sets[8])
            rows = measure(args, url, sets, bodies)
    finally:
        proc.terminate()
        proc.wait()
    report = {
        "benchmark": "client_cpu_per_call",
        "server_latency_s": args.latency,
        "repeats": args.repeats,
        "in_flight": rows,
        "target": "lean <= 0.5 ms per call at 200 in flight, ratio to bare <= 3.5",
        "cpus": os.cpu_count(),
    }
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()

"""MACRS campaign over HTTP against the fake OpenAI-compatible server; prints JSON.

Measures the whole client stack (accounting -> retry -> endpoint pool -> autogen/openai
client -> HTTP) with a 50 ms model, no cache. The server runs in its own process so its
work does not share the campaign's CPU. `calls_per_s` is sustained throughput: chat
requests over the span from the first request to the last reply, as the server saw them
(set-up and report writing excluded); `wall_s` is the whole campaign.

    python benchmarks/bench_fake_server.py [--dialogues 200] [--concurrency 64] [--endpoints 2]
    python benchmarks/bench_fake_server.py --raw 4000   # a bare concurrent call loop instead
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

import psutil
from autogen_core.models import UserMessage

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import OpenAIModel, parse_scenario
from macrs_sim.llm import CallLog, build_client
from macrs_sim.store import RunStore


class CpuClock:
    """Samples this process's CPU time against the wall clock, so the CPU spent inside the
    server-seen span (not set-up or the report) can be read off afterwards."""

    def __init__(self) -> None:
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.05):
            self.samples.append((time.time(), time.process_time()))

    def cpu_between(self, start: float, end: float) -> float:
        self._stop.set()
        self._thread.join()
        inside = [cpu for wall, cpu in self.samples if start <= wall <= end]
        return inside[-1] - inside[0] if len(inside) > 1 else float("nan")


def start_server(endpoints: int, latency_s: float) -> tuple[subprocess.Popen[str], list[str]]:
    cmd = [sys.executable, "-m", "macrs_sim.llm.fake_openai_server"]
    cmd += ["--endpoints", str(endpoints), "--latency", str(latency_s)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    urls: list[str] = json.loads(proc.stdout.readline())["base_urls"]
    return proc, urls


def server_stats(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url.removesuffix("/v1") + "/stats") as response:
        stats: dict[str, Any] = json.load(response)
    return stats


def model_table(urls: list[str], per_endpoint: int) -> dict[str, Any]:
    return {
        "backend": "openai",
        "model": "fake-model",
        "base_urls": urls,
        "max_concurrency": per_endpoint,
        "timeout_s": 10.0,
    }


async def campaign(args: argparse.Namespace, urls: list[str]) -> list[float]:
    scenario = parse_scenario(
        {
            "name": "bench-fake-server",
            "model": model_table(urls, args.per_endpoint),
            "data": {"n_samples": args.dialogues},
            "campaign": {"concurrency": args.concurrency},
            "cache": {"enabled": False},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )
    with tempfile.TemporaryDirectory() as tmp:
        result = await run_campaign_async(scenario, output_dir=Path(tmp), progress=False)
        with RunStore.open(result.store_path) as store:
            return [c.latency_s for c in store.read_calls() if c.ok]


async def raw_loop(args: argparse.Namespace, urls: list[str]) -> list[float]:
    """`args.raw` calls from `args.concurrency` workers through build_client's stack."""
    cfg = OpenAIModel.model_validate(model_table(urls, args.per_endpoint))
    client = build_client(cfg, temperature=0.0, log=CallLog())
    latencies: list[float] = []
    remaining = args.raw

    async def worker(w: int) -> None:
        nonlocal remaining
        while remaining > 0:
            remaining -= 1
            start = time.perf_counter()
            await client.create([UserMessage(content=f"call {remaining} from {w}", source="u")])
            latencies.append(time.perf_counter() - start)

    await asyncio.gather(*(worker(w) for w in range(args.concurrency)))
    await client.close()
    return latencies


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dialogues", type=int, default=200)
    ap.add_argument("--concurrency", type=int, default=64, help="dialogues (or raw workers)")
    ap.add_argument("--endpoints", type=int, default=2)
    ap.add_argument("--per-endpoint", type=int, default=64, help="max_concurrency per endpoint")
    ap.add_argument("--latency", type=float, default=0.05)
    ap.add_argument("--raw", type=int, default=0, help="N bare calls instead of a campaign")
    args = ap.parse_args()
    proc, urls = start_server(args.endpoints, args.latency)
    try:
        clock = CpuClock()
        started = time.perf_counter()
        run = raw_loop(args, urls) if args.raw else campaign(args, urls)
        latencies = asyncio.run(run)
        wall = time.perf_counter() - started
        stats = server_stats(urls[0])
        server_cpu = sum(psutil.Process(proc.pid).cpu_times()[:2])
        client_cpu = sum(psutil.Process().cpu_times()[:2])
    finally:
        proc.terminate()
        proc.wait()
    span = stats["span_s"][1] - stats["span_s"][0]
    span_cpu = clock.cpu_between(*stats["span_s"])
    cuts = statistics.quantiles(latencies, n=20)
    report = {
        "benchmark": "raw_calls_fake_server" if args.raw else "macrs_campaign_fake_server",
        "calls": stats["chat_requests"],
        "wall_s": round(wall, 3),
        "calls_span_s": round(span, 3),
        "calls_per_s": round(stats["chat_requests"] / span, 1),
        "endpoints": args.endpoints,
        "max_in_flight_per_endpoint": stats["max_in_flight"],
        "server_latency_s": args.latency,
        "p50_latency_s": round(statistics.median(latencies), 4),
        "p95_latency_s": round(cuts[18], 4),
        # CPU seconds, whole run (the client's includes set-up and the report).
        "client_cpu_s": round(client_cpu, 1),
        "server_cpu_s": round(server_cpu, 1),
        # The client's CPU per call inside the span, and the rate one free core allows:
        # the stack's own cost, whatever else competes for this machine's cores.
        "client_cpu_ms_per_call": round(1000 * span_cpu / stats["chat_requests"], 2),
        "one_core_capacity_calls_per_s": round(stats["chat_requests"] / span_cpu, 1),
        "cpus": os.cpu_count(),
        "load_avg_1m": round(os.getloadavg()[0], 2),
    }
    if not args.raw:
        report |= {"dialogues": args.dialogues, "concurrency": args.concurrency}
    json.dump(report, sys.stdout)
    print()


if __name__ == "__main__":
    main()

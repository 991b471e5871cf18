"""SIGKILL a campaign at random points, several times, then finish it: the store must hold
exactly what an uninterrupted run stores, each dialogue once, and say "finished".

The killed runs are forked from this process (the modules are loaded already, so
each starts in milliseconds instead of seconds of imports) and die by SIGKILL:
no handler, no cleanup, the store left mid-transaction wherever it was.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.campaign.runner import CampaignResult, run_campaign_async
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.store import RunStore

pytestmark = pytest.mark.soak  # processes killed, faults over whole campaigns: the slow tier

SEED = 20240611


def scenario() -> Scenario:
    return parse_scenario(
        {
            "name": "kill",
            "seed": 7,
            "model": {"backend": "scripted", "latency_s": 0.015, "seed": 7},
            "data": {"n_samples": 20, "seed": 7},
            "protocol": {"max_turns": 3},
            "campaign": {"concurrency": 8},
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )


def run(out: Path) -> CampaignResult:
    return asyncio.run(run_campaign_async(scenario(), output_dir=out, progress=False, report=False))


def _child(out: Path) -> None:
    try:
        run(out)
    finally:
        os._exit(0)  # never back into the forked pytest


def dialogues(out: Path) -> int:
    """Stored dialogues (read-only, so this never tidies the store); -1 before there is one."""
    for path in out.glob("*/store.sqlite"):
        try:
            conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
            try:
                return int(conn.execute("SELECT COUNT(*) FROM dialogues").fetchone()[0])
            finally:
                conn.close()
        except sqlite3.Error:
            return -1
    return -1


def kill_when(out: Path, at_least: int, delay: float) -> None:
    """Start a run; SIGKILL it `delay` s after `at_least` dialogues are stored (0: as soon as
    its store exists, so while it prepares its samples or soon after)."""
    proc = multiprocessing.get_context("fork").Process(target=_child, args=(out,))
    proc.start()
    deadline = time.monotonic() + 60
    while dialogues(out) < at_least and proc.is_alive():
        assert time.monotonic() < deadline
        time.sleep(0.002)
    time.sleep(delay)
    assert proc.pid is not None and proc.is_alive(), "the run ended before it could be killed"
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()


def stored(result: CampaignResult) -> dict[str, Any]:
    """What must match: results, samples, and each call once (timings and cache hits aside)."""
    with RunStore.open(result.store_path) as store:
        calls = sorted(
            (str(c.dialogue_id), str(c.system), c.role, c.turn or 0, c.model, c.ok)
            for c in store.read_calls()
        )
        return {
            "results": sorted((r.model_dump() for r in store.read_results()), key=str),
            "samples": store.read_samples(),
            "calls": calls,
            "status": store.get_meta("status"),
            "expected": store.get_meta("expected_dialogues"),
        }


def test_sigkill_three_times_then_resume_matches_an_uninterrupted_run(tmp_path: Path) -> None:
    rng = random.Random(SEED)
    out = tmp_path / "killed"
    kill_when(out, 0, rng.uniform(0.0, 0.08))  # while preparing samples, or just after
    kill_when(out, rng.randint(4, 14), rng.uniform(0.0, 0.02))
    kill_when(out, rng.randint(18, 30), rng.uniform(0.0, 0.02))
    before = dialogues(out)
    assert 0 <= before < 40
    final = run(out)
    assert final.resumed and final.already_done == before
    assert [p for p in out.iterdir() if p.is_dir()] == [final.run_dir]  # one run, resumed
    reference = run(tmp_path / "uninterrupted")
    assert not reference.resumed
    got, want = stored(final), stored(reference)
    assert got == want
    assert got["status"] == "finished" and got["expected"] == "40"
    assert len(got["results"]) == 40

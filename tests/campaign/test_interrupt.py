"""Ctrl-C on `macrs-sim run`: once lets in-flight dialogues finish, twice aborts; both resume.

A real CLI process gets real SIGINTs while a scripted campaign with latency runs.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from macrs_sim.campaign.runner import CampaignInterrupted, run_campaign_async
from macrs_sim.config import load_scenario
from macrs_sim.store import RunStore

pytestmark = pytest.mark.soak  # processes killed, faults over whole campaigns: the slow tier

SCENARIO = """
name = "ctrl-c"
[model]
backend = "scripted"
latency_s = {latency}
[data]
n_samples = {n}
[protocol]
max_turns = 3
[campaign]
concurrency = 4
[[systems]]
name = "MACRS"
kind = "macrs"
[[systems]]
name = "single"
kind = "single_llm"
"""
INTERRUPTED = re.compile(
    r"interrupted: (\d+) of (\d+) dialogues stored; run the same command again to resume \((.+)\)"
)


def start(tmp_path: Path, latency: float, n: int) -> tuple[subprocess.Popen[str], Path, Path]:
    path = tmp_path / "s.toml"
    path.write_text(SCENARIO.format(latency=latency, n=n))
    out = tmp_path / "runs"
    cmd = [sys.executable, "-m", "macrs_sim.cli", "run", str(path), "--output-dir", str(out)]
    proc = subprocess.Popen(
        [*cmd, "--no-progress"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    return proc, path, out


def count(out: Path, table: str) -> int:
    """Rows of `table` in the run's store, read-only; -1 while there is no such store yet."""
    for store in out.glob("*/store.sqlite"):
        try:
            conn = sqlite3.connect(f"{store.as_uri()}?mode=ro", uri=True)
            try:
                return int(conn.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0])
            finally:
                conn.close()
        except sqlite3.Error:
            return -1
    return -1


def wait_for(ready: Callable[[], bool], proc: subprocess.Popen[str], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the campaign never got there"
        time.sleep(0.01)


async def test_one_ctrl_c_stores_in_flight_dialogues_and_the_same_command_resumes(
    tmp_path: Path,
) -> None:
    proc, path, out = start(tmp_path, latency=0.05, n=10)
    wait_for(lambda: count(out, "dialogues") >= 3, proc)
    proc.send_signal(signal.SIGINT)
    seen = count(out, "dialogues")
    _, stderr = proc.communicate(timeout=120)
    assert proc.returncode == 130
    lines = stderr.strip().splitlines()
    assert lines[0].startswith("stopping: no new dialogues") and "Traceback" not in stderr
    match = INTERRUPTED.fullmatch(lines[-1])
    assert match, stderr
    stored, run_dir = int(match[1]), Path(match[3])
    # Stopped early: those in flight (`concurrency` = 4, plus any started while the signal was
    # on its way to the loop) finished and were stored; nothing like all 20 ran.
    assert seen <= stored <= seen + 8 < int(match[2]) == 20
    with RunStore.open(run_dir / "store.sqlite") as store:
        assert store.counts()["dialogues"] == stored
        assert store.get_meta("status") == "running"  # nothing marked finished

    sc = load_scenario(path)
    resumed = await run_campaign_async(sc, output_dir=out, progress=False, report=False)
    reference = await run_campaign_async(
        sc, output_dir=tmp_path / "ref", progress=False, report=False
    )
    assert resumed.run_dir == run_dir and resumed.already_done == stored
    assert resumed.status == "finished" and resumed.stored == 20
    with RunStore.open(resumed.store_path) as a, RunStore.open(reference.store_path) as b:
        assert sorted(a.read_results(), key=str) == sorted(b.read_results(), key=str)
        keys_a = sorted((str(c.dialogue_id), c.role, c.turn or 0) for c in a.read_calls())
        keys_b = sorted((str(c.dialogue_id), c.role, c.turn or 0) for c in b.read_calls())
        assert keys_a == keys_b  # no dialogue's calls recorded twice


def test_a_second_ctrl_c_aborts_at_once(tmp_path: Path) -> None:
    proc, _, out = start(tmp_path, latency=0.3, n=4)
    wait_for(lambda: count(out, "samples") > 0, proc)
    time.sleep(0.2)  # dialogues under way, none near its end (each takes seconds)
    proc.send_signal(signal.SIGINT)
    time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    aborted = time.monotonic()
    _, stderr = proc.communicate(timeout=60)
    assert time.monotonic() - aborted < 5  # in-flight dialogues were cancelled, not awaited
    assert proc.returncode == 130
    match = INTERRUPTED.fullmatch(stderr.strip().splitlines()[-1])
    assert match and match[1] == "0" and match[2] == "8", stderr
    assert "Traceback" not in stderr
    assert count(out, "dialogues") == 0


async def test_in_process_ctrl_c_raises_campaign_interrupted_and_restores_sigint(
    tmp_path: Path,
) -> None:
    path, out = tmp_path / "s.toml", tmp_path / "runs"
    path.write_text(SCENARIO.format(latency=0.02, n=6))
    before = signal.getsignal(signal.SIGINT)

    async def press_ctrl_c() -> None:
        while count(out, "dialogues") < 2:
            await asyncio.sleep(0.005)
        os.kill(os.getpid(), signal.SIGINT)

    presser = asyncio.create_task(press_ctrl_c())
    with pytest.raises(CampaignInterrupted) as err:
        await run_campaign_async(load_scenario(path), output_dir=out, progress=False, report=False)
    await presser
    assert signal.getsignal(signal.SIGINT) is before
    assert 2 <= err.value.stored < err.value.expected == 12
    assert str(err.value).startswith(f"interrupted: {err.value.stored} of 12 dialogues stored;")

"""A budget stops new dialogues; the run is marked stopped_budget and a higher budget resumes it.

Scripted calls count words as tokens: preparing 3 samples costs ~700 tokens, a
MACRS dialogue ~2,000 and a single-LLM one ~800, so 3,000 tokens stop the run early.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from macrs_sim import cli
from macrs_sim.campaign.runner import CampaignResult, run_campaign_async
from macrs_sim.config import Scenario, parse_scenario, scenario_to_toml
from macrs_sim.store import RunStore

PRICES = {"scripted": {"prompt": 1.0, "completion": 1.0}}  # $1 per million tokens


def scenario(**campaign: Any) -> Scenario:
    return parse_scenario(
        {
            "name": "b",
            "model": {"backend": "scripted", "latency_s": 0.002},
            "data": {"n_samples": 3},
            "protocol": {"max_turns": 2},
            "campaign": {"concurrency": 2, "prices": PRICES} | campaign,
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )


async def run(sc: Scenario, out: Path) -> CampaignResult:
    return await run_campaign_async(sc, output_dir=out, progress=False, report=False)


def status(result: CampaignResult) -> str | None:
    with RunStore.open(result.store_path) as store:
        assert store.counts()["dialogues"] == result.stored
        return store.get_meta("status")


@pytest.mark.parametrize("limit", [{"budget_tokens": 3000}, {"budget_usd": 0.003}])
async def test_a_budget_stops_the_run_and_a_higher_one_continues_it(
    tmp_path: Path, limit: dict[str, float]
) -> None:
    stopped = await run(scenario(**limit), tmp_path)
    assert stopped.status == "stopped_budget" and status(stopped) == "stopped_budget"
    # Those in flight when the budget was reached were finished and stored, no more.
    assert 1 <= stopped.stored <= 4 and stopped.expected == 6
    assert stopped.spend.tokens >= 3000 and stopped.spend.usd == pytest.approx(
        stopped.spend.tokens / 1e6
    )
    same = await run(scenario(**limit), tmp_path)  # same budget: already spent, nothing new
    assert same.resumed and same.stored == stopped.stored and same.status == "stopped_budget"
    assert same.spend.tokens == stopped.spend.tokens  # earlier sessions count
    more = await run(scenario(budget_tokens=10**6), tmp_path)
    assert more.run_dir == stopped.run_dir and more.already_done == stopped.stored
    assert more.status == "finished" and more.stored == 6 and status(more) == "finished"


async def test_without_a_budget_spending_is_still_reported(tmp_path: Path) -> None:
    result = await run(scenario(), tmp_path)
    assert result.status == "finished"
    with RunStore.open(result.store_path) as store:
        calls = store.read_calls()
    assert result.spend.tokens == sum(c.prompt_tokens + c.completion_tokens for c in calls)


def test_the_cli_says_the_budget_was_reached_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from macrs_sim.campaign import runner

    real = runner.run_campaign_async

    async def without_report(sc: Scenario, **kwargs: Any) -> CampaignResult:
        return await real(sc, **kwargs, report=False)  # the figures take seconds

    monkeypatch.setattr(runner, "run_campaign_async", without_report)
    path = tmp_path / "s.toml"
    path.write_text(scenario_to_toml(scenario(budget_tokens=3000)))
    argv = ["run", str(path), "--output-dir", str(tmp_path / "runs"), "--no-progress"]
    assert cli.main(argv) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "budget reached" in ln]
    assert len(lines) == 1
    assert lines[0].startswith("budget reached: spent ")
    assert "of a budget of 3,000 tokens;" in lines[0] and " of 6 dialogues stored;" in lines[0]
    assert "run the same command again to continue" in lines[0]


async def test_preparing_the_users_counts_against_the_budget(tmp_path: Path) -> None:
    sc = scenario(budget_tokens=500).model_copy(
        update={"data": scenario().data.model_copy(update={"n_samples": 10})}
    )
    stopped = await run(sc, tmp_path)
    # ~230 tokens a user, 2 at a time: the budget is spent after the second pair, long
    # before all 10 are prepared (before, all 10 were, whatever the budget).
    assert stopped.status == "stopped_budget" and stopped.stored == 0 and stopped.expected == 20
    assert 500 <= stopped.spend.tokens < 1500
    with RunStore.open(stopped.store_path) as store:
        prepared = [s for s in store.read_samples() if s.opening]
        openings = [c.role for c in store.read_calls()].count("opening")
    assert 2 <= len(prepared) == openings <= 4
    more = await run(
        sc.model_copy(update={"campaign": scenario(budget_tokens=10**6).campaign}), tmp_path
    )
    assert more.run_dir == stopped.run_dir and more.status == "finished" and more.stored == 20
    with RunStore.open(more.store_path) as store:
        assert all(s.opening for s in store.read_samples())
        # Each user prepared once: preparation's calls are recorded once.
        assert [c.role for c in store.read_calls()].count("opening") == 10


def _killed_child(sc: Scenario, out: Path) -> None:
    try:
        asyncio.run(run(sc, out))
    finally:
        os._exit(0)  # never back into the forked pytest


def test_calls_of_dialogues_killed_mid_run_count_when_the_run_resumes(tmp_path: Path) -> None:
    sc = scenario(budget_tokens=10**9, concurrency=4)
    sc = sc.model_copy(
        update={
            "model": sc.model.model_copy(update={"latency_s": 0.05}),
            "data": sc.data.model_copy(update={"n_samples": 8}),
        }
    )
    out = tmp_path / "killed"
    proc = multiprocessing.get_context("fork").Process(target=_killed_child, args=(sc, out))
    proc.start()
    deadline = time.monotonic() + 60
    while _stored(out) < 2:
        assert time.monotonic() < deadline and proc.is_alive()
        time.sleep(0.005)
    time.sleep(0.3)  # dialogues in flight have made calls
    assert proc.pid is not None and proc.is_alive()
    os.kill(proc.pid, signal.SIGKILL)
    proc.join()
    resumed = asyncio.run(run(sc, out))
    assert resumed.resumed and resumed.status == "finished" and resumed.stored == 16
    with RunStore.open(resumed.store_path) as store:
        calls = store.read_calls()
    lost = [c for c in calls if c.role == "in_flight_when_stopped"]
    # The killed session's in-flight calls, as it last recorded them (at most 0.25 s before
    # the kill), one record per model; before, they were counted nowhere, and the dialogues'
    # redo hit the cache: paid for, never counted.
    assert [c.model for c in lost] == ["scripted"] and lost[0].prompt_tokens > 0
    paid = sum(c.prompt_tokens + c.completion_tokens for c in calls if not c.cached)
    assert resumed.spend.tokens == paid


def _stored(out: Path) -> int:
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

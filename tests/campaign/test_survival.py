"""Faults cost one dialogue at most, never the campaign: preparing users, a full disk,
a run killed while writing its report, simultaneous starts, stray task tracebacks,
and `--retry-errors`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from macrs_sim import cli
from macrs_sim.analysis.report import full as full_report
from macrs_sim.campaign.resume import StoreWriteFailed
from macrs_sim.campaign.runner import CampaignResult, run_campaign_async
from macrs_sim.config import Scenario, parse_scenario, scenario_to_toml
from macrs_sim.store import RunStore

pytestmark = pytest.mark.soak  # processes killed, faults over whole campaigns: the slow tier

# With these faults one user's opening gets two empty replies: before, the whole
# campaign ended with "error: opening: the model returned an empty reply twice".
PREP_FAULT = "preparing the user failed: StructuredOutputError: opening: the model returned an empty reply twice"  # noqa: E501


def scenario(
    n: int = 20, *, rate: float = 0.3, seed: int = 9, latency_s: float = 0.0, **campaign: Any
) -> Scenario:
    return parse_scenario(
        {
            "name": "survive",
            "model": {"backend": "scripted", "latency_s": latency_s},
            "data": {"n_samples": n},
            "protocol": {"max_turns": 2},
            "campaign": {"concurrency": 4, **campaign},
            "faults": {"rate": rate, "seed": seed},
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )


async def run(sc: Scenario, out: Path, **kwargs: Any) -> CampaignResult:
    return await run_campaign_async(sc, output_dir=out, progress=False, report=False, **kwargs)


def errors(result: CampaignResult) -> dict[str, str | None]:
    with RunStore.open(result.store_path) as store:
        return {r.dialogue_id: r.error for r in store.read_results() if r.status == "error"}


async def test_a_user_that_cannot_be_prepared_costs_its_dialogues_only(tmp_path: Path) -> None:
    result = await run(scenario(), tmp_path)
    assert result.status == "finished" and result.stored == result.expected == 40
    failed = {d: e for d, e in errors(result).items() if e and e.startswith("preparing")}
    assert failed == {"MACRS:s-u0050": PREP_FAULT, "single:s-u0050": PREP_FAULT}
    with RunStore.open(result.store_path) as store:
        unprepared = [s.sample_id for s in store.read_samples() if not s.opening]
    assert unprepared == ["s-u0050"]


async def test_retry_errors_runs_the_error_dialogues_again(tmp_path: Path) -> None:
    first = await run(scenario(), tmp_path)
    before = errors(first)
    assert len(before) == 3  # two from the unprepared user, one from a fault in a dialogue
    again = await run(scenario(), tmp_path)
    assert again.run_dir != first.run_dir  # finished: a plain second run is a new run
    # Seeded faults strike the same requests again (a new process counts attempts anew),
    # so the same three end as errors: deleted, redone (the user prepared again), stored.
    news: list[str] = []
    retried = await run(scenario(), tmp_path, retry_errors=True, notify=news.append)
    assert retried.run_dir == again.run_dir and retried.resumed
    assert news[0] == f"retrying 3 dialogues stored as errors in {again.run_dir}"
    assert retried.status == "finished" and retried.stored == 40 and errors(retried) == before
    # Other faults make another scenario: --retry-errors never touches another's run.
    clean = await run(scenario(rate=0.0), tmp_path, retry_errors=True)
    assert clean.run_dir not in (first.run_dir, again.run_dir) and errors(clean) == {}


async def test_retry_errors_with_the_faults_gone_leaves_no_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = await run(scenario(), tmp_path)
    assert len(errors(first)) == 3
    from macrs_sim.llm import faults

    monkeypatch.setattr(faults.FaultInjectingClient, "decide", lambda *a: None)
    retried = await run(scenario(), tmp_path, retry_errors=True)
    assert retried.run_dir == first.run_dir and retried.already_done == 37
    assert retried.status == "finished" and retried.stored == 40 and errors(retried) == {}
    with RunStore.open(retried.store_path) as store:
        assert all(s.opening for s in store.read_samples())
        assert store.count_errors() == 0


async def test_a_full_disk_stops_new_dialogues_and_the_same_command_resumes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = RunStore.write_dialogue
    attempts: list[str] = []

    def full_after_three(self: RunStore, result: Any, *args: Any) -> None:
        attempts.append(result.dialogue_id)
        if len(attempts) > 3:
            raise sqlite3.OperationalError("database or disk is full")
        real(self, result, *args)

    monkeypatch.setattr(RunStore, "write_dialogue", full_after_three)
    sc = scenario(rate=0.0)
    with pytest.raises(StoreWriteFailed) as info:
        await run(sc, tmp_path)
    message = str(info.value)
    assert (
        "\n" not in message
        and "a write failed (OperationalError: database or disk is full)" in message
    )
    assert message.endswith("free space and run the same command again to resume")
    # The 4th write failed; only the 3 others then in flight (concurrency 4) were finished.
    assert len(attempts) <= 3 + 4 < 40
    monkeypatch.setattr(RunStore, "write_dialogue", real)
    resumed = await run(sc, tmp_path)
    assert resumed.resumed and resumed.already_done == 3
    assert resumed.status == "finished" and resumed.stored == 40
    with RunStore.open(resumed.store_path) as store:
        assert store.integrity_problem() is None


def test_a_full_disk_is_one_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def full(self: RunStore, *args: Any) -> None:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(RunStore, "write_dialogue", full)
    path = tmp_path / "s.toml"
    path.write_text(scenario_to_toml(scenario(4, rate=0.0)))
    assert cli.main(["run", str(path), "--output-dir", str(tmp_path), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "disk is full" in err[0]


async def test_a_run_killed_while_writing_its_report_gets_only_its_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Killed(BaseException):
        pass

    def killed(*args: Any, **kwargs: Any) -> None:
        raise Killed  # as if SIGKILLed mid-report: nothing after it runs

    monkeypatch.setattr(full_report, "write_report", killed)
    sc = scenario(4, rate=0.0)
    with pytest.raises(Killed):
        await run_campaign_async(sc, output_dir=tmp_path, progress=False)
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    assert not (run_dir / "report.md").exists()
    monkeypatch.undo()
    news: list[str] = []
    again = await run_campaign_async(sc, output_dir=tmp_path, progress=False, notify=news.append)
    assert again.run_dir == run_dir and again.resumed and again.already_done == 8
    assert news == [f"resuming {run_dir}: 8 of 8 dialogues already stored"]
    assert (run_dir / "report.md").is_file()
    assert [p for p in tmp_path.iterdir() if p.is_dir()] == [run_dir]  # no second run
    third = await run(sc, tmp_path)  # reported: the next start is a new run
    assert third.run_dir != run_dir and not third.resumed


def _start(out: Path, barrier: Any, report: Path) -> None:
    try:
        barrier.wait(timeout=60)
        result = asyncio.run(run(scenario(1, rate=0.0), out))
        report.write_text(f"{result.run_dir.name} {result.status}")
    except BaseException as err:  # noqa: BLE001 - reported to the parent, whatever it is
        report.write_text(f"crash {type(err).__name__}: {err}")
    finally:
        os._exit(0)  # never back into the forked pytest


def test_simultaneous_starts_never_share_or_steal_a_run(tmp_path: Path) -> None:
    starts = 24
    ctx = multiprocessing.get_context("fork")
    barrier = ctx.Barrier(starts)
    reports = [tmp_path / f"start-{i}.txt" for i in range(starts)]
    out = tmp_path / "runs"
    procs = [ctx.Process(target=_start, args=(out, barrier, r)) for r in reports]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=240)
    outcomes = [r.read_text().split(" ", 1) if r.exists() else ["missing", ""] for r in reports]
    assert [o for o in outcomes if o[0] in ("crash", "missing")] == []
    # Each start ran its own new run, or found a run nobody held and finished it.
    assert all(status == "finished" for _, status in outcomes)
    names = [name for name, _ in outcomes]
    assert len(set(names)) == len(names) == starts
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == sorted(names)


def test_no_traceback_reaches_the_terminal_during_a_faulty_campaign(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    # Calls take a while, so a responder fails while its siblings are still waiting.
    sc = scenario(30, rate=0.5, seed=7, latency_s=0.01, concurrency=16)
    path.write_text(scenario_to_toml(sc))
    env = {**os.environ, "PYTHONPATH": str(Path(cli.__file__).parents[2])}
    argv = [sys.executable, "-m", "macrs_sim.cli", "run", str(path), "--output-dir"]
    proc = subprocess.run(
        [*argv, str(tmp_path / "runs"), "--no-progress"],
        capture_output=True, text=True, env=env, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "Task exception" not in proc.stderr, proc.stderr
    assert "finished in" in proc.stdout

"""Running the same scenario again resumes its unfinished run, and only that."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.campaign.rundir import STORE_FILE, RunLock, new_run_dir, run_identity
from macrs_sim.campaign.runner import CampaignResult, run_campaign_async
from macrs_sim.campaign.setup import resolve_scenario
from macrs_sim.config import Scenario, parse_scenario, scenario_to_toml
from macrs_sim.errors import DataError
from macrs_sim.store import RunStore
from tests.store.store_cells import delete_dialogue


def scenario(n_samples: int = 3, max_turns: int = 2, **campaign: Any) -> Scenario:
    return parse_scenario(
        {
            "name": "r",
            "model": {"backend": "scripted"},
            "data": {"n_samples": n_samples},
            "protocol": {"max_turns": max_turns},
            "campaign": campaign,
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )


async def run(sc: Scenario, out: Path, **kwargs: Any) -> CampaignResult:
    return await run_campaign_async(sc, output_dir=out, progress=False, report=False, **kwargs)


def stored(result: CampaignResult) -> tuple[list[dict[str, Any]], list[tuple[Any, ...]], str]:
    """Results, call keys (no timings, no cache flags) and status: what must not differ."""
    with RunStore.open(result.store_path) as store:
        results = sorted((r.model_dump() for r in store.read_results()), key=str)
        calls = sorted(
            (str(c.dialogue_id), c.role, c.turn or 0, c.model, c.ok) for c in store.read_calls()
        )
        return results, calls, str(store.get_meta("status"))


def crash_after(result: CampaignResult, keep: int) -> None:
    """Leave the store as a crash would: `keep` dialogues stored, status still running."""
    conn = sqlite3.connect(result.store_path)
    conn.execute("PRAGMA foreign_keys=ON")
    ids = [r[0] for r in conn.execute("SELECT dialogue_id FROM dialogues ORDER BY rowid")]
    for dialogue_id in ids[keep:]:
        delete_dialogue(conn, dialogue_id)
    conn.execute("UPDATE meta SET value = 'running' WHERE key = 'status'")
    conn.commit()
    conn.close()


async def test_a_crashed_run_resumes_redoing_only_the_missing_dialogues(tmp_path: Path) -> None:
    reference = stored(await run(scenario(), tmp_path / "ref"))
    first = await run(scenario(), tmp_path / "runs")
    crash_after(first, keep=2)
    notes: list[str] = []
    again = await run(scenario(), tmp_path / "runs", notify=notes.append)
    assert again.run_dir == first.run_dir and again.resumed
    assert (again.already_done, again.stored, again.expected) == (2, 6, 6)
    assert notes == [f"resuming {first.run_dir}: 2 of 6 dialogues already stored"]
    assert stored(again) == reference  # nothing lost, nothing twice
    assert reference[2] == "finished"
    assert [p.name for p in (tmp_path / "runs").iterdir() if p.is_dir()] == [first.run_dir.name]


@pytest.mark.parametrize("left", ["no store", "empty store file", "store without samples"])
async def test_a_run_killed_before_storing_its_samples_prepares_them_again(
    tmp_path: Path, left: str
) -> None:
    run_dir, lock = new_run_dir(resolve_scenario(scenario()), tmp_path)  # as the runner saves it
    lock.release()  # as if its process died
    if left == "empty store file":
        (run_dir / STORE_FILE).write_bytes(b"")
    elif left == "store without samples":
        RunStore.create(run_dir / STORE_FILE).close()
    result = await run(scenario(), tmp_path)
    assert result.run_dir == run_dir and result.resumed and result.already_done == 0
    assert result.status == "finished" and result.stored == 6
    with RunStore.open(result.store_path) as store:
        assert len(store.read_samples()) == 3
        # Preparation's calls are recorded once, with the samples.
        assert [c.role for c in store.read_calls()].count("opening") == 3


async def test_an_unreadable_store_is_never_resumed_silently(tmp_path: Path) -> None:
    run_dir, lock = new_run_dir(resolve_scenario(scenario()), tmp_path)  # as the runner saves it
    lock.release()
    (run_dir / STORE_FILE).write_bytes(b"this is not SQLite " * 300)
    with pytest.raises(DataError) as err:
        await run(scenario(), tmp_path)
    message = str(err.value)
    assert message.startswith(f"{run_dir}: an unfinished run of this scenario has an unreadable")
    assert "move that directory away" in message and "\n" not in message
    fresh = await run(scenario(), tmp_path, resume=False)  # --no-resume
    assert fresh.run_dir != run_dir and not fresh.resumed and fresh.status == "finished"


async def test_finished_other_and_busy_runs_are_not_resumed(tmp_path: Path) -> None:
    first = await run(scenario(), tmp_path)
    second = await run(scenario(), tmp_path)
    assert second.run_dir != first.run_dir and not second.resumed  # first was finished
    crash_after(second, keep=6)
    other = await run(scenario(n_samples=2), tmp_path)
    assert not other.resumed  # another scenario's unfinished run is not this one's
    lock = RunLock.acquire(second.run_dir)  # as if another process were running it
    assert lock is not None
    busy = await run(scenario(), tmp_path)
    lock.release()
    assert not busy.resumed and busy.run_dir != second.run_dir
    free = RunLock.acquire(busy.run_dir)
    assert free is not None  # released when its run ended
    free.release()
    crash_after(busy, keep=6)
    resumed = await run(scenario(), tmp_path)
    assert resumed.resumed and resumed.run_dir == busy.run_dir  # the newest unfinished one
    assert (resumed.already_done, resumed.status) == (6, "finished")


def test_the_resolved_scenario_is_deterministic_and_only_outcomes_count() -> None:
    assert scenario_to_toml(scenario()) == scenario_to_toml(scenario())
    base = run_identity(scenario_to_toml(scenario()))
    how = scenario(
        concurrency=16,
        executor="ray",
        ray_actors=4,
        budget_tokens=10,
        budget_usd=1.0,
        prices={"scripted": {"prompt": 1.0, "completion": 2.0}},
    )
    how = how.model_copy(update={"cache": how.cache.model_copy(update={"enabled": False})})
    assert run_identity(scenario_to_toml(how)) == base
    assert run_identity(scenario_to_toml(scenario(max_turns=3))) != base


def test_cli_resumes_by_default_and_no_resume_starts_afresh(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from macrs_sim import cli
    from macrs_sim.campaign import runner

    real = runner.run_campaign_async

    async def without_report(sc: Scenario, **kwargs: Any) -> CampaignResult:
        return await real(sc, **kwargs, report=False)  # the figures take seconds

    monkeypatch.setattr(runner, "run_campaign_async", without_report)
    path, out = tmp_path / "s.toml", tmp_path / "runs"
    path.write_text(scenario_to_toml(scenario()))
    argv = ["run", str(path), "--output-dir", str(out), "--no-progress", "--executor", "local"]
    assert cli.main(argv) == 0
    (first,) = [p for p in out.iterdir() if p.is_dir()]
    with RunStore.open(first / STORE_FILE) as store:
        store.set_meta("status", "running")  # as if it had been killed after its last dialogue
    capsys.readouterr()
    assert cli.main(argv) == 0
    assert f"resuming {first}: 6 of 6 dialogues already stored" in capsys.readouterr().err
    assert [p for p in out.iterdir() if p.is_dir()] == [first]
    with RunStore.open(first / STORE_FILE) as store:
        store.set_meta("status", "running")
    assert cli.main([*argv, "--no-resume"]) == 0
    assert len([p for p in out.iterdir() if p.is_dir()]) == 2

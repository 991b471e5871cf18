"""A server that goes away mid-campaign (FakeOpenAIServer on 127.0.0.1) costs no dialogue.

Short outages: calls wait for the server (circuit breaker) and every dialogue ends as
it would have. Outages longer than a call may wait: the dialogues they cut short are
left unfinished, not stored as errors, the run is "incomplete", and the same command
runs exactly those again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.campaign import setup as campaign_setup
from macrs_sim.campaign.runner import CampaignResult, run_campaign_async
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.llm.fake_openai_server import FakeOpenAIServer, Fault
from macrs_sim.store import RunStore

pytestmark = pytest.mark.soak  # processes killed, faults over whole campaigns: the slow tier

N_SAMPLES = 12


def scenario(srv: FakeOpenAIServer) -> Scenario:
    model = {
        "backend": "openai", "model": "fake", "base_url": srv.base_url, "api_key_env": None,
        "timeout_s": 2.0, "max_retries": 2, "backoff_base_s": 0.01, "backoff_max_s": 0.05,
        "max_concurrency": 32,
    }  # fmt: skip
    return parse_scenario(
        {
            "name": "outage",
            "model": model,
            "data": {"n_samples": N_SAMPLES},
            "protocol": {"max_turns": 3},
            "campaign": {"concurrency": 12},
            "systems": [{"name": "single", "kind": "single_llm"}],
        }
    )


async def run_with(
    srv: FakeOpenAIServer, out: Path, during: Callable[[], Any] | None = None
) -> tuple[CampaignResult, list[str]]:
    news: list[str] = []
    task = asyncio.create_task(
        run_campaign_async(
            scenario(srv), output_dir=out, progress=False, notify=news.append, report=False
        )
    )
    if during is not None:
        await during()
    return await task, news


async def outage(srv: FakeOpenAIServer, *, after_calls: int, for_s: float, fault: Fault) -> None:
    while srv.chat_count < after_calls:
        await asyncio.sleep(0.005)
    srv.set_down(0, fault)
    await asyncio.sleep(for_s)
    srv.set_down(0, None)


def stored_errors(result: CampaignResult) -> list[str | None]:
    with RunStore.open(result.store_path) as store:
        return [r.error for r in store.read_results() if r.status == "error"]


@pytest.mark.parametrize("fault", [Fault("drop"), Fault("status", 503)], ids=["drop", "503"])
async def test_a_short_outage_costs_no_dialogue(tmp_path: Path, fault: Fault) -> None:
    async with FakeOpenAIServer(latency_s=0.02) as srv:
        # 12 preparations, then dialogues under way: the server goes away for 1.5 s.
        down = outage(srv, after_calls=40, for_s=1.5, fault=fault)
        result, news = await run_with(srv, tmp_path, lambda: down)
    assert result.status == "finished" and result.stored == result.expected == N_SAMPLES
    assert stored_errors(result) == []
    assert "waiting for the server (calls fail on every endpoint); dialogues pause" in news
    assert "the server answers again; dialogues go on" in news


async def test_a_long_outage_leaves_dialogues_unfinished_and_the_same_command_redoes_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(campaign_setup, "OUTAGE_WAIT_S", 0.5)  # a call waits 0.5 s at most
    async with FakeOpenAIServer(latency_s=0.02) as srv:
        # Down for good once the dialogues are under way.
        down = outage(srv, after_calls=40, for_s=60, fault=Fault("drop"))
        waiting = asyncio.create_task(down)
        first, _ = await run_with(srv, tmp_path)
        waiting.cancel()
        srv.set_down(0, None)
        assert first.status == "incomplete" and first.unfinished > 0
        assert first.stored + first.unfinished == N_SAMPLES
        assert stored_errors(first) == []  # not a single error: the server's fault, not theirs
        with RunStore.open(first.store_path) as store:
            assert store.get_meta("status") == "incomplete"
            # Calls of the unfinished dialogues are kept (paid for), tied to no dialogue.
            ids = {c.dialogue_id for c in store.read_calls()}
        assert ids - {None} <= {f"single:{r}" for r in _sample_ids(first)}
        second, news = await run_with(srv, tmp_path)
    assert second.run_dir == first.run_dir and second.resumed
    assert second.already_done == first.stored
    assert second.status == "finished" and second.stored == N_SAMPLES
    assert stored_errors(second) == []
    resuming = [line for line in news if line.startswith("resuming")]
    assert resuming == [
        f"resuming {first.run_dir}: {first.stored} of {N_SAMPLES} dialogues already stored"
    ]


def _sample_ids(result: CampaignResult) -> list[str]:
    with RunStore.open(result.store_path) as store:
        return [s.sample_id for s in store.read_samples()]


def test_the_cli_says_incomplete_in_one_line_and_exits_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from macrs_sim import cli
    from macrs_sim.campaign import runner
    from macrs_sim.config import scenario_to_toml

    monkeypatch.setattr(campaign_setup, "OUTAGE_WAIT_S", 0.3)
    real = runner.run_campaign_async

    async def without_report(sc: Scenario, **kwargs: Any) -> CampaignResult:
        return await real(sc, **kwargs, report=False)

    monkeypatch.setattr(runner, "run_campaign_async", without_report)
    with FakeOpenAIServer(latency_s=0.01).run_in_thread() as srv:
        srv.fail(500, times=10_000, at=30)  # answers preparation, then only 500s
        path = tmp_path / "s.toml"
        path.write_text(scenario_to_toml(scenario(srv)))
        argv = ["run", str(path), "--output-dir", str(tmp_path / "runs"), "--no-progress"]
        assert cli.main(argv) == 3
    out = capsys.readouterr().out
    lines = [ln for ln in out.splitlines() if ln.startswith("incomplete:")]
    assert len(lines) == 1, out
    assert f" of {N_SAMPLES} dialogues stored; " in lines[0]
    assert "not stored (the server failed or went away); run the same command again" in lines[0]


async def test_users_an_outage_kept_from_being_prepared_are_prepared_by_the_same_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(campaign_setup, "OUTAGE_WAIT_S", 0.3)
    async with FakeOpenAIServer() as srv:
        srv.set_down(0, Fault("status", 502))  # GET /models answers: only chat is down
        first, _ = await run_with(srv, tmp_path)
        assert first.status == "incomplete" and first.stored == 0
        with RunStore.open(first.store_path) as store:
            assert [s.opening for s in store.read_samples()] == [""] * N_SAMPLES
            assert store.count_errors() == 0
        assert not (first.run_dir / "samples.jsonl").exists()  # not a usable sample set yet
        srv.set_down(0, None)
        second, _ = await run_with(srv, tmp_path)
    assert second.run_dir == first.run_dir and second.status == "finished"
    assert second.stored == N_SAMPLES and stored_errors(second) == []
    with RunStore.open(second.store_path) as store:
        assert all(s.opening for s in store.read_samples())
    assert (second.run_dir / "samples.jsonl").is_file()  # written once all are prepared

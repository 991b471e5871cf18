"""DESIGN §6's promises for the three paper systems (InteRecAgent, RecMind, ToolRec), each
talking to a FakeOpenAIServer on 127.0.0.1 over real HTTP:

- chaos: 10 % of the server's replies are a 500, a 429, a dropped connection or a reply
  slower than the client's timeout; retries absorb them, so no dialogue ends as an error
  and each stores what it stores without faults;
- a 3 s outage mid-campaign costs no dialogue: calls wait for the server, the run finishes;
- `macrs-sim run` killed by SIGKILL mid-campaign, then the same command again, stores what
  an uninterrupted run stores.

The MACRS versions are test_reliability.py, test_outage.py and test_kill_resume.py.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.campaign.runner import CampaignResult, run_campaign_async
from macrs_sim.config import Scenario, parse_scenario, scenario_to_toml
from macrs_sim.llm.fake_openai_server import DROP, FakeOpenAIServer, Fault
from tests.campaign.test_kill_resume import dialogues, stored
from tests.campaign.test_outage import outage, stored_errors

# Processes killed, faults over whole campaigns: the slow tier. One worker for the module, so
# each kind's rankers and uninterrupted run (module fixtures) are made once, not per worker.
pytestmark = [pytest.mark.soak, pytest.mark.xdist_group("paper-systems-faults")]

N_SAMPLES = 4
TIMEOUT_S = 2.0  # the client's per-attempt timeout; a hang outlasts it
# Small and fast: tiny rankers trained for 2 epochs, demonstrations picked by token overlap.
SMALL_RANKER = {"epochs": "2", "dim": "8"}
OPTIONS: dict[str, dict[str, Any]] = {
    "interecagent": {
        "demo_retrieval": "tokens",
        "ranker_params": {"position": "false", **SMALL_RANKER},
    },
    "recmind": {},
    "toolrec": {"ranker_params": SMALL_RANKER, "retriever_params": {"tune_epochs": "1"}},
}
# InteRecAgent's item-similarity tool embeds the catalog with the bundled text model.
KINDS = [pytest.param("interecagent", marks=pytest.mark.textmodel), "recmind", "toolrec"]
# The server's faults, in turn: every 10th chat request gets the next one.
CHAOS = (
    Fault("status", 500),
    Fault("status", 429, retry_after="0"),
    DROP,
    Fault("hang", delay_s=TIMEOUT_S + 0.5),
)


def scenario(kind: str, base_url: str) -> Scenario:
    model = {
        "backend": "openai", "model": "fake", "base_url": base_url, "api_key_env": None,
        "timeout_s": TIMEOUT_S, "max_retries": 3, "backoff_base_s": 0.01, "backoff_max_s": 0.05,
    }  # fmt: skip
    return parse_scenario(
        {
            "name": f"faults-{kind}",
            "seed": 7,
            "model": model,
            "data": {"n_samples": N_SAMPLES, "seed": 7},
            "simulator": {"kind": "agenda"},
            "protocol": {"max_turns": 2},
            "campaign": {"concurrency": 2},
            "systems": [{"name": kind, "kind": kind, **OPTIONS[kind]}],
        }
    )


@pytest.fixture(scope="module", autouse=True)
def model_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Ranker checkpoints and RecMind's memory go to the user cache: one in tmp for the
    module (each kind trains once), also for the `macrs-sim run` subprocesses."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg")))
        yield


async def run(
    kind: str, srv: FakeOpenAIServer, out: Path, news: list[str] | None = None
) -> CampaignResult:
    return await run_campaign_async(
        scenario(kind, srv.base_url), output_dir=out, progress=False, report=False,
        notify=None if news is None else news.append,
    )  # fmt: skip


class Uninterrupted:
    """Each kind's scenario run once without a fault (the server's replies depend on the
    request alone, so any server's run stores the same): its result and chat requests."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.runs: dict[str, tuple[CampaignResult, int]] = {}

    async def of(self, kind: str) -> tuple[CampaignResult, int]:
        if kind not in self.runs:
            async with FakeOpenAIServer() as srv:
                result = await run(kind, srv, self.root / kind)
            assert result.status == "finished" and result.stored == N_SAMPLES
            self.runs[kind] = result, srv.chat_count
        return self.runs[kind]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Uninterrupted:
    return Uninterrupted(tmp_path_factory.mktemp("uninterrupted"))


def without_seconds(value: Any) -> Any:
    """`value` without the wall-clock "seconds" a turn's explain holds (RecMind's)."""
    if isinstance(value, dict):
        return {k: without_seconds(v) for k, v in value.items() if k != "seconds"}
    if isinstance(value, list | tuple):
        return [without_seconds(v) for v in value]
    return value


def same(result: CampaignResult) -> Any:
    """What two runs of the scenario must store alike: test_kill_resume's `stored` (results,
    samples, calls, status), timings aside."""
    return without_seconds(stored(result))


def results(result: CampaignResult) -> Any:
    return same(result)["results"]


@pytest.mark.parametrize("kind", KINDS)
async def test_ten_percent_server_faults_cost_no_dialogue(
    tmp_path: Path, kind: str, uninterrupted: Uninterrupted
) -> None:
    clean, _ = await uninterrupted.of(kind)
    # Every 10th chat request fails, the faults in turn.
    plan = {n: CHAOS[i % len(CHAOS)] for i, n in enumerate(range(5, 10_000, 10))}
    async with FakeOpenAIServer() as srv:
        srv.scheduled.update(plan)
        chaos = await run(kind, srv, tmp_path)
    served = [fault for n, fault in plan.items() if n <= srv.chat_count]
    assert set(served) == set(CHAOS), f"{srv.chat_count} requests: too few for every fault"
    assert chaos.status == "finished" and chaos.stored == chaos.expected == N_SAMPLES
    assert stored_errors(chaos) == []
    assert results(chaos) == results(clean)  # retried away: the same dialogues


@pytest.mark.parametrize("kind", KINDS)
async def test_a_3_s_outage_mid_campaign_costs_no_dialogue(
    tmp_path: Path, kind: str, uninterrupted: Uninterrupted
) -> None:
    clean, calls = await uninterrupted.of(kind)
    async with FakeOpenAIServer() as srv:
        # Down once a third of the calls are made: every chat request's connection dropped.
        down = asyncio.create_task(outage(srv, after_calls=calls // 3, for_s=3.0, fault=DROP))
        news: list[str] = []
        result = await run(kind, srv, tmp_path, news)
        assert down.done(), f"the campaign ended ({result.status}) before the server came back"
    assert "waiting for the server (calls fail on every endpoint); dialogues pause" in news
    assert "the server answers again; dialogues go on" in news
    assert result.status == "finished" and result.stored == result.expected == N_SAMPLES
    assert stored_errors(result) == []
    assert results(result) == results(clean)


@contextmanager
def cli_run(path: Path, out: Path, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """`macrs-sim run` in a process of its own, its output to `log`; SIGKILLed at the end
    of the block if it still runs then (a failed test leaves no process behind)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    argv = [sys.executable, "-m", "macrs_sim.cli", "run", str(path), "--output-dir", str(out)]
    with log.open("wb") as sink:
        proc = subprocess.Popen([*argv, "--no-progress"], stdout=sink, stderr=sink, env=env)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


@pytest.mark.parametrize("kind", KINDS)
async def test_sigkill_mid_campaign_then_the_same_command_stores_the_uninterrupted_run(
    tmp_path: Path, kind: str, uninterrupted: Uninterrupted
) -> None:
    reference, _ = await uninterrupted.of(kind)
    path, out, log = tmp_path / "s.toml", tmp_path / "runs", tmp_path / "run.log"
    with FakeOpenAIServer(latency_s=0.05).run_in_thread() as srv:
        path.write_text(scenario_to_toml(scenario(kind, srv.base_url)))
        with cli_run(path, out, log) as proc:
            deadline = time.monotonic() + 120
            while dialogues(out) < 1:
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "no dialogue stored in 120 s"
                await asyncio.sleep(0.01)
            proc.kill()  # SIGKILL, as soon as one dialogue is stored
        before = dialogues(out)
        assert 1 <= before < N_SAMPLES, "killed after the campaign's end"
        with cli_run(path, out, log) as again:  # the same command
            assert again.wait(timeout=300) == 0, log.read_text()
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]  # one run, resumed
    said = f"resuming {run_dir}: {before} of {N_SAMPLES} dialogues already stored"
    assert said in log.read_text()
    # The killed and resumed run's store, read as the uninterrupted run's is.
    got = same(replace(reference, run_dir=run_dir))
    assert got == same(reference)
    assert got["status"] == "finished" and len(got["results"]) == N_SAMPLES

"""Chaos campaigns: with the scenario's [faults] on, every dialogue ends completed or errored
with its cause, and the campaign itself always finishes."""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.campaign.sampling import build_sample_set
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.config import FaultsConfig, Scenario, parse_scenario
from macrs_sim.llm import faults
from macrs_sim.protocol import DialogueResult
from macrs_sim.store import RunStore

pytestmark = pytest.mark.soak  # processes killed, faults over whole campaigns: the slow tier

ALL_KINDS = set(FaultsConfig().kinds)
SampleSets = Callable[[int], Awaitable[Path]]
# What an errored dialogue's `error` may say: the injected fault itself (retries exhausted)
# or the repair path giving up on broken / empty replies.
CAUSES = ("injected fault", "no valid reply after", "returned an empty reply twice")


def scenario(n: int, *, sample_set: Path | None = None, rate: float = 0.0) -> Scenario:
    data: dict[str, Any] = {"n_samples": n}
    if sample_set is not None:
        data["sample_set"] = str(sample_set)
    return parse_scenario(
        {
            "name": f"chaos-{rate}",
            "model": {"backend": "scripted", "latency_s": 0.0, "max_retries": 3},
            "data": data,
            "campaign": {"concurrency": 32},
            "cache": {"enabled": False},
            "faults": {"rate": rate, "seed": 7},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )


@pytest.fixture
def sample_set(tmp_path_factory: pytest.TempPathFactory) -> SampleSets:
    """Users prepared without faults: preparation is not what is under test here."""

    async def get(n: int) -> Path:
        out = tmp_path_factory.mktemp("samples") / f"samples-{n}.jsonl"
        setup = CampaignSetup.from_scenario(scenario(n))
        try:
            await build_sample_set(setup, out, progress=False)
        finally:
            await setup.close()
        return out

    return get


@pytest.fixture
def injectors(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[faults.FaultInjectingClient]]:
    """Every FaultInjectingClient the factory builds, to check faults really were injected."""
    built: list[faults.FaultInjectingClient] = []
    original = faults.FaultInjectingClient.__init__

    def spy(self: faults.FaultInjectingClient, *args: Any, **kwargs: Any) -> None:
        original(self, *args, **kwargs)
        built.append(self)

    monkeypatch.setattr(faults.FaultInjectingClient, "__init__", spy)
    yield built


async def run_chaos(tmp_path: Path, samples: Path, n: int, rate: float) -> list[DialogueResult]:
    result = await run_campaign_async(
        scenario(n, sample_set=samples, rate=rate), output_dir=tmp_path, progress=False
    )
    with RunStore.open(result.store_path) as store:
        assert store.get_meta("status") == "finished"
        results = store.read_results()
    assert len(results) == n and len({r.dialogue_id for r in results}) == n
    for r in results:
        if r.status == "error":
            assert r.error and any(cause in r.error for cause in CAUSES), r.error
        else:
            assert r.status in ("success", "failure") and r.error is None
    return results


def injected_share(built: list[faults.FaultInjectingClient]) -> tuple[float, set[str]]:
    kinds: Counter[str] = Counter()
    for client in built:
        kinds.update(client.injected)
    requests = sum(c.requests for c in built)
    assert requests > 0, "the scenario's [faults] section built no FaultInjectingClient"
    return sum(kinds.values()) / requests, set(kinds)


async def test_ten_percent_faults_cost_at_most_five_percent_of_dialogues(
    tmp_path: Path,
    sample_set: SampleSets,
    injectors: list[faults.FaultInjectingClient],
) -> None:
    results = await run_chaos(tmp_path, await sample_set(300), 300, rate=0.10)
    share, kinds = injected_share(injectors)
    assert 0.08 < share < 0.12 and kinds == ALL_KINDS
    completed = sum(r.status != "error" for r in results)
    assert completed >= 0.95 * 300


async def test_heavy_faults_are_recorded_with_their_cause_and_reproducible(
    tmp_path: Path,
    sample_set: SampleSets,
    injectors: list[faults.FaultInjectingClient],
) -> None:
    users = await sample_set(60)
    results = await run_chaos(tmp_path / "a", users, 60, rate=0.6)
    share, _ = injected_share(injectors)
    assert 0.55 < share < 0.65
    errors = Counter(r.error.split(":")[0] for r in results if r.error)
    assert sum(errors.values()) > 5, errors  # faults did cost dialogues, each with its cause
    # Faults depend on the requests, not on how 32 concurrent dialogues interleave.
    again = await run_chaos(tmp_path / "b", users, 60, rate=0.6)
    outcome = {r.dialogue_id: (r.status, r.error, len(r.exchanges)) for r in results}
    assert outcome == {r.dialogue_id: (r.status, r.error, len(r.exchanges)) for r in again}

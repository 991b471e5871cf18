"""The local executor raises the collector's young threshold with the dialogues in flight
for the campaign, and puts the caller's thresholds back after."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import parse_scenario


@pytest.mark.parametrize(("concurrency", "young"), [(8, 50_000), (60, 60_000)])
async def test_the_young_threshold_follows_the_dialogues_in_flight(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, concurrency: int, young: int
) -> None:
    real = gc.set_threshold
    seen: list[tuple[int, ...]] = []

    def recording(*thresholds: int) -> None:
        seen.append(thresholds)
        real(*thresholds)

    monkeypatch.setattr(gc, "set_threshold", recording)
    before = gc.get_threshold()
    scenario = parse_scenario(
        {
            "name": "gc",
            "model": {"backend": "scripted"},
            "data": {"n_samples": 60},
            "protocol": {"max_turns": 1},
            "campaign": {"concurrency": concurrency},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )
    await run_campaign_async(scenario, output_dir=tmp_path, progress=False)
    assert seen == [(young, 20, 100), before]
    assert gc.get_threshold() == before

"""bench_latency_campaign's critical path: a turn's three responders, asked at once,
count as one sequential call (this broke silently once, when roles got their kind)."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import parse_scenario
from macrs_sim.data.catalog import Catalog
from macrs_sim.store import RunStore

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """The benchmark script as a module; benchmarks/ leaves sys.path and sys.modules after
    the test (it imports bench_scripted_campaign from there)."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    yield importlib.import_module("bench_latency_campaign")
    for name in ("bench_latency_campaign", "bench_scripted_campaign"):
        sys.modules.pop(name, None)


async def test_each_turns_three_responders_count_once(
    tmp_path: Path, catalog: Catalog, bench: ModuleType
) -> None:
    path = tmp_path / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog))
    scenario = parse_scenario(
        {
            "name": "critical",
            "model": {"backend": "scripted"},
            "data": {"catalog": str(path), "history_len": 3, "min_history": 1, "n_samples": 3},
            "protocol": {"max_turns": 3, "final_list_k": 5},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )
    result = await run_campaign_async(scenario, output_dir=tmp_path / "runs", progress=False)
    with RunStore.open(result.store_path) as store:
        dialogues = store.read_results()
        all_calls = store.read_calls()
    assert len(dialogues) == 3
    for dialogue in dialogues:
        calls = [c for c in all_calls if c.dialogue_id == dialogue.dialogue_id]
        turns = len(dialogue.exchanges)
        responders = [c for c in calls if c.role.endswith((".ask", ".chat", ".recommend"))]
        assert len(responders) == 3 * turns > 0
        # 3 calls a turn run at once: the path is 2 calls a turn shorter than the count.
        assert bench.critical_steps(calls) == len(calls) - 2 * turns

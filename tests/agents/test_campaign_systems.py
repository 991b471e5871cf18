"""Registered systems in whole campaigns: a third-party one, and the non-LLM baselines."""

from __future__ import annotations

import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.agents import registry
from macrs_sim.agents.registry import register_system
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import DataConfig, parse_scenario
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.data.samples import build_samples
from macrs_sim.data.users import synthesize_interactions
from macrs_sim.errors import ConfigError
from macrs_sim.protocol import DialogueResult, Sample
from macrs_sim.store import RunStore
from tests.agents.third_party import SPEC as FIRST

DATA = DataConfig(history_len=5, min_history=2, n_samples=6)


def samples_by_id() -> dict[str, Sample]:
    """The campaign's samples, drawn as the runner draws them."""
    return {s.sample_id: s for s in build_samples(demo_dataset(DATA), DATA)}


def scenario(*systems: dict[str, Any]):  # type: ignore[no-untyped-def]
    return parse_scenario(
        {
            "name": "systems",
            "model": {"backend": "scripted"},
            "data": DATA.model_dump(),
            "simulator": {"kind": "agenda"},
            "protocol": {"max_turns": 3, "final_list_k": 5},
            "systems": list(systems),
        }
    )


async def run(tmp_path: Path, *systems: dict[str, Any]) -> tuple[Path, list[DialogueResult]]:
    result = await run_campaign_async(
        scenario(*systems), output_dir=tmp_path / "runs", progress=False
    )
    with RunStore.open(result.store_path) as store:
        return result.run_dir, store.read_results()


@pytest.fixture(autouse=True)
def model_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The demo's ranker checkpoints go to the user cache: keep them in tmp_path.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


async def test_a_system_registered_at_runtime_runs_a_campaign(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    registry.known_kinds()  # built-ins loaded first, so the copy holds them
    monkeypatch.setattr(registry, "_SPECS", dict(registry._SPECS))
    register_system(FIRST)
    run_dir, results = await run(tmp_path, {"name": "First", "kind": "first", "greeting": "Hi:"})
    catalog = demo_dataset(DataConfig()).catalog
    samples = samples_by_id()
    assert len(results) == 6
    for r in results:
        unseen = [i for i in catalog if i.item_id not in samples[r.sample_id].history]
        first = r.exchanges[0].system
        assert first.text == f"Hi: {unseen[0].display_title}."
        assert first.items[0].item_id == unseen[0].item_id
        assert first.items[0].method == "none"  # grounded by the system: not grounded again
    resolved = tomllib.loads((run_dir / "scenario.resolved.toml").read_text())
    assert resolved["systems"] == [{"name": "First", "kind": "first", "greeting": "Hi:"}]


def visible_counts(samples: list[Any]) -> Counter[str]:
    """Interactions per item on the campaign split's training part: each sample's target
    and the user's later items left out, and each user's last visible item (it validates,
    for users with 3 or more)."""
    rows = sorted(synthesize_interactions(demo_dataset(DataConfig()).catalog, seed=0),
                  key=lambda r: (r.user_id, r.timestamp))  # fmt: skip
    cut = {s.user_id: s.target_id for s in samples}
    visible: dict[str, list[str]] = {}
    done: set[str] = set()
    for r in rows:
        if r.user_id in cut and r.item_id == cut[r.user_id]:
            done.add(r.user_id)
        if r.user_id not in done:
            visible.setdefault(r.user_id, []).append(r.item_id)
    return Counter(i for seq in visible.values() for i in (seq[:-1] if len(seq) >= 3 else seq))


async def test_popularity_recommends_the_most_popular_unseen_item(tmp_path: Path) -> None:
    _, results = await run(tmp_path, {"name": "Pop", "kind": "popularity"})
    dataset = demo_dataset(DATA)
    samples = samples_by_id()
    counts = visible_counts(list(samples.values()))
    order = {item.item_id: n for n, item in enumerate(dataset.catalog)}
    for r in results:
        seen = set(samples[r.sample_id].history)
        # Most interactions first, ties in catalog order; never an item in the history.
        ranked = sorted((i for i in order if i not in seen), key=lambda i: (-counts[i], order[i]))
        shown = [ex.system.items[0].item_id for ex in r.exchanges]
        assert shown == ranked[: len(shown)]
        assert r.exchanges[0].system.text == (
            f"You might enjoy {dataset.catalog[ranked[0]].display_title}."
        )
        if r.status == "failure":
            assert [i.item_id for i in r.final_list] == ranked[len(shown) : len(shown) + 5]


async def test_every_baseline_runs_with_the_agenda_user(tmp_path: Path) -> None:
    systems: list[dict[str, Any]] = [
        {"name": "Random", "kind": "random", "seed": 3},
        {"name": "ItemCF", "kind": "itemcf"},
        {"name": "SASRec", "kind": "sasrec", "params": {"epochs": 2, "dim": 8}},
        {"name": "BPR", "kind": "ranker", "ranker": "bpr", "params": {"epochs": 2}},
    ]
    _, results = await run(tmp_path, *systems)
    assert Counter(r.system for r in results) == {"Random": 6, "ItemCF": 6, "SASRec": 6, "BPR": 6}
    samples = samples_by_id()
    for r in results:
        assert r.status in ("success", "failure"), r.error
        shown = [ex.system.items[0].item_id for ex in r.exchanges]
        assert len(set(shown)) == len(shown)  # never the same item twice
        assert not set(shown) & set(samples[r.sample_id].history)
        assert not set(shown) & {i.item_id for i in r.final_list}
        assert all(ex.system.act == "recommend" for ex in r.exchanges)
    # Each trained ranker went through the checkpoint cache (random trains nothing).
    cached = sorted(p.name.split("-")[0] for p in (tmp_path / "cache").rglob("*.npz"))
    assert cached == ["bpr", "itemcf", "sasrec"]


async def test_a_failing_prepare_stops_the_campaign_before_its_run_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 27 group 1: once per process, before the run folder; one line naming the entry
    (it cost every dialogue of the system as an error in a run called finished)."""
    calls: list[str] = []

    def broken(options: Any, ctx: Any) -> None:
        calls.append(options.name)
        raise RuntimeError("index\nmissing")

    monkeypatch.setattr("macrs_sim.agents.baselines.build.prepare", broken)
    with pytest.raises(ConfigError) as err:
        await run(tmp_path, {"name": "R", "kind": "random"}, {"name": "Pop", "kind": "popularity"})
    assert str(err.value) == (
        'systems[1] (kind "popularity"): cannot prepare: RuntimeError: index missing'
    )
    assert calls == ["Pop"]
    assert not (tmp_path / "runs").exists()

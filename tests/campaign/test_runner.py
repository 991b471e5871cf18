"""A whole campaign on the scripted backend: run dir, store, report, shared samples."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

from macrs_sim.agents.macrs.schemas import RecommendOutput
from macrs_sim.agents.scripted_rules import default_scripted_rules
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import parse_scenario
from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.scripted import ScriptedRequest
from macrs_sim.store import RunStore


def scenario(tmp_path: Path, catalog: Catalog, **data: object):  # type: ignore[no-untyped-def]
    path = tmp_path / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog))
    return parse_scenario(
        {
            "name": "t",
            "model": {"backend": "scripted"},
            "data": {
                "catalog": str(path),
                "history_len": 3,
                "min_history": 1,
                "n_samples": 3,
                **data,
            },
            "protocol": {"max_turns": 3, "final_list_k": 5},
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )


async def test_campaign_writes_everything(tmp_path: Path, catalog: Catalog) -> None:
    result = await run_campaign_async(
        scenario(tmp_path, catalog), output_dir=tmp_path / "runs", progress=False
    )
    run = result.run_dir
    assert run.parent == tmp_path / "runs"
    assert {p.name for p in run.iterdir()} >= {
        "scenario.resolved.toml",
        "store.sqlite",
        "report.md",
        "results.csv",
        "samples.jsonl",
    }
    resolved = tomllib.loads((run / "scenario.resolved.toml").read_text())
    assert resolved["protocol"]["temperature"] == 0.0 and resolved["data"]["history_len"] == 3
    with RunStore.open(run / "store.sqlite") as store:
        results = store.read_results()
        samples = store.read_samples()
        calls = store.read_calls()
    assert len(results) == 6 and len(samples) == 3
    assert all(s.opening and s.target_profile for s in samples)
    # Every system saw the same openings (paper §4.2).
    for r in results:
        assert r.opening.text == next(s.opening for s in samples if s.sample_id == r.sample_id)
    macrs = [r for r in results if r.system == "MACRS"]
    assert all(len(r.exchanges) == 3 and r.status == "failure" for r in macrs)
    assert all(len(r.final_list) == 5 for r in macrs)
    explain = macrs[0].exchanges[1].system.explain
    assert set(explain["candidates"]) == {"ask", "chat", "recommend"}
    assert explain["planner"]["choice"] == "recommend"
    roles = {c.role for c in calls}
    assert roles >= {
        "ask",
        "chat",
        "recommend",
        "planner",
        "info_reflector",
        "strategy_reflector",
        "final_list",
        "single_llm",
        "user",
        "target_profile",
        "opening",
    }
    assert all(c.turn is not None for c in calls if c.dialogue_id is not None)
    assert [m.system for m in result.metrics] == ["MACRS", "single"]
    assert "| MACRS |" in result.report_path.read_text()


async def test_recommending_the_target_succeeds(tmp_path: Path, catalog: Catalog) -> None:
    sc = scenario(tmp_path, catalog)
    rules = default_scripted_rules([i.display_title for i in catalog])
    samples_by_dialogue: dict[str, str] = {}

    def oracle(req: ScriptedRequest) -> RecommendOutput:
        # The test knows each sample's target: recommend it, so the planner's turn-2 pick succeeds.
        target = samples_by_dialogue[str(req.context.dialogue_id).split(":")[1]]
        return RecommendOutput(item_title=catalog[target].display_title, response="This one!")

    rules["recommend"] = oracle
    from macrs_sim.campaign import setup as setup_mod

    samples = setup_mod.draw_samples(Catalog.from_jsonl(Path(sc.data.catalog or "")), sc.data)
    samples_by_dialogue.update({s.sample_id: s.target_id for s in samples})
    result = await run_campaign_async(
        sc, output_dir=tmp_path / "runs", progress=False, scripted_rules=rules
    )
    macrs = result.metrics[0]
    assert macrs.system == "MACRS" and macrs.success_rate == 1.0 and macrs.avg_turns == 2.0
    assert macrs.hit_at[5] == 1.0
    with RunStore.open(result.store_path) as store:
        r = store.read_results(system="MACRS")[0]
    assert r.exchanges[-1].system.items[0].method == "exact" and r.exchanges[-1].user.accepted
    assert json.loads(r.model_dump_json())["success_turn"] == 2

"""InteRecAgent as a registered system: `kind = "interecagent"` runs in a campaign beside MACRS."""

from __future__ import annotations

from pathlib import Path

from macrs_sim.agents.registry import known_kinds
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import parse_scenario
from macrs_sim.store import RunStore


async def test_interecagent_runs_in_a_campaign_with_the_agenda_user(tmp_path: Path) -> None:
    assert "interecagent" in known_kinds()
    scenario = parse_scenario(
        {
            "name": "ira",
            "model": {"backend": "scripted"},
            "data": {"n_samples": 3},
            "simulator": {"kind": "agenda"},
            "protocol": {"max_turns": 2},
            "systems": [
                {"name": "InteRecAgent", "kind": "interecagent", "ranker": "popularity"},
                {"name": "w/o P", "kind": "interecagent", "ranker": "popularity",
                 "plan_first": False},
            ],
        }
    )  # fmt: skip
    result = await run_campaign_async(scenario, output_dir=tmp_path, progress=False, report=False)
    assert result.status == "finished" and result.stored == 6
    with RunStore.open(result.store_path) as store:
        results = store.read_results()
    assert all(r.status != "error" for r in results), [r.error for r in results]
    modes = {r.system: r.exchanges[0].system.explain["mode"] for r in results}
    assert modes == {"InteRecAgent": "plan_first", "w/o P": "react"}
    # Items come from the candidate bus already grounded: the loop keeps them as they are.
    shown = [i for r in results for ex in r.exchanges for i in ex.system.items]
    assert shown and all(i.item_id is not None and i.method == "exact" for i in shown)

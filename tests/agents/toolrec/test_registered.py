"""ToolRec as a registered system: `kind = "toolrec"` runs a campaign on the demo data."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.agents.registry import known_kinds, resolve_entries
from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import SystemEntry, parse_scenario
from macrs_sim.errors import ConfigError
from macrs_sim.store import RunStore


@pytest.fixture(autouse=True)
def model_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The demo's ranker checkpoints go to the user cache: keep them in tmp_path.
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


async def test_toolrec_runs_in_a_campaign_with_the_agenda_user(tmp_path: Path) -> None:
    assert "toolrec" in known_kinds()
    scenario = parse_scenario(
        {
            "name": "toolrec",
            "model": {"backend": "scripted"},
            "data": {"n_samples": 3},
            "simulator": {"kind": "agenda"},
            "protocol": {"max_turns": 2, "final_list_k": 5},
            "systems": [
                {
                    "name": "ToolRec",
                    "kind": "toolrec",
                    "base_ranker": "itemcf",
                    # The retrieval tools (backbone and stage 2) trained small: the test is
                    # about the loop, and the defaults train for a minute on 2 cores.
                    "retriever_params": {
                        "epochs": "2",
                        "dim": "16",
                        "patience": "1",
                        "tune_epochs": "1",
                    },
                }
            ],
        }
    )
    result = await run_campaign_async(scenario, output_dir=tmp_path, progress=False, report=False)
    assert result.status == "finished" and result.stored == 3
    with RunStore.open(result.store_path) as store:
        results = store.read_results()
        roles = {c.role for c in store.read_calls() if c.system == "ToolRec"}
    assert all(r.status != "error" for r in results), [r.error for r in results]
    assert roles == {"toolrec.simulate", "toolrec.rank"}
    for r in results:
        shown = [i for ex in r.exchanges for i in ex.system.items]
        assert shown and all(i.item_id is not None and i.method == "exact" for i in shown)
        loop = r.exchanges[0].system.explain["loop"]
        assert loop["stop"] == "finish" and len(loop["rounds"]) == 4
        # The first recommendation is the loop's best item.
        assert shown[0].item_id == loop["final"][0]
        if r.status == "failure":
            ids = [i.item_id for i in r.final_list]
            assert len(ids) == 5 and not set(ids) & {i.item_id for i in shown}


def test_a_misspelt_option_is_one_line() -> None:
    entry = SystemEntry.model_validate({"name": "T", "kind": "toolrec", "max_round": 3})
    with pytest.raises(
        ConfigError, match=r'^systems\[0\] \(kind "toolrec"\): unknown field "max_round"$'
    ):
        resolve_entries([entry])

"""`prepare` trains (or loads) the models on the campaign split; the system then uses them."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.agents.interecagent.build import build, prepare
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.schemas import PlanOutput, PlanStep
from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.data.splits import interactions_of
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from tests.agents.interecagent.helpers import opening


async def test_prepare_trains_itemcf_and_the_system_uses_it(tmp_path: Path) -> None:
    cfg = DataConfig(dataset="demo")
    dataset = demo_dataset(cfg)
    options = InteRecAgentOptions(ranker="itemcf", reflection=False)
    prepared = prepare(
        options, dataset, tmp_path, interactions=interactions_of(dataset, cfg), use_text_model=False
    )
    assert prepared.resources.scorer is not None and prepared.resources.neighbours is not None
    assert sorted(p.name.split("-")[0] for p in tmp_path.glob("itemcf*")) == ["itemcf"]
    seed = next(iter(dataset.catalog)).item_id
    plan = PlanOutput(plan=[
        PlanStep(tool="soft_filter", input={"items": [seed]}),
        PlanStep(tool="rank_candidates", input={"by": "preference"}),
        PlanStep(tool="fetch_candidates", input={"k": 3}),
    ])  # fmt: skip
    client = ScriptedChatCompletionClient({"interecagent.planner": lambda r: plan})
    system = build(
        options, prepared, name="ira", dialogue_id="d", client=client, prompts=PromptLibrary(),
        history=[seed],
    )  # fmt: skip
    turn = await system.respond(opening("Something like my favourite."))
    tools = turn.explain["attempts"][0]["tools"]
    assert [t["ok"] for t in tools] == [True, True, True]
    # The seed is left out of the soft step's candidates, and the step says so.
    title = " ".join(dataset.catalog[seed].display_title.split())
    assert [t["note"] for t in tools] == [f"the seed items are not candidates: {title}", None, None]
    # The top 5% of 332 items is 17 neighbours; the seed is never among what is shown.
    assert tools[0]["candidates_after"] <= 17 and len(turn.items) == 3
    assert seed not in {ref.item_id for ref in turn.items}


def test_sasrec_runs_without_position_embedding_by_default() -> None:
    pytest.importorskip("torch")
    from macrs_sim.rankers.train import make_params

    params = make_params("sasrec", InteRecAgentOptions().ranker_params)
    assert params.position is False  # type: ignore[attr-defined]

"""A whole dialogue: InteRecAgent (scripted backend) against the rule-based agenda user.

Shared catalog (tests/conftest.py); target m2 The Matrix (Action, Sci-Fi, 1999); history
m1 Heat (1995), m4 Alien. Popularity below makes The Matrix the least popular film, so
ranking (no preference model here: by popularity) reaches it only once the user's
conditions have narrowed the bus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.agents.interecagent.build import build, prepare
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.scripted import interecagent_scripted_rules
from macrs_sim.campaign.dialogue import run_dialogue
from macrs_sim.config import ProtocolConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.dataset import Dataset
from macrs_sim.data.grounding import Grounder
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Sample
from macrs_sim.simulators.agenda import AgendaUserSimulator, prepare_agenda_sample
from macrs_sim.tools import ToolCallLog

POPULARITY = {"m1": 50, "m2": 5, "m3": 40, "m4": 30, "m5": 35, "m6": 20, "m7": 25, "m8": 45}


def _dataset(catalog: Catalog) -> Dataset:
    return Dataset(
        name="t", fingerprint="t-interecagent", catalog=catalog, popularity=POPULARITY,
        n_users=1, n_interactions=0, _prefixes=lambda n: {},
    )  # fmt: skip


@pytest.mark.parametrize(
    ("plan_first", "calls_per_turn"),
    [(True, ["planner", "reply", "critic"]), (False, ["react"] * 4 + ["critic"])],
)
async def test_scripted_dialogue_end_to_end(
    catalog: Catalog, sample: Sample, tmp_path: Path, plan_first: bool, calls_per_turn: list[str]
) -> None:
    options = InteRecAgentOptions(ranker="popularity", plan_first=plan_first)
    prepared = prepare(options, _dataset(catalog), tmp_path, use_text_model=False)
    client = ScriptedChatCompletionClient(interecagent_scripted_rules(fetch_k=1))
    log = ToolCallLog()
    agenda_sample = prepare_agenda_sample(catalog, sample)
    system = build(
        options, prepared, name="ira", dialogue_id="d", client=client, prompts=PromptLibrary(),
        history=agenda_sample.history, log=log,
    )  # fmt: skip
    result = await run_dialogue(
        system, AgendaUserSimulator(agenda_sample, catalog), Grounder(catalog),
        dialogue_id="d", sample=agenda_sample, protocol=ProtocolConfig(max_turns=5),
    )  # fmt: skip
    assert agenda_sample.opening == "I'm looking for an Action movie directed by Lana Wachowski."
    # Turn 1: Action = m2 (5), m7 (25); by popularity m7 first. The user then says Sci-Fi:
    # m2, m4 (Alien, in the history: dropped) -> m2, the target.
    assert [(ex.system.act, [i.item_id for i in ex.system.items]) for ex in result.exchanges] == [
        ("recommend", ["m7"]), ("recommend", ["m2"]),
    ]  # fmt: skip
    assert result.exchanges[0].user.text == "Not quite. I want a Sci-Fi movie."
    assert (result.status, result.success_turn) == ("success", 2)
    assert [c.context.role for c in client.calls] == [
        f"interecagent.{r}" for r in calls_per_turn
    ] * 2
    tools = [(r.turn, r.tool, r.system) for r in log.pop("d")]
    assert tools == [
        (1, "filter_items", "ira"), (1, "rank_items", "ira"), (1, "fetch_candidates", "ira"),
        (2, "filter_items", "ira"), (2, "rank_items", "ira"), (2, "fetch_candidates", "ira"),
    ]  # fmt: skip

"""One InteRecAgent dialogue on the embedded model (llama.cpp, Qwen2.5-Coder-0.5B Q4): slow.

Whatever the small model writes, the dialogue runs: bad plans are repaired or recorded.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.agents.interecagent.build import build, prepare
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.campaign.dialogue import run_dialogue
from macrs_sim.config import DataConfig, EmbeddedModel, ProtocolConfig
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.data.grounding import Grounder
from macrs_sim.data.samples import build_samples
from macrs_sim.data.splits import interactions_of
from macrs_sim.llm.accounting import CallLog
from macrs_sim.llm.factory import build_client
from macrs_sim.prompts import PromptLibrary
from macrs_sim.simulators.agenda import AgendaUserSimulator, prepare_agenda_sample
from macrs_sim.tools import ToolCallLog

pytestmark = pytest.mark.embedded


async def test_one_interecagent_dialogue_on_the_embedded_model(tmp_path: Path) -> None:
    cfg = DataConfig(dataset="demo", n_samples=1)
    dataset = demo_dataset(cfg)
    sample = prepare_agenda_sample(dataset.catalog, build_samples(dataset, cfg)[0])
    options = InteRecAgentOptions(ranker="itemcf")
    prepared = prepare(
        options, dataset, tmp_path, interactions=interactions_of(dataset, cfg), samples=[sample],
        use_text_model=False,
    )  # fmt: skip
    calls = CallLog()
    client = build_client(EmbeddedModel(max_tokens=192), temperature=0.0, log=calls)
    system = build(
        options, prepared, name="ira", dialogue_id="d", client=client, prompts=PromptLibrary(),
        history=sample.history, log=ToolCallLog(),
    )  # fmt: skip
    result = await run_dialogue(
        system, AgendaUserSimulator(sample, dataset.catalog), Grounder(dataset.catalog),
        dialogue_id="d", sample=sample, protocol=ProtocolConfig(max_turns=1, final_list_k=5),
    )  # fmt: skip
    assert result.status in ("success", "failure"), result.error
    assert all(ex.system.text.strip() for ex in result.exchanges)
    roles = [c.role for c in calls.all()]
    assert roles[:3] == ["interecagent.planner", "interecagent.reply", "interecagent.critic"]
    for ex in result.exchanges:
        attempts = ex.system.explain["attempts"]
        assert 1 <= len(attempts) <= 2  # at most one re-plan
        assert all(ref.method == "exact" for ref in ex.system.items)

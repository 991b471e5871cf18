"""One RecMind-CoT turn on the embedded model (llama.cpp, Qwen2.5-Coder-0.5B Q4): slow.

Whatever the small model writes, the turn ends: a reply that breaks its schema is
recorded, the step limit ends the planning, and the fallback list needs no model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.agents.recmind import build
from macrs_sim.agents.recmind.options import RecMindOptions
from macrs_sim.agents.recmind.system import RecMind
from macrs_sim.campaign.dialogue import run_dialogue
from macrs_sim.config import DataConfig, EmbeddedModel, ProtocolConfig
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.data.grounding import Grounder
from macrs_sim.data.samples import build_samples
from macrs_sim.llm.accounting import CallLog
from macrs_sim.llm.factory import build_client
from macrs_sim.prompts import PromptLibrary
from macrs_sim.simulators.agenda import AgendaUserSimulator, prepare_agenda_sample
from macrs_sim.tools import ToolCallLog

pytestmark = pytest.mark.embedded


async def test_one_recmind_cot_turn_on_the_embedded_model(tmp_path: Path) -> None:
    cfg = DataConfig(dataset="demo", n_samples=1)
    dataset = demo_dataset(cfg)
    sample = prepare_agenda_sample(dataset.catalog, build_samples(dataset, cfg)[0])
    users = {sample.history: sample.user_id}
    visible = {sample.user_id: [(i, None) for i in sample.history]}
    res = build.resources(dataset, visible, tmp_path, users=users)
    options = RecMindOptions(planner="cot", max_steps=2)
    calls, tools = CallLog(), ToolCallLog()
    client = build_client(EmbeddedModel(max_tokens=192), temperature=0.0, log=calls)
    r = build.reasoner(options, res, client=client, prompts=PromptLibrary(), system="rm",
                       dialogue_id="d", log=tools)  # fmt: skip
    system = RecMind("rm", r, res, options, history=sample.history, log=tools)
    result = await run_dialogue(
        system, AgendaUserSimulator(sample, dataset.catalog), Grounder(dataset.catalog),
        dialogue_id="d", sample=sample, protocol=ProtocolConfig(max_turns=1, final_list_k=5),
    )  # fmt: skip
    assert result.status in ("success", "failure"), result.error
    (ex,) = result.exchanges
    assert ex.system.text.strip()
    tree = ex.system.explain["tree"]
    assert tree["planner"] == "cot" and tree["steps_used"] <= 2
    roles = [c.role for c in calls.all()]
    assert roles[0] == "recmind.thought" and all(x.startswith("recmind.") for x in roles)
    assert ex.system.explain["llm_calls"] == len(roles)

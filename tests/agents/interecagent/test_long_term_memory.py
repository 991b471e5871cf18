"""`long_term_memory = false` (the paper's session-wise and one-turn protocols): the system is
built without the sample's history, so nothing from it is excluded or used for ranking."""

from __future__ import annotations

import pytest

from macrs_sim.agents.context import SystemContext
from macrs_sim.agents.interecagent.build import InteRecAgentPrepared
from macrs_sim.agents.interecagent.demos import DemoIndex
from macrs_sim.agents.interecagent.spec import InteRecAgentSystemOptions, build_system
from macrs_sim.config import ProtocolConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.tools import ToolResources


@pytest.mark.parametrize(("switch", "kept"), [(True, ("1", "3")), (False, ())])
def test_the_switch_decides_whether_history_is_loaded(
    resources: ToolResources, films: Catalog, demos: DemoIndex, switch: bool, kept: tuple[str, ...]
) -> None:
    ctx = SystemContext(
        name="ira", dialogue_id="d", client=ScriptedChatCompletionClient(),
        prompts=PromptLibrary(), dataset=None,  # type: ignore[arg-type]  # unused by the builder
        grounder=Grounder(films), protocol=ProtocolConfig(),
        prepared=InteRecAgentPrepared(resources, demos), history=("1", "3"),
    )  # fmt: skip
    options = InteRecAgentSystemOptions(name="ira", long_term_memory=switch)
    system = build_system(options, ctx)
    assert system.memory.long_term_likes == kept
    assert system.executor.top(system.executor.new_bus(), 2) == (
        ["7", "6"] if switch else ["1", "3"]
    )

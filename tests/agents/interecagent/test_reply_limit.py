"""The reply knows the protocol's items-per-turn limit (issue 38 §1): the fetch shows no
more, the reply prompt says so, and it never calls the search "the tool result"."""

from __future__ import annotations

from macrs_sim.agents.context import SystemContext
from macrs_sim.agents.interecagent import prompts as pb
from macrs_sim.agents.interecagent.build import InteRecAgentPrepared, build
from macrs_sim.agents.interecagent.demos import DemoIndex, load_demonstrations
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.scripted import interecagent_scripted_rules
from macrs_sim.agents.interecagent.spec import InteRecAgentSystemOptions, build_system
from macrs_sim.config import ProtocolConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.tools import ToolResources
from tests.agents.interecagent.helpers import opening


def test_the_reply_prompt_names_the_limit() -> None:
    p = pb.InteRecPrompts.load(PromptLibrary(), max_items=2)
    msgs = pb.reply_messages(p, "(none)", "Any comedies?", "1. fetch_candidates",
                             "1. Galaxy Kids (2005)\n2. Paris in Love (2001)")  # fmt: skip
    text = "\n".join(message_text(m) for m in msgs)
    assert "present them, at most 2 and in the order given" in text
    assert "tool result" not in text.lower() and "Result of the last tool" not in text


async def test_one_item_a_turn_shows_and_asks_for_one(resources: ToolResources) -> None:
    client = ScriptedChatCompletionClient(interecagent_scripted_rules())
    prepared = InteRecAgentPrepared(resources, DemoIndex(load_demonstrations()))
    system = build(
        InteRecAgentOptions(), prepared, name="ira", dialogue_id="d1", client=client,
        prompts=PromptLibrary(), history=(), max_items=1,
    )  # fmt: skip
    turn = await system.respond(opening("Any Comedy movies, please?"))
    assert len(turn.items) == 1
    replies = [c for c in client.calls if c.context.role == "interecagent.reply"]
    assert replies and "at most 1 and in the order given" in message_text(replies[-1].messages[0])


def test_the_campaign_builder_takes_the_protocols_limit(
    resources: ToolResources, films: Catalog, demos: DemoIndex
) -> None:
    ctx = SystemContext(
        name="ira", dialogue_id="d", client=ScriptedChatCompletionClient(),
        prompts=PromptLibrary(), dataset=None,  # type: ignore[arg-type]  # unused by the builder
        grounder=Grounder(films), protocol=ProtocolConfig(max_items_per_turn=2),
        prepared=InteRecAgentPrepared(resources, demos),
    )  # fmt: skip
    system = build_system(InteRecAgentSystemOptions(name="ira"), ctx)
    assert system.executor.settings.max_items == 2
    assert system.executor.settings.fetch_k == 5  # the paper's Fig. C2

"""The free-chat LLM row (issue 38 §1; InteRecAgent's Table 2 "LLM alone"): one call a turn,
several items under protocol.max_items_per_turn, the limit named in its prompt."""

from __future__ import annotations

from macrs_sim.agents.context import SystemContext
from macrs_sim.agents.scripted_rules import single_llm_rules
from macrs_sim.agents.single_llm.build import build
from macrs_sim.agents.single_llm.free_chat import (
    FreeChatOutput,
    FreeChatRecommender,
    free_chat_turn,
)
from macrs_sim.agents.single_llm.options import SingleLLMSystemOptions
from macrs_sim.config import ProtocolConfig
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState, Exchange, SystemTurn, UserTurn

TITLES = ["Alpha (2001)", "Beta (2002)", "Gamma (2003)", "Delta (2004)"]


def _system(limit: int) -> tuple[FreeChatRecommender, ScriptedChatCompletionClient]:
    client = ScriptedChatCompletionClient(single_llm_rules(TITLES))
    ctx = SystemContext(
        name="LLM chat", dialogue_id="d", client=client, prompts=PromptLibrary(),
        dataset=None, grounder=None, protocol=ProtocolConfig(max_items_per_turn=limit),  # type: ignore[arg-type]
    )  # fmt: skip
    system = build(SingleLLMSystemOptions(name="LLM chat", free_chat=True), ctx)
    assert isinstance(system, FreeChatRecommender)
    return system, client


async def test_a_turn_recommends_up_to_the_limit() -> None:
    system, client = _system(3)
    state = DialogueState(
        dialogue_id="d", opening=UserTurn(text="Hi"), max_turns=5,
        exchanges=(Exchange(turn=1, system=SystemTurn(act="ask", text="What do you like?"),
                            user=UserTurn(text="Space films.")),),
    )  # fmt: skip
    turn = await system.respond(state)
    assert turn.act == "recommend" and len(turn.items) == 3
    assert turn.text == "How about " + ", ".join(ref.title for ref in turn.items) + "?"
    prompt = message_text(client.calls[0].messages[0])
    assert "recommend up to 3 movies they have not mentioned" in prompt


def test_more_titles_than_the_limit_are_cut_and_counted() -> None:
    out = FreeChatOutput(response="Try A, B or C.", items=["A", " ", "B", "C"])
    turn = free_chat_turn(out, 2)
    assert [ref.title for ref in turn.items] == ["A", "B"] and turn.explain == {"listed": 4}
    assert free_chat_turn(FreeChatOutput(response="What do you like?"), 2).act == "ask"


def test_the_default_is_the_single_llm_baseline() -> None:
    assert SingleLLMSystemOptions(name="s").free_chat is False

"""RecommenderChatAgent: a system under test as an AgentChat agent, alone and in a team."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from autogen_agentchat.agents import BaseChatAgent
from autogen_agentchat.base import Response
from autogen_agentchat.conditions import TextMentionTermination
from autogen_agentchat.messages import BaseChatMessage, TextMessage
from autogen_agentchat.teams import RoundRobinGroupChat
from autogen_core import CancellationToken

from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder
from macrs_sim.interactive.agent import (
    RecommenderChatAgent,
    SystemTurnMessage,
    agent_name,
    system_turn_of,
)
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn, UserTurn
from tests.interactive.chat_fixtures import (
    ASK_TEXT,
    OPENING,
    rules_recommending,
    scripted_scenario,
)


class ScriptedUser(BaseChatAgent):
    """Replies from a list, and keeps what it heard on each turn."""

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__("user", "a scripted user")
        self._lines = iter(lines)
        self.heard: list[list[str]] = []

    @property
    def produced_message_types(self) -> Sequence[type[BaseChatMessage]]:
        return (TextMessage,)

    async def on_messages(
        self, messages: Sequence[BaseChatMessage], cancellation_token: CancellationToken
    ) -> Response:
        self.heard.append([m.to_text() for m in messages])
        return Response(chat_message=TextMessage(content=next(self._lines), source=self.name))

    async def on_reset(self, cancellation_token: CancellationToken) -> None:
        return None


class EchoSystem:
    """A Recommender whose replies say what it saw: turn number and the user's last words."""

    def __init__(self, name: str, dialogue_id: str) -> None:
        self.name = name
        self.dialogue_id = dialogue_id
        self.closed = 0

    async def respond(self, state: DialogueState) -> SystemTurn:
        said = state.last_user_turn().text
        items = (ItemRef(title="heat (1986)"),) if "heat" in said else ()
        return SystemTurn(act="chat", text=f"{state.turn}: {said}", items=items)

    async def final_list(self, state: DialogueState, k: int) -> list[ItemRef]:
        return [
            ItemRef(title="Up"),
            ItemRef(title="Nowhere Film"),
            ItemRef(title="x", item_id="m8"),
        ]

    async def close(self) -> None:
        self.closed += 1


async def test_macrs_in_a_round_robin_team(tmp_path: Path, catalog: Catalog) -> None:
    scenario = scripted_scenario(tmp_path, catalog)
    setup = CampaignSetup.from_scenario(
        scenario, scripted_rules=rules_recommending(catalog, "The Matrix (1999)")
    )
    agent = RecommenderChatAgent(
        lambda d: setup.build_system(scenario.systems[0], d),
        dialogue_id="MACRS:team-1",
        grounder=setup.grounder,
    )
    user = ScriptedUser(["Something from the nineties.", "/quit"])
    team = RoundRobinGroupChat(
        [agent, user], termination_condition=TextMentionTermination("/quit", sources=["user"])
    )
    try:
        result = await team.run(task=TextMessage(content=OPENING, source="person"))
    finally:
        await agent.close()
        await setup.close()
    assert [(type(m).__name__, m.source, m.to_text()) for m in result.messages] == [
        ("TextMessage", "person", OPENING),
        ("StructuredMessage[SystemTurn]", "MACRS", f"[ask] {ASK_TEXT}"),
        ("TextMessage", "MACRS", ASK_TEXT),
        ("TextMessage", "user", "Something from the nineties."),
        ("StructuredMessage[SystemTurn]", "MACRS", "[recommend] This one: The Matrix (1999)."),
        ("TextMessage", "MACRS", "This one: The Matrix (1999)."),
        ("TextMessage", "user", "/quit"),
    ]
    # The typed turns stay inside the stream: the user heard only the replies' text.
    assert user.heard == [[OPENING, ASK_TEXT], ["This one: The Matrix (1999)."]]
    state = agent.state
    assert state is not None and state.opening.text == OPENING
    assert [(ex.turn, ex.system.act, ex.user.text) for ex in state.exchanges] == [
        (1, "ask", "Something from the nineties.")
    ]
    assert agent.pending is not None and agent.pending.items == (
        ItemRef(title="The Matrix (1999)", item_id="m2", score=1.0, method="exact"),
    )
    assert agent.pending.explain["planner"]["choice"] == "recommend"
    assert set(agent.pending.explain["candidates"]) == {"ask", "chat", "recommend"}


async def test_on_messages_keeps_the_typed_state(catalog: Catalog) -> None:
    systems: list[EchoSystem] = []

    def build(dialogue_id: str) -> EchoSystem:
        systems.append(EchoSystem("single-LLM", dialogue_id))
        return systems[-1]

    agent = RecommenderChatAgent(build, dialogue_id="d", max_turns=4, grounder=Grounder(catalog))
    assert agent.name == "single_LLM"
    token = CancellationToken()
    first = await agent.on_messages(
        [TextMessage(content="task", source="user"), TextMessage(content="hi ", source="p")], token
    )
    assert isinstance(first.chat_message, TextMessage)
    assert first.chat_message.content == "1: hi " and first.chat_message.metadata == {"act": "chat"}
    assert system_turn_of(first) == SystemTurn(act="chat", text="1: hi ")
    second = await agent.on_messages([TextMessage(content="like heat", source="p")], token)
    # Grounded as in campaigns: the stated year picks the 1986 remake, not the 1995 film.
    assert system_turn_of(second).items == (
        ItemRef(title="heat (1986)", item_id="m7", score=1.0, method="normalized"),
    )
    assert agent.state is not None and agent.state.max_turns == 4
    assert [ex.user for ex in agent.state.exchanges] == [UserTurn(text="like heat")]
    final = await agent.final_list(3)
    assert [(i.title, i.item_id) for i in final] == [
        ("Up", "m3"),
        ("Nowhere Film", None),
        ("x", "m8"),
    ]
    await agent.on_reset(token)
    assert systems[0].closed == 1 and agent.state is None and agent.pending is None
    assert agent.dialogue_id == "d/2" and systems[1].dialogue_id == "d/2"
    await agent.close()
    assert systems[1].closed == 1


async def test_turn_order_is_enforced(catalog: Catalog) -> None:
    agent = RecommenderChatAgent(lambda d: EchoSystem("s", d), dialogue_id="d")
    with pytest.raises(ValueError, match="only after a user turn"):
        await agent.answer()
    agent.hear(UserTurn(text="a"))
    with pytest.raises(ValueError, match="two user turns in a row"):
        agent.hear(UserTurn(text="b"))
    with pytest.raises(ValueError, match="no user message"):
        await agent.on_messages([TextMessage(content="mine", source="s")], CancellationToken())


def test_names_and_foreign_responses() -> None:
    assert agent_name("MACRS w/o SR") == "MACRS_w_o_SR"
    assert agent_name("2nd system") == "system_2nd_system"
    reply = Response(chat_message=TextMessage(content="x", source="a"))
    with pytest.raises(ValueError, match="no SystemTurn"):
        system_turn_of(reply)
    typed = SystemTurnMessage(content=SystemTurn(act="ask", text="?"), source="a")
    typed_reply = Response(chat_message=reply.chat_message, inner_messages=[typed])
    assert system_turn_of(typed_reply).act == "ask"


async def test_agent_run_alone(tmp_path: Path, catalog: Catalog) -> None:
    """The README's usage: one system as an AgentChat agent, without a team."""
    scenario = scripted_scenario(tmp_path, catalog)
    setup = CampaignSetup.from_scenario(scenario)
    cfg = scenario.systems[1]  # single-LLM: recommends on turn 1 (scripted rules)
    agent = RecommenderChatAgent(
        lambda d: setup.build_system(cfg, d), dialogue_id="demo", grounder=setup.grounder
    )
    result = await agent.run(task="A heist film, please.")
    await agent.close()
    await setup.close()
    assert [m.source for m in result.messages] == ["user", "single_LLM", "single_LLM"]
    assert result.messages[-1].to_text().startswith("How about ")
    assert agent.pending is not None and agent.pending.items[0].item_id in setup.catalog

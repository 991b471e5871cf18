"""Any system under test as an AgentChat agent, so it can join AgentChat teams (DESIGN.md §4).

The agent keeps the typed `DialogueState` of its dialogue: each user message closes the
previous exchange and the system answers with `respond(state)`. The reply goes out as a
`TextMessage`; the typed `SystemTurn` (act, grounded items, explain) rides along as an
inner `SystemTurnMessage`, so nobody has to re-parse the text to get it back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from autogen_agentchat.agents import BaseChatAgent
from autogen_agentchat.base import Response
from autogen_agentchat.messages import BaseChatMessage, StructuredMessage, TextMessage
from autogen_core import CancellationToken

from macrs_sim.agents.base import Recommender
from macrs_sim.campaign.dialogue import ground_turn, within_item_limit
from macrs_sim.config import ProtocolConfig
from macrs_sim.data.grounding import ItemGrounder
from macrs_sim.protocol import DialogueState, Exchange, ItemRef, SystemTurn, UserTurn

# The typed turn inside a team's message stream; `to_text()` shows the act and the reply.
SystemTurnMessage = StructuredMessage[SystemTurn]
SYSTEM_TURN_FORMAT = "[{act}] {text}"

# Builds the system for one dialogue id (CampaignSetup.build_system with its config bound).
BuildSystem = Callable[[str], Recommender]


def agent_name(system_name: str) -> str:
    """AgentChat names must be Python identifiers: 'single-LLM' -> 'single_LLM'."""
    name = re.sub(r"\W", "_", system_name)
    return name if name.isidentifier() else f"system_{name}"


def system_turn_of(response: Response) -> SystemTurn:
    """The typed turn a `RecommenderChatAgent` response carries."""
    for message in response.inner_messages or ():
        if isinstance(message, StructuredMessage) and isinstance(message.content, SystemTurn):
            return message.content
    raise ValueError("this response carries no SystemTurn (not from a RecommenderChatAgent)")


class RecommenderChatAgent(BaseChatAgent):
    """A `Recommender` talking AgentChat: user text in, the system's reply out.

    `build(dialogue_id)` makes the system; one system instance serves one dialogue, and
    `on_reset` closes it and starts the next dialogue (`dialogue_id` + "/2", "/3", ...)
    with a fresh one. With a `grounder`, recommended titles get catalog ids as in campaigns;
    a turn shows at most `max_items_per_turn` items (the protocol's default), as in campaigns.
    """

    def __init__(
        self,
        build: BuildSystem,
        *,
        dialogue_id: str,
        max_turns: int = 5,
        grounder: ItemGrounder | None = None,
        max_items_per_turn: int = ProtocolConfig().max_items_per_turn,
        name: str | None = None,
        description: str = "A conversational recommender system.",
    ) -> None:
        self._build = build
        self._base_id = dialogue_id
        self._resets = 0
        self.dialogue_id = dialogue_id
        self.system = build(dialogue_id)
        self.max_turns = max_turns
        self.grounder = grounder
        self.max_items_per_turn = max_items_per_turn
        self.state: DialogueState | None = None
        # The system's last turn, until the user's answer closes its exchange.
        self.pending: SystemTurn | None = None
        super().__init__(name or agent_name(self.system.name), description)

    @property
    def produced_message_types(self) -> Sequence[type[BaseChatMessage]]:
        # SystemTurnMessage listed so that teams register it for the inner messages.
        return (TextMessage, SystemTurnMessage)

    def hear(self, user: UserTurn) -> DialogueState:
        """Take the user's turn: the opening, or the answer that closes the pending exchange."""
        if self.state is None:
            self.state = DialogueState(
                dialogue_id=self.dialogue_id, opening=user, max_turns=self.max_turns
            )
        elif self.pending is not None:
            exchange = Exchange(turn=self.state.turn, system=self.pending, user=user)
            self.state = self.state.model_copy(
                update={"exchanges": (*self.state.exchanges, exchange)}
            )
            self.pending = None
        else:
            raise ValueError("two user turns in a row: the system has not answered the first")
        return self.state

    async def answer(self) -> SystemTurn:
        """The system's turn on the dialogue so far (after `hear`)."""
        if self.state is None or self.pending is not None:
            raise ValueError("the system speaks only after a user turn")
        turn = await self.system.respond(self.state)
        turn = within_item_limit(turn, self.max_items_per_turn)  # the campaigns' rule
        self.pending = ground_turn(turn, self.grounder) if self.grounder else turn
        return self.pending

    async def on_messages(
        self, messages: Sequence[BaseChatMessage], cancellation_token: CancellationToken
    ) -> Response:
        heard = [m for m in messages if m.source != self.name]
        if not heard:
            raise ValueError(f"{self.name} got no user message to answer")
        # The newest message is the user's turn (a team's task message may come before it).
        self.hear(UserTurn(text=heard[-1].to_model_text()))
        turn = await self.answer()
        typed = SystemTurnMessage(content=turn, source=self.name, format_string=SYSTEM_TURN_FORMAT)
        reply = TextMessage(content=turn.text, source=self.name, metadata={"act": turn.act})
        return Response(chat_message=reply, inner_messages=[typed])

    async def final_list(self, k: int) -> list[ItemRef]:
        """The paper's fallback top-k list at turn max_turns + 1 (grounded with a grounder)."""
        if self.state is None:
            raise ValueError("no dialogue yet")
        items = await self.system.final_list(self.state, k)
        if self.grounder is None:
            return items
        # A system that grounded its own items (a tool gave the id) keeps them.
        grounder = self.grounder
        return [i if i.item_id else grounder.ground(i.title) for i in items]

    async def on_reset(self, cancellation_token: CancellationToken) -> None:
        await self.system.close()
        self._resets += 1
        self.dialogue_id = f"{self._base_id}/{self._resets + 1}"
        self.system = self._build(self.dialogue_id)
        self.state, self.pending = None, None

    async def close(self) -> None:
        await self.system.close()

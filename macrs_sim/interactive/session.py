"""One chat session: a person and a system take turns until it ends, then a typed result.

Scored sessions (a target) follow the campaign protocol: acceptance by grounding, at most
max_turns, then the system's fallback top-k list. Unscored sessions go on until the
person quits. However it ends (/quit, Ctrl-D, Ctrl-C, a model fault), what was said is
kept, and `session_result` makes it a `DialogueResult` for the run store.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Literal, Protocol

from autogen_agentchat.messages import TextMessage
from autogen_core import CancellationToken

from macrs_sim.campaign.dialogue import describe_error
from macrs_sim.config import ProtocolConfig
from macrs_sim.interactive.agent import RecommenderChatAgent, system_turn_of
from macrs_sim.interactive.person import PersonQuit, PersonSimulator
from macrs_sim.protocol import (
    DialogueResult,
    DialogueStatus,
    Exchange,
    ItemRef,
    Sample,
    SystemTurn,
    UserTurn,
)

EndReason = Literal["accepted", "max_turns", "quit", "interrupted", "error"]


class SessionView(Protocol):
    """What the session shows while it runs (render.ChatView in the terminal)."""

    def thinking(self, system: str) -> None: ...

    def system_turn(self, number: int, system: str, turn: SystemTurn) -> None: ...

    def target_found(self) -> None: ...

    def final_list(self, items: list[ItemRef]) -> None: ...


@dataclass
class SessionEnd:
    reason: EndReason = "quit"
    final: list[ItemRef] = field(default_factory=list)
    error: str | None = None


class ChatSession:
    def __init__(
        self,
        agent: RecommenderChatAgent,
        person: PersonSimulator,
        view: SessionView,
        protocol: ProtocolConfig,
        *,
        person_name: str = "person",
    ) -> None:
        self.agent, self.person, self.view = agent, person, view
        self.protocol = protocol
        self.person_name = person_name
        self.end = SessionEnd()

    async def run(self) -> SessionEnd:
        """Never raises for the ways a session ends: they are recorded in `self.end`."""
        try:
            await self._converse()
        except PersonQuit:
            self.end.reason = "quit"
        except (KeyboardInterrupt, asyncio.CancelledError):
            # Ctrl-C: at the prompt, or while the model works (asyncio then cancels us).
            self.end.reason = "interrupted"
        except Exception as err:  # a model fault ends the session, keeping what was said
            self.end.reason, self.end.error = "error", describe_error(err)
        return self.end

    async def _converse(self) -> None:
        opening = await self.person.open()
        message = TextMessage(content=opening.text, source=self.person_name)
        name = self.agent.system.name
        while True:
            self.view.thinking(name)
            response = await self.agent.on_messages([message], CancellationToken())
            turn = system_turn_of(response)
            number = len(self.agent.state.exchanges) + 1 if self.agent.state else 1
            self.view.system_turn(number, name, turn)
            if self.person.accepts(turn):
                self.view.target_found()
            user = await self.person.reply(turn)
            if user.accepted:
                self.agent.hear(user)
                self.end.reason = "accepted"
                return
            if self.person.scored and number >= self.protocol.max_turns:
                # Paper §3.1: at turn max_turns + 1 the system gives its top-k list.
                self.agent.hear(user)
                self.view.thinking(name)
                self.end.final = await self.agent.final_list(self.protocol.final_list_k)
                self.view.final_list(self.end.final)
                self.end.reason = "max_turns"
                return
            message = TextMessage(content=user.text, source=self.person_name)


def session_result(
    agent: RecommenderChatAgent, sample: Sample, end: SessionEnd, max_turns: int | None
) -> DialogueResult | None:
    """The session as a dialogue; None when the system never spoke (nothing to keep).

    A system turn the person left unanswered is kept with an empty user text. `max_turns`
    is the protocol's for a scored session; None (unscored) records the session's length.
    """
    state = agent.state
    if state is None:
        return None
    exchanges = state.exchanges
    if agent.pending is not None:
        exchanges += (Exchange(turn=state.turn, system=agent.pending, user=UserTurn(text="")),)
    if not exchanges:
        return None
    status: DialogueStatus = "failure"
    if end.reason == "accepted":
        status = "success"
    elif end.reason == "error":
        status = "error"
    return DialogueResult(
        dialogue_id=agent.dialogue_id,
        system=agent.system.name,
        sample_id=sample.sample_id,
        target_id=sample.target_id,
        status=status,
        max_turns=max_turns if max_turns is not None else len(exchanges),
        success_turn=exchanges[-1].turn if status == "success" else None,
        opening=state.opening,
        exchanges=exchanges,
        final_list=tuple(end.final),
        error=end.error,
    )

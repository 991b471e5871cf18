"""Typed request/response messages between the MACRS coordinator and its role agents."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from macrs_sim.agents.macrs.schemas import UserProfile
from macrs_sim.protocol import Utterance


class Message(BaseModel):
    model_config = ConfigDict(frozen=True)


class RespondRequest(Message):
    """Responder memory (paper eq. 1): D_h, U_p and this responder's suggestion S."""

    turn: int
    dialogue_history: list[Utterance]
    profile: UserProfile
    suggestion: str = ""


class CandidateReply(Message):
    act: str
    text: str
    item_title: str | None = None


class PlanRequest(Message):
    """Planner memory (paper eq. 2): D_h, A_h, E, plus the three candidates."""

    turn: int
    dialogue_history: list[Utterance]
    act_history: list[str]
    experiences: list[str]
    candidates: dict[str, CandidateReply]


class PlanDecision(Message):
    choice: str
    reasoning: dict[str, str]


class InfoReflectRequest(Message):
    """Paper eq. 3: U_p^t from U_p^{t-1}, R_s^{t-1}, U_f^{t-1}."""

    turn: int
    profile: UserProfile
    system_response: str
    user_feedback: str


class TrajectoryStep(Message):
    """One (U_p^i, R_s^i, U_f^i) element of the trajectory M (paper eq. 4)."""

    turn: int
    profile: UserProfile
    act: str
    system_response: str
    user_feedback: str


class StrategyReflectRequest(Message):
    turn: int
    trajectory: list[TrajectoryStep]


class FinalListRequest(Message):
    """The fallback list; `given` (titles already in it) makes it the follow-up request."""

    turn: int
    dialogue_history: list[Utterance]
    profile: UserProfile
    k: int
    given: list[str] = []


class FinalListReply(Message):
    titles: list[str]

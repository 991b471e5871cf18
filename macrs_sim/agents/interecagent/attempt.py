"""One attempt at a turn (plan-first or ReAct), as a typed record for `explain`."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from macrs_sim.agents.interecagent.bus import TrackRecord
from macrs_sim.agents.interecagent.schemas import CriticOutput, PlanStep


class Attempt(BaseModel):
    # Filled in as the attempt runs, then dumped into `explain`.
    model_config = ConfigDict(extra="forbid")

    mode: str
    demonstrations: tuple[str, ...] = ()
    plan: tuple[PlanStep, ...] = ()
    repairs: tuple[str, ...] = ()
    plan_error: str | None = None
    # Why the plan failed (unreadable, or no step ran): the user got a clarifying question.
    plan_failure: str | None = None
    tools: tuple[TrackRecord, ...] = ()
    candidates: int = 0
    shown: tuple[str, ...] = ()
    reply: str = ""
    llm_calls: int = 0
    critique_in: str | None = None
    verdict: CriticOutput | None = None
    critic_error: str | None = None
    # Rejected by the critic: its profile updates were undone before the next attempt.
    reverted: bool = False

"""The MACRS coordinator's memory across turns of one dialogue (paper §3.2-3.3, §4.2)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from macrs_sim.agents.macrs.messages import TrajectoryStep
from macrs_sim.agents.macrs.schemas import UserProfile


@dataclass
class MACRSMemory:
    profile: UserProfile = field(default_factory=UserProfile)
    act_history: list[str] = field(default_factory=list)
    # Trajectory since the turn after the last failed recommendation (paper eq. 4).
    trajectory: list[TrajectoryStep] = field(default_factory=list)
    # Suggestions S and experiences E live for one turn only (paper §4.2).
    suggestions: dict[str, str] = field(default_factory=dict)
    experiences: list[str] = field(default_factory=list)
    # The profile each turn's response was generated with: U_p^i of the trajectory.
    profile_at_turn: dict[int, UserProfile] = field(default_factory=dict)
    # The strategy reflection made this turn, kept for the turn's explain payload.
    last_strategy: dict[str, Any] | None = None

    def forget_turn_guidance(self) -> None:
        self.suggestions = {}
        self.experiences = []

"""A stand-in for macrs_sim.agents.recmind.task_solver: records how it was built."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

BUILT: list[dict[str, Any]] = []


class EchoSolver:
    """Ranks the candidates in the order shown (so the target's place is the shuffle's)."""

    def __init__(self, histories: Mapping[str, Sequence[tuple[str, float | None]]]) -> None:
        self.histories = histories

    async def solve(self, question: str, *, user_id: str) -> str:
        lines = question.split("Candidates:\n", 1)[1].split("\n\n", 1)[0].splitlines()
        return "Finish [" + ", ".join(line.split(" ", 1)[0] for line in lines) + "]"


def build_task_solver(planner: str, **kwargs: Any) -> EchoSolver:
    BUILT.append({"planner": planner, **kwargs})
    return EchoSolver(kwargs["histories"])

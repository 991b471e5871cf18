"""The solver contract: what answers a task question, and what it may be built from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from autogen_core.models import ChatCompletionClient

from macrs_sim.data.dataset import Dataset
from macrs_sim.prompts import PromptLibrary
from macrs_sim.tools import ToolCallLog


class TaskSolver(Protocol):
    async def solve(self, question: str, *, user_id: str) -> str: ...


@dataclass(frozen=True)
class SolverContext:
    """What a solver may be built from; `histories` hold only the visible items."""

    client: ChatCompletionClient
    dataset: Dataset
    # user id -> (item id, rating or None), oldest first, the held-out item never included.
    histories: Mapping[str, Sequence[tuple[str, float | None]]]
    prompts: PromptLibrary
    max_steps: int
    tool_log: ToolCallLog


SolverFactory = Callable[[SolverContext], TaskSolver]

"""The solver contract: what answers a task question, and what it may be built from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from autogen_core.models import ChatCompletionClient

from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import Interactions
from macrs_sim.prompts import PromptLibrary
from macrs_sim.tools import ToolCallLog


@dataclass(frozen=True)
class SolverAnswer:
    """What a solver answered: its text and, apart from it, the items it ranked, best first
    (RecMind's Finish `items`; empty for a solver that answers in text only)."""

    text: str
    items: tuple[str, ...] = ()


class TaskSolver(Protocol):
    async def solve(
        self, question: str, *, user_id: str, candidates: Sequence[str] = ()
    ) -> SolverAnswer:
        """`candidates`: the ranking tasks' candidate ids in the order the question shows
        them (a trained ranker scores them; an LLM solver reads the question)."""
        ...


@dataclass(frozen=True)
class SolverContext:
    """What a solver may be built from; `histories` hold only the visible items, of every
    user (asked or not: RecMind's memory)."""

    client: ChatCompletionClient
    dataset: Dataset
    # user id -> (item id, rating or None), oldest first, for every user of the dataset;
    # no user's held-out item is included.
    histories: Mapping[str, Sequence[tuple[str, float | None]]]
    prompts: PromptLibrary
    max_steps: int
    tool_log: ToolCallLog
    # The RecMind planners' options (`--set key=value`; planner and max_steps set apart).
    recmind_options: Mapping[str, Any] = field(default_factory=dict)
    # The client's sampling temperature (ToT's ballots follow it unless the options say).
    temperature: float = 0.0
    # The run's interactions (a trained ranker fits its leave-one-out split); how many
    # items a ranking answer gives.
    interactions: Interactions | None = None
    top_n: int = 10


SolverFactory = Callable[[SolverContext], TaskSolver]

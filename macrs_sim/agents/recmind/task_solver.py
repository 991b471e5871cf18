"""RecMind on its own offline tasks (rating prediction, direct and sequential recommendation,
explanation): a question in, the agent's final answer and its ranked items out.

`histories` maps every user (asked or not) to their visible (item id, rating or None),
oldest first, the held-out items already removed: it becomes the memory database's
`user_ratings`, so no tool can reach a held-out item. Each `solve` uses a fresh reasoner,
so calls may run concurrently; `solve_traced` also gives the reasoning tree, calls, tokens
and seconds. The calls are made under the caller's dialogue id (the question being
asked), so whoever accounts for them can tell which question each call served.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from autogen_core.models import ChatCompletionClient
from pydantic import ValidationError

from macrs_sim.agents.recmind import build
from macrs_sim.agents.recmind.memory import default_memory_dir
from macrs_sim.agents.recmind.options import PLANNERS, RecMindOptions
from macrs_sim.agents.recmind.planners import limits_of, run_planner
from macrs_sim.agents.recmind.prompts import offline_task
from macrs_sim.agents.recmind.tree import ReasoningTree
from macrs_sim.data.dataset import Dataset
from macrs_sim.errors import ConfigError
from macrs_sim.llm.context import current_call
from macrs_sim.prompts import PromptLibrary
from macrs_sim.tools import ToolCallLog
from macrs_sim.tools.args import validation_message


@dataclass(frozen=True)
class TaskAnswer:
    """The final answer text and the items of the Finish step (asked for best first)."""

    answer: str
    items: tuple[str, ...] = ()


@dataclass(frozen=True)
class SolveTrace:
    answer: str
    items: tuple[str, ...]
    tree: ReasoningTree
    usage: dict[str, int]
    seconds: float


class RecMindTaskSolver:
    def __init__(
        self,
        options: RecMindOptions,
        res: build.RecMindResources,
        *,
        client: ChatCompletionClient,
        prompts: PromptLibrary,
        log: ToolCallLog | None = None,
        temperature: float = 0.0,
    ) -> None:
        self.options = options
        self.res = res
        self._client = client
        self._prompts = prompts
        self._log = log
        self.temperature = temperature

    async def solve(self, question: str, *, user_id: str) -> TaskAnswer:
        trace = await self.solve_traced(question, user_id=user_id)
        return TaskAnswer(trace.answer, trace.items)

    async def solve_traced(self, question: str, *, user_id: str) -> SolveTrace:
        asking = current_call()
        r = build.reasoner(
            self.options, self.res, client=self._client, prompts=self._prompts,
            system=asking.system or f"recmind-{self.options.planner}",
            dialogue_id=asking.dialogue_id, log=self._log, temperature=self.temperature,
        )  # fmt: skip
        start = time.perf_counter()
        task = offline_task(r.prompts, question, user_id)
        tree = await run_planner(self.options.planner, r, task, limits_of(self.options))
        seconds = time.perf_counter() - start
        return SolveTrace(tree.answer, tuple(tree.items), tree, r.caller.usage.as_dict(), seconds)


def build_task_solver(
    planner: str,
    *,
    client: ChatCompletionClient,
    dataset: Dataset,
    histories: Mapping[str, Sequence[tuple[str, float | None]]],
    prompts: PromptLibrary,
    max_steps: int = 6,
    log: ToolCallLog | None = None,
    cache_dir: Path | None = None,
    options: RecMindOptions | None = None,
    temperature: float = 0.0,
) -> RecMindTaskSolver:
    """`options` sets the rest (ToT breadth, votes, tool switches); `planner` and
    `max_steps` override it. `temperature` is the client's (ToT's ballots follow it unless
    the options name one). The memory database goes under `cache_dir` (default: the user
    cache), named by the dataset and the histories."""
    if planner not in PLANNERS:
        raise ConfigError(f"recmind planner {planner!r}: expected one of {', '.join(PLANNERS)}")
    base = (options or RecMindOptions()).model_dump()
    try:
        opts = RecMindOptions.model_validate(base | {"planner": planner, "max_steps": max_steps})
    except ValidationError as err:
        raise ConfigError(f"recmind task solver: {validation_message(err)}") from None
    res = build.resources(dataset, histories, cache_dir or default_memory_dir())
    return RecMindTaskSolver(
        opts, res, client=client, prompts=prompts, log=log, temperature=temperature
    )

"""Who answers the task questions: the `TaskSolver` contract, the plain LLM, the registry.

`DirectSolver` is the paper's plain-LLM baseline (its "ChatGPT (zero-shot / few-shot)"
rows): one model call per question. The RecMind planners answer through the same
contract (recmind_solvers.py), and so do trained rankers on the ranking tasks
(ranker_solvers.py). A solver is made per (solver, prompting) run by a factory
from a `SolverContext`, so nothing a solver remembers leaks from one run into another.
"""

from __future__ import annotations

from collections.abc import Sequence

from autogen_core.models import ChatCompletionClient, LLMMessage, SystemMessage, UserMessage

from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.recmind.contract import (
    SolverAnswer,
    SolverContext,
    SolverFactory,
    TaskSolver,
)
from macrs_sim.evaluation.recmind.questions import PROMPT_DIR
from macrs_sim.evaluation.recmind.ranker_solvers import RANKER_SOLVERS
from macrs_sim.evaluation.recmind.recmind_solvers import RECMIND_SOLVERS
from macrs_sim.evaluation.recmind.settings import RANKING_TASKS

__all__ = ["SOLVERS", "DirectSolver", "SolverContext", "TaskSolver", "solver_factory"]


class DirectSolver:
    """One call: the solver's system message, then the question; the reply is the answer."""

    def __init__(self, client: ChatCompletionClient, system: str) -> None:
        self.client = client
        self.system = system

    async def solve(
        self, question: str, *, user_id: str, candidates: Sequence[str] = ()
    ) -> SolverAnswer:
        messages: list[LLMMessage] = [
            SystemMessage(content=self.system),
            UserMessage(content=question, source="user"),
        ]
        result = await self.client.create(messages)
        return SolverAnswer(result.content if isinstance(result.content, str) else "")


def direct_solver(ctx: SolverContext) -> TaskSolver:
    return DirectSolver(ctx.client, ctx.prompts.get(f"{PROMPT_DIR}/solver").render("system"))


SOLVERS: dict[str, SolverFactory] = {
    "direct": direct_solver, **RECMIND_SOLVERS, **RANKER_SOLVERS,
}  # fmt: skip


def solver_factory(name: str) -> SolverFactory:
    try:
        return SOLVERS[name]
    except KeyError:
        known = ", ".join(SOLVERS)
        raise ConfigError(f"--solver {name!r}: unknown solver; expected one of {known}") from None


def check_solver(name: str, task: str) -> None:
    """Unknown names, and a trained ranker asked what is not a ranking, fail before any
    question."""
    solver_factory(name)
    if name in RANKER_SOLVERS and task not in RANKING_TASKS:
        tasks = ", ".join(sorted(RANKING_TASKS))
        raise ConfigError(f"--solver {name!r}: a ranker answers ranking tasks only ({tasks})")

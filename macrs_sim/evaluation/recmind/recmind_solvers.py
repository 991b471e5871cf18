"""The RecMind planners as task solvers, through the agent's `build_task_solver` contract.

`macrs_sim.agents.recmind.task_solver.build_task_solver(planner, *, client, dataset,
histories, prompts, max_steps, log, options)` returns an object with `async
solve(question, *, user_id)` giving the answer text and the Finish step's items; both are
kept (`SolverAnswer`): the items are the ranked list, the text its wording.
"""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.agents.recmind.options import RecMindOptions
from macrs_sim.agents.recmind.task_solver import RecMindTaskSolver, build_task_solver
from macrs_sim.evaluation.recmind.contract import (
    SolverAnswer,
    SolverContext,
    SolverFactory,
    TaskSolver,
)

# Solver name -> the agent's planner name.
PLANNERS: dict[str, str] = {
    "recmind-cot": "cot",
    "recmind-tot-bfs": "tot-bfs",
    "recmind-tot-dfs": "tot-dfs",
    "recmind-si": "self-inspiring",
}


class RecMindSolver:
    def __init__(self, agent: RecMindTaskSolver) -> None:
        self.agent = agent

    async def solve(
        self, question: str, *, user_id: str, candidates: Sequence[str] = ()
    ) -> SolverAnswer:
        answer = await self.agent.solve(question, user_id=user_id)
        return SolverAnswer(answer.answer, answer.items)


def recmind_factory(solver: str) -> SolverFactory:
    planner = PLANNERS[solver]

    def build(ctx: SolverContext) -> TaskSolver:
        return RecMindSolver(
            build_task_solver(
                planner,
                client=ctx.client,
                dataset=ctx.dataset,
                histories=ctx.histories,
                prompts=ctx.prompts,
                max_steps=ctx.max_steps,
                log=ctx.tool_log,
                options=RecMindOptions.model_validate(ctx.recmind_options),
                temperature=ctx.temperature,
            )
        )

    return build


RECMIND_SOLVERS: dict[str, SolverFactory] = {name: recmind_factory(name) for name in PLANNERS}

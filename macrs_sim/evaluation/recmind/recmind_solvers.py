"""The RecMind planners as task solvers, through the agent's `build_task_solver` contract.

`macrs_sim.agents.recmind.task_solver.build_task_solver(planner, *, client, dataset,
histories, prompts, max_steps, log)` returns an object with `async solve(question, *,
user_id) -> str`.
"""

from __future__ import annotations

from macrs_sim.agents.recmind.task_solver import build_task_solver
from macrs_sim.evaluation.recmind.contract import SolverContext, SolverFactory, TaskSolver

# Solver name -> the agent's planner name.
PLANNERS: dict[str, str] = {
    "recmind-cot": "cot",
    "recmind-tot-bfs": "tot-bfs",
    "recmind-tot-dfs": "tot-dfs",
    "recmind-si": "self-inspiring",
}


def recmind_factory(solver: str) -> SolverFactory:
    planner = PLANNERS[solver]

    def build(ctx: SolverContext) -> TaskSolver:
        return build_task_solver(
            planner,
            client=ctx.client,
            dataset=ctx.dataset,
            histories=ctx.histories,
            prompts=ctx.prompts,
            max_steps=ctx.max_steps,
            log=ctx.tool_log,
        )

    return build


RECMIND_SOLVERS: dict[str, SolverFactory] = {name: recmind_factory(name) for name in PLANNERS}

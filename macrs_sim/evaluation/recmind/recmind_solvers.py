"""The RecMind planners as task solvers, through the agent's `build_task_solver` contract.

`macrs_sim.agents.recmind.task_solver.build_task_solver(planner, *, client, dataset,
histories, prompts, max_steps, log)` returns an object with `async solve(question, *,
user_id) -> str`. It is imported when a RecMind solver is first built, so this package
runs (with the direct solver) in an installation without the agent.
"""

from __future__ import annotations

import importlib
from typing import Any, cast

from macrs_sim.errors import ConfigError
from macrs_sim.evaluation.recmind.contract import SolverContext, SolverFactory, TaskSolver

TASK_SOLVER_MODULE = "macrs_sim.agents.recmind.task_solver"
# Solver name -> the agent's planner name.
PLANNERS: dict[str, str] = {
    "recmind-cot": "cot",
    "recmind-tot-bfs": "tot-bfs",
    "recmind-tot-dfs": "tot-dfs",
    "recmind-si": "self-inspiring",
}


def agent_module(solver: str) -> Any:
    try:
        return importlib.import_module(TASK_SOLVER_MODULE)
    except ImportError as err:
        raise ConfigError(
            f"--solver {solver}: the RecMind agent cannot be loaded ({TASK_SOLVER_MODULE}: {err})"
        ) from None


def recmind_factory(solver: str) -> SolverFactory:
    planner = PLANNERS[solver]

    def build(ctx: SolverContext) -> TaskSolver:
        module = agent_module(solver)
        made = module.build_task_solver(
            planner,
            client=ctx.client,
            dataset=ctx.dataset,
            histories=ctx.histories,
            prompts=ctx.prompts,
            max_steps=ctx.max_steps,
            log=ctx.tool_log,
        )
        return cast(TaskSolver, made)

    return build


RECMIND_SOLVERS: dict[str, SolverFactory] = {name: recmind_factory(name) for name in PLANNERS}

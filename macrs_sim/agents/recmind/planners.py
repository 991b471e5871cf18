"""The planner a scenario names, run over one task."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from macrs_sim.agents.recmind.cot import plan_cot
from macrs_sim.agents.recmind.options import Planner, RecMindOptions
from macrs_sim.agents.recmind.planning import Limits
from macrs_sim.agents.recmind.reasoner import Reasoner
from macrs_sim.agents.recmind.self_inspiring import plan_self_inspiring
from macrs_sim.agents.recmind.tot import plan_tot_bfs, plan_tot_dfs
from macrs_sim.agents.recmind.tree import ReasoningTree

PlanFn = Callable[[Reasoner, Limits], Awaitable[ReasoningTree]]
PLANNER_FUNCTIONS: dict[Planner, PlanFn] = {
    "cot": plan_cot, "tot-bfs": plan_tot_bfs, "tot-dfs": plan_tot_dfs,
    "self-inspiring": plan_self_inspiring,
}  # fmt: skip


def limits_of(options: RecMindOptions) -> Limits:
    return Limits(options.max_steps, options.tot_breadth, options.tot_votes, options.si_max_paths)


async def run_planner(planner: Planner, r: Reasoner, task: str, limits: Limits) -> ReasoningTree:
    r.start(task)
    return await PLANNER_FUNCTIONS[planner](r, limits)

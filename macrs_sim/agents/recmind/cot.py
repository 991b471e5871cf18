"""Chain-of-Thought (ReAct): one path; each state is sampled given the path so far."""

from __future__ import annotations

from macrs_sim.agents.recmind.planning import Limits, add_step, conclude, finish, observe
from macrs_sim.agents.recmind.reasoner import Reasoner
from macrs_sim.agents.recmind.tree import ReasoningTree


async def plan_cot(r: Reasoner, limits: Limits) -> ReasoningTree:
    tree = ReasoningTree(planner="cot", step_limit=limits.max_steps)
    leaf: int | None = None
    while tree.steps_used < limits.max_steps:
        step = await r.propose(tree.path_to(leaf))
        if step is None:
            break
        node = add_step(tree, leaf, step)
        if step.finishes:
            finish(tree, node, step)
            return tree
        observe(tree, node, await r.act(step))
        leaf = node.id
    await conclude(r, tree, leaf)
    return tree

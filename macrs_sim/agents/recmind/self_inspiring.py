"""Self-Inspiring (Algorithm 1): every explored state of every path stays in context.

Each step: sample the next state of the current path m given all states S (every path);
stop on Finish; run it; then ask inspire(x, S') whether an alternative to this step is
needed. If it is, the alternative is run as the first state of path m+1 (a sibling of
the step just taken), the planning continues on path m+1 and t advances by 2; else t
advances by 1. The answer at the step limit is asked for with all states in context.
"""

from __future__ import annotations

from macrs_sim.agents.recmind.planning import Limits, add_step, conclude, finish, observe
from macrs_sim.agents.recmind.reasoner import Reasoner
from macrs_sim.agents.recmind.tree import ReasoningTree, ThoughtNode


async def _inspired(r: Reasoner, tree: ReasoningTree, node: ThoughtNode, m: int,
                    limits: Limits) -> ThoughtNode | None:  # fmt: skip
    """The alternative state (path m+1) when inspire() asks for one and the limits allow it."""
    if m >= limits.max_paths or tree.steps_used >= limits.max_steps:
        return None
    previous = [n for n in tree.run_states() if n.id != node.id]
    alternative = await r.inspire(previous, node)
    if alternative is None or alternative.finishes:
        return None
    alt = add_step(tree, node.parent, alternative, path=m + 1)
    observe(tree, alt, await r.act(alternative))
    node.status = "alternative"
    return alt


async def plan_self_inspiring(r: Reasoner, limits: Limits) -> ReasoningTree:
    tree = ReasoningTree(planner="self-inspiring", step_limit=limits.max_steps)
    leaf: int | None = None
    m = 1
    while tree.steps_used < limits.max_steps:
        step = await r.propose(tree.run_states(), all_paths=True)
        if step is None:
            break
        node = add_step(tree, leaf, step, path=m)
        if step.finishes:
            finish(tree, node, step)
            return tree
        observe(tree, node, await r.act(step))
        alt = await _inspired(r, tree, node, m, limits)
        if alt is not None:
            m += 1
        leaf = (alt or node).id
    await conclude(r, tree, leaf, all_paths=True)
    return tree

"""Tree-of-Thoughts: sampled candidate next states and a majority-vote evaluator.

BFS keeps the winner of each vote (the others are pruned) and so walks one path, as the
paper says. DFS explores one branch at a time, the candidates in vote order (most votes
first, ties and candidates without a vote in the order sampled): a state whose tool failed
or found nothing is a dead end, and so is a state all of whose children are; the search
then backtracks to its parent and starts a new branch from the next sibling (the paper's
z(1) -> z(2)). A candidate without a vote is still a sibling to return to: at temperature
0 every ballot goes to the same candidate, and the others would otherwise never be tried.
The step limit counts every state run, on every branch.
"""

from __future__ import annotations

from typing import Literal

from macrs_sim.agents.recmind.planning import Limits, add_step, conclude, finish, observe
from macrs_sim.agents.recmind.reasoner import Reasoner, majority, tally
from macrs_sim.agents.recmind.schemas import StepOutput
from macrs_sim.agents.recmind.tree import ReasoningTree, ThoughtNode

Outcome = Literal["finished", "dead", "stopped"]


async def _voted(
    r: Reasoner, tree: ReasoningTree, leaf: int | None, limits: Limits
) -> tuple[list[StepOutput], list[int]] | None:
    steps = tree.path_to(leaf)
    candidates = await r.sample(steps, limits.breadth)
    if not candidates:
        return None
    ballots = await r.vote(steps, candidates, limits.votes)
    tree.ballots.append(ballots)
    return candidates, tally(ballots, len(candidates))


async def plan_tot_bfs(r: Reasoner, limits: Limits) -> ReasoningTree:
    tree = ReasoningTree(planner="tot-bfs", step_limit=limits.max_steps)
    leaf: int | None = None
    while tree.steps_used < limits.max_steps:
        voted = await _voted(r, tree, leaf, limits)
        if voted is None:
            break
        candidates, votes = voted
        best = majority(votes)
        nodes = [add_step(tree, leaf, c, status="kept" if i == best else "pruned", votes=votes[i])
                 for i, c in enumerate(candidates)]  # fmt: skip
        if candidates[best].finishes:
            finish(tree, nodes[best], candidates[best])
            return tree
        observe(tree, nodes[best], await r.act(candidates[best]))
        leaf = nodes[best].id
    await conclude(r, tree, leaf)
    return tree


class _Dfs:
    def __init__(self, r: Reasoner, limits: Limits) -> None:
        self.r = r
        self.limits = limits
        self.tree = ReasoningTree(planner="tot-dfs", step_limit=limits.max_steps)
        self.last: int | None = None  # the last state run: where the answer starts at the limit

    async def expand(self, leaf: int | None) -> Outcome:
        if self.tree.steps_used >= self.limits.max_steps:
            return "stopped"
        voted = await _voted(self.r, self.tree, leaf, self.limits)
        if voted is None:
            return "stopped"
        candidates, votes = voted
        order = sorted(range(len(candidates)), key=lambda i: (-votes[i], i))
        nodes = [add_step(self.tree, leaf, c, status="unexplored", votes=votes[i])
                 for i, c in enumerate(candidates)]  # fmt: skip
        for i in order:
            outcome = await self._try(nodes[i], candidates[i])
            if outcome != "dead":
                return outcome
        return "dead"

    async def _try(self, node: ThoughtNode, step: StepOutput) -> Outcome:
        if self.tree.steps_used >= self.limits.max_steps:
            return "stopped"
        node.status = "kept"
        if step.finishes:
            finish(self.tree, node, step)
            return "finished"
        obs = await self.r.act(step)
        observe(self.tree, node, obs)
        self.last = node.id
        outcome: Outcome = "dead" if obs.dead_end else await self.expand(node.id)
        if outcome == "dead":
            node.status = "backtracked"
            self.last = node.parent
        return outcome


async def plan_tot_dfs(r: Reasoner, limits: Limits) -> ReasoningTree:
    dfs = _Dfs(r, limits)
    if await dfs.expand(None) != "finished":
        await conclude(r, dfs.tree, dfs.last)
    return dfs.tree

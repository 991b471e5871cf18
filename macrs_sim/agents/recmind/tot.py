"""Tree-of-Thoughts: sampled candidate next states and a majority-vote evaluator.

BFS keeps the winner of each vote (the others are pruned) and so walks one path, as the
paper says. DFS explores one branch at a time, the candidates in vote order (most votes
first, ties and candidates without a vote in the order sampled). Once a state has run, the
voting evaluator judges it again, its observation shown, against its siblings not yet
tried (Fig. 1: option 3(1) is run, evaluated, pruned, and 3(2) proposed): when a sibling
wins, the state is pruned and that sibling runs next. A state whose tool failed or found
nothing is a dead end without a vote, and so is a state all of whose children are; the
search then backtracks to its parent and starts a new branch from the next sibling (the
paper's z(1) -> z(2)). A candidate without a vote is still a sibling to return to: at
temperature 0 every ballot goes to the same candidate, and the others would otherwise never
be tried. The step limit counts every state run, on every branch.
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
        pending = sorted(range(len(candidates)), key=lambda i: (-votes[i], i))
        nodes = [add_step(self.tree, leaf, c, status="unexplored", votes=votes[i])
                 for i, c in enumerate(candidates)]  # fmt: skip
        while pending:
            i = pending.pop(0)
            siblings = [(j, candidates[j]) for j in pending]
            outcome, preferred = await self._try(nodes[i], candidates[i], siblings)
            if outcome != "dead":
                return outcome
            if preferred is not None:  # the evaluator's choice runs next
                pending.remove(preferred)
                pending.insert(0, preferred)
        return "dead"

    async def _try(
        self, node: ThoughtNode, step: StepOutput, siblings: list[tuple[int, StepOutput]]
    ) -> tuple[Outcome, int | None]:
        if self.tree.steps_used >= self.limits.max_steps:
            return "stopped", None
        node.status = "kept"
        if step.finishes:
            finish(self.tree, node, step)
            return "finished", None
        obs = await self.r.act(step)
        observe(self.tree, node, obs)
        self.last = node.id
        preferred = None if obs.dead_end else await self._evaluate(node, step, siblings)
        if obs.dead_end or preferred is not None:
            outcome: Outcome = "dead"
        else:
            outcome = await self.expand(node.id)
        if outcome == "dead":
            node.status = "backtracked"
            self.last = node.parent
        return outcome, preferred

    async def _evaluate(
        self, node: ThoughtNode, step: StepOutput, siblings: list[tuple[int, StepOutput]]
    ) -> int | None:
        """The evaluator's vote between the state just run (option 1, with its observation)
        and its untried siblings: the winning sibling's index, or None to go on."""
        if not siblings:
            return None
        steps = self.tree.path_to(node.parent)
        options = [step, *(s for _, s in siblings)]
        ballots = await self.r.vote(steps, options, self.limits.votes, observed=node.observation)
        self.tree.ballots.append(ballots)
        best = majority(tally(ballots, len(options)))
        return None if best == 0 else siblings[best - 1][0]


async def plan_tot_dfs(r: Reasoner, limits: Limits) -> ReasoningTree:
    dfs = _Dfs(r, limits)
    if await dfs.expand(None) != "finished":
        await conclude(r, dfs.tree, dfs.last)
    return dfs.tree

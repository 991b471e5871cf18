"""The planning calls every planner is built from: next state, candidates, votes, inspire.

Roles: recmind.thought (next state), recmind.sample (ToT candidates), recmind.vote (ToT
evaluator), recmind.inspire (Self-Inspiring), recmind.final (answer at the step limit).
A call whose reply never fits its schema gives None; the planner ends the turn with what
it has (recorded in `Caller.errors`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from autogen_core.models import LLMMessage

from macrs_sim.agents.recmind import prompts as pb
from macrs_sim.agents.recmind.actions import Observation, RecMindTools
from macrs_sim.agents.recmind.budget import cut_text
from macrs_sim.agents.recmind.calls import Caller
from macrs_sim.agents.recmind.schemas import (
    AnswerOutput,
    CandidatesOutput,
    InspireOutput,
    StepOutput,
    VoteOutput,
)
from macrs_sim.agents.recmind.tree import ThoughtNode
from macrs_sim.llm.context import calling


class Reasoner:
    def __init__(
        self,
        caller: Caller,
        prompts: pb.RecMindPrompts,
        tools: RecMindTools,
        *,
        temperature: float = 0.0,
        vote_temperature: float | None = None,
    ) -> None:
        self.caller = caller
        self.prompts = prompts
        self.tools = tools
        self.budget = tools.budget
        # The model's own sampling temperature, and the one ToT's ballots are asked at.
        self.temperature = temperature
        self.vote_temperature = vote_temperature
        self.task = ""
        # Every item a tool found this turn, by id (grounds the answer's titles).
        self.found: dict[str, str] = {}

    def start(self, task: str) -> None:
        self.task = task
        self.found = {}

    def _fitted(
        self, build: Callable[[str], list[LLMMessage]], states: Sequence[ThoughtNode],
        *, with_path: bool = False,
    ) -> list[LLMMessage]:  # fmt: skip
        """The messages with the states in what room the prompt budget leaves them."""
        room = self.budget.room(build(""))
        return build(pb.fit_states(states, room, with_path=with_path))

    async def propose(
        self, states: Sequence[ThoughtNode], *, all_paths: bool = False
    ) -> StepOutput | None:
        def build(steps: str) -> list[LLMMessage]:
            return pb.step_messages(
                self.prompts, self.tools.description, self.task, steps, all_paths=all_paths
            )

        msgs = self._fitted(build, states, with_path=all_paths)
        return await self.caller.json("thought", msgs, StepOutput)

    async def sample(self, states: Sequence[ThoughtNode], k: int) -> list[StepOutput]:
        def build(steps: str) -> list[LLMMessage]:
            return pb.sample_messages(self.prompts, self.tools.description, self.task, steps, k)

        out = await self.caller.json("sample", self._fitted(build, states), CandidatesOutput)
        return list(out.candidates[:k]) if out is not None else []

    def ballots(self, n: int) -> list[dict[str, Any]]:
        """The create args of each ballot of a vote asking for `n`: one ballot when the vote
        is deterministic (temperature 0: a second would repeat the first and cost as much),
        else `n`, ballot k with seed k (llama.cpp reseeds every call with its own seed, and
        a response cache answers a repeated request: both would repeat the first ballot)."""
        chosen = self.vote_temperature
        fixed: dict[str, Any] = {} if chosen is None else {"temperature": chosen}
        if (self.temperature if chosen is None else chosen) == 0 or n == 1:
            return [fixed]
        return [{**fixed, "seed": k} for k in range(n)]

    async def vote(
        self,
        states: Sequence[ThoughtNode],
        options: Sequence[StepOutput],
        n: int,
        *,
        observed: str | None = None,
    ) -> list[int]:
        """Ballots (1-based choices, see `ballots`); one outside the options counts for
        nothing. `observed`: option 1 has run, and this is its observation (DFS's
        evaluation of a state against its untried siblings)."""

        # The options (sampled steps, their arguments as long as the model wrote them) share
        # half the room; the states get what is left.
        room = self.budget.room(pb.vote_messages(self.prompts, self.task, "", []))
        each = room // (2 * max(1, len(options)))

        def build(steps: str) -> list[LLMMessage]:
            return pb.vote_messages(
                self.prompts, self.task, steps, options, each, observed=observed
            )

        msgs = self._fitted(build, states)
        ballots: list[int] = []
        for args in self.ballots(n):
            out = await self.caller.json("vote", msgs, VoteOutput, create_args=args)
            if out is not None and 1 <= out.best <= len(options):
                ballots.append(out.best)
        return ballots

    async def inspire(
        self, previous: Sequence[ThoughtNode], current: ThoughtNode
    ) -> StepOutput | None:
        now = pb.render_node(current)

        def build(steps: str) -> list[LLMMessage]:
            return pb.inspire_messages(self.prompts, self.task, steps, now)

        msgs = self._fitted(build, previous, with_path=True)
        out = await self.caller.json("inspire", msgs, InspireOutput)
        return out.alternative if out is not None else None

    async def answer(
        self, states: Sequence[ThoughtNode], *, with_path: bool = False
    ) -> AnswerOutput | None:
        def build(steps: str) -> list[LLMMessage]:
            return pb.final_messages(self.prompts, self.tools.description, self.task, steps)

        msgs = self._fitted(build, states, with_path=with_path)
        return await self.caller.json("final", msgs, AnswerOutput)

    async def act(self, step: StepOutput) -> Observation:
        """Run the step's tool; its calls are attributed to the role recmind.tools."""
        with calling(self.caller.context("tools")):
            obs = await self.tools.run(step)
        self.found |= {h.item_id: h.title for h in obs.hits}
        kept = cut_text(obs.text, self.budget.observation_tokens)
        return obs if kept == obs.text else dataclasses.replace(obs, text=kept)


def tally(ballots: Sequence[int], n_options: int) -> list[int]:
    """Votes per option (index 0 = option 1)."""
    counts = Counter(ballots)
    return [counts.get(i, 0) for i in range(1, n_options + 1)]


def majority(votes: Sequence[int]) -> int:
    """The index of the most-voted option; a tie goes to the earlier option (0 if no votes)."""
    return max(range(len(votes)), key=lambda i: (votes[i], -i)) if votes else 0

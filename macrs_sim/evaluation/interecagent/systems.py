"""The systems of the one-turn task: InteRecAgent (answers the generated request) and the
non-LLM references (answer from the user's history alone, as the paper's Table 5 rows).

Each returns the item ids it recommends, best first: retrieval k items from the whole
catalog, ranking the given candidates in its order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from autogen_core.models import ChatCompletionClient

from macrs_sim.agents.interecagent.build import InteRecAgentPrepared, build
from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.evaluation.interecagent.schemas import OneTurnCase, Task
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState
from macrs_sim.rankers.base import ItemRanker, top_items

INTERECAGENT = "InteRecAgent"


@dataclass(frozen=True)
class Answer:
    items: tuple[str, ...]
    llm_calls: int = 0


@dataclass(frozen=True)
class InteRecAgentSystem:
    """A fresh agent per case, without long-term memory (paper §4.1: session-wise only)."""

    options: InteRecAgentOptions
    prepared: InteRecAgentPrepared
    client: ChatCompletionClient
    prompts: PromptLibrary
    name: str = INTERECAGENT

    async def answer(self, case: OneTurnCase, state: DialogueState) -> Answer:
        agent = build(
            self.options, self.prepared, name=self.name, dialogue_id=case.case_id,
            client=self.client, prompts=self.prompts, history=(),
        )  # fmt: skip
        turn = await agent.respond(state)
        items = tuple(ref.item_id for ref in turn.items if ref.item_id is not None)
        return Answer(items, int(turn.explain.get("llm_calls", 0)))


@dataclass(frozen=True)
class RankerSystem:
    """A trained ranker (or `ranker=None`: random, seeded per case) over the user's history."""

    name: str
    ranker: ItemRanker | None
    item_ids: tuple[str, ...]
    seed: int = 0

    def answer(self, case: OneTurnCase, task: Task, k: int) -> Answer:
        if task == "ranking":
            return Answer(self._order(case))
        if self.ranker is None:
            seen = set(case.history)
            pool = [i for i in self.item_ids if i not in seen]
            return Answer(tuple(self._rng(case).sample(pool, min(k, len(pool)))))
        return Answer(tuple(i for i, _ in top_items(self.ranker, case.history, k)))

    def _order(self, case: OneTurnCase) -> tuple[str, ...]:
        """The candidates best first; ties (and seen items, scored -inf) keep the given order."""
        if self.ranker is None:
            shuffled = list(case.candidates)
            self._rng(case).shuffle(shuffled)
            return tuple(shuffled)
        index = {item_id: i for i, item_id in enumerate(self.ranker.item_ids)}
        known = [index[i] for i in case.history if i in index]
        scores = self.ranker.score([known])[0]
        values = np.array([scores[index[c]] if c in index else -np.inf for c in case.candidates])
        order = np.argsort(-values, kind="stable")
        return tuple(case.candidates[j] for j in order)

    def _rng(self, case: OneTurnCase) -> random.Random:
        return random.Random(f"{self.seed}:{case.case_id}")

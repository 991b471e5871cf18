"""RecMind as a conversational recommender: each turn is one planning task.

The task (prompts/recmind/task.txt) gives the conversation and the user's id; the user's
history and ratings are reached through the SQL tool (personalised memory), item facts
through SQL and Search (world knowledge). The planner's answer is the reply; the titles
its Finish lists are the turn's items, grounded through the catalog. `explain` keeps the
reasoning tree, the calls and tokens of the turn and its seconds.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from macrs_sim.agents.recmind.build import RecMindResources
from macrs_sim.agents.recmind.grounding import ground_titles
from macrs_sim.agents.recmind.options import RecMindOptions
from macrs_sim.agents.recmind.planners import limits_of, run_planner
from macrs_sim.agents.recmind.prompts import dialogue_task
from macrs_sim.agents.recmind.reasoner import Reasoner
from macrs_sim.agents.rendering import render_history
from macrs_sim.llm.context import calling
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn
from macrs_sim.tools import Bm25SearchTool, ToolCallLog

# The user id the task names when the dialogue has no sample (a person in `chat`).
GUEST = "guest"


class RecMind:
    def __init__(
        self,
        name: str,
        reasoner: Reasoner,
        res: RecMindResources,
        options: RecMindOptions,
        *,
        history: Sequence[str] = (),
        log: ToolCallLog | None = None,
    ) -> None:
        self.name = name
        self.log = log
        self.reasoner = reasoner
        self.res = res
        self.options = options
        self.history = tuple(history)
        self.user_id = res.users.get(self.history, GUEST)
        # Items the tools found in this dialogue (id -> title), oldest first; items shown.
        self.found: dict[str, str] = {}
        self.shown: list[str] = []

    async def respond(self, state: DialogueState) -> SystemTurn:
        caller = self.reasoner.caller
        caller.reset(state.turn)
        utterances = state.utterances()
        task = dialogue_task(
            self.reasoner.prompts, self.user_id, self.options.recommend_k,
            render_history(utterances[:-1]), utterances[-1].text,
        )  # fmt: skip
        start = time.perf_counter()
        tree = await run_planner(self.options.planner, self.reasoner, task, limits_of(self.options))
        seconds = time.perf_counter() - start
        self.found |= self.reasoner.found
        skip = set(self.history) | set(self.shown)
        items = ground_titles(
            tree.items, self.res.resolver, self.reasoner.found, skip, self.options.recommend_k
        )
        self.shown += [ref.item_id for ref in items if ref.item_id]
        explain: dict[str, Any] = {
            "planner": self.options.planner, "user_id": self.user_id,
            "tree": tree.model_dump(mode="json"), **caller.usage.as_dict(),
            "seconds": round(seconds, 4), "errors": list(caller.errors),
        }  # fmt: skip
        act = "recommend" if items else "ask"
        return SystemTurn(act=act, text=tree.answer, items=tuple(items), explain=explain)

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        """No model call: items the tools found, then a BM25 search over what the user said,
        then the most popular; never a watched, shown or given item."""
        skip = set(self.history) | set(self.shown) | {r.item_id for r in given if r.item_id}
        order = [i for i in self.found if i not in skip]
        order += [i for i in await self._searched(state, k + len(skip)) if i not in order]
        if len(order) < k + len(skip):
            pop = self.res.dataset.popularity
            order += sorted((i for i in pop if i not in order), key=lambda i: -pop[i])
        picked = [i for i in order if i not in skip][:k]
        catalog = self.res.resolver.catalog
        return [ItemRef(title=" ".join(catalog[i].display_title.split()), item_id=i, score=1.0,
                        method="exact") for i in picked]  # fmt: skip

    async def _searched(self, state: DialogueState, k: int) -> list[str]:
        if self.res.bm25 is None:
            return []
        said = " ".join(u.text for u in state.utterances() if u.speaker == "user")
        tool = Bm25SearchTool(self.res.bm25, self.res.resolver, log=self.log, name="search")
        with calling(self.reasoner.caller.context("final_list")):
            query = said or self.res.dataset.domain.noun  # nothing said: any item will do
            reply = await tool.call_raw({"query": query, "k": min(max(k, 1), 100)})
        return [h.item_id for h in reply.data.hits] if reply.data is not None else []

    async def close(self) -> None:
        return None

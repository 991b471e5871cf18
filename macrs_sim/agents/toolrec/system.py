"""ToolRec as a system under test in conversational campaigns.

Each turn the surrogate-user loop runs over the user's history with the dialogue so far as
added evidence (the paper's loop sees only the history); its final list, topped up by the
plain ranker when short, gives the turn's recommendation (items not shown before) and the
fallback list at turn max_turns + 1. Items come back grounded (ItemRef with item_id).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from macrs_sim.agents.rendering import render_history
from macrs_sim.agents.toolrec.loop import LoopResult, top_up
from macrs_sim.agents.toolrec.options import ToolRecOptions
from macrs_sim.agents.toolrec.prepared import ToolRecPrepared
from macrs_sim.agents.toolrec.variants import ToolRecLoop
from macrs_sim.llm.context import CallContext
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn


class ToolRecSystem:
    def __init__(
        self,
        name: str,
        loop: ToolRecLoop,
        prepared: ToolRecPrepared,
        options: ToolRecOptions,
        *,
        history: Sequence[str],
        dialogue_id: str,
    ) -> None:
        self.name = name
        self.loop = loop
        self.prepared = prepared
        self.options = options
        self.history = tuple(history)
        self._dialogue_id = dialogue_id
        self._turn = 0
        self.shown: list[str] = []
        self.last: LoopResult | None = None
        loop.context = self._ctx

    async def respond(self, state: DialogueState) -> SystemTurn:
        self._turn = state.turn
        result = await self._run(state)
        k = self.options.recommend_k
        extra = self.prepared.plain(self.history, len(self.shown) + k)
        picks = top_up(result.final, extra, k, skip=self.shown)
        self.shown += picks
        items = tuple(self._ref(i) for i in picks)
        titles = "; ".join(ref.title for ref in items)
        text = f"You might enjoy {titles}." if items else "I have nothing new to recommend."
        explain: dict[str, Any] = {
            "loop": result.model_dump(mode="json"),
            "from_loop": sum(1 for i in picks if i in result.final),
            "llm_calls": result.llm_calls,
        }
        return SystemTurn(act="recommend" if items else "chat", text=text, items=items,
                          explain=explain)  # fmt: skip

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        """The last loop's list (a loop runs now if none has), then the plain ranker's;
        items recommended before and `given` left out. No model call once a loop ran."""
        self._turn = state.turn
        result = self.last or await self._run(state)
        skip = [*self.shown, *(ref.item_id for ref in given if ref.item_id)]
        extra = self.prepared.plain(self.history, len(skip) + k)
        return [self._ref(i) for i in top_up(result.final, extra, k, skip=skip)]

    async def close(self) -> None:
        return None

    async def _run(self, state: DialogueState) -> LoopResult:
        self.last = await self.loop.run(self.history, render_history(state.utterances()))
        return self.last

    def _ref(self, item_id: str) -> ItemRef:
        title = self.prepared.catalog[item_id].display_title
        return ItemRef(title=title, item_id=item_id, score=1.0, method="exact")

    def _ctx(self, role: str) -> CallContext:
        return CallContext(
            role=role, dialogue_id=self._dialogue_id, system=self.name, turn=self._turn
        )

"""A recommender without an LLM: each turn the best unseen item by a score over items.

History = the user's browsing history (SystemContext.history; never the target).
Every turn recommends the best-scored item not in the history and not recommended
before, in a fixed sentence; the fallback list is the next k of the same ranking.
Items come back grounded (item_id set), so the dialogue loop does not ground them again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from macrs_sim.data.catalog import Catalog
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn
from macrs_sim.rankers.base import Scores

TEMPLATE = "You might enjoy {title}."
# Scores for a history of item indices (catalog order), -inf for items not to show.
ScoreFn = Callable[[Sequence[int]], Scores]


def shown_ids(state: DialogueState) -> list[str]:
    """Items recommended so far in the dialogue (grounded ids), oldest first."""
    return [i.item_id for ex in state.exchanges for i in ex.system.items if i.item_id]


class RankedRecommender:
    def __init__(
        self, name: str, score: ScoreFn, item_ids: tuple[str, ...], catalog: Catalog,
        history: Sequence[str],
    ) -> None:  # fmt: skip
        self.name = name
        self._score = score
        self._item_ids = item_ids
        self._index = {item_id: i for i, item_id in enumerate(item_ids)}
        self._catalog = catalog
        self._history = [self._index[i] for i in history if i in self._index]

    def _ranked(self, exclude: Sequence[str], k: int) -> list[ItemRef]:
        scores = self._score(self._history).astype(np.float64, copy=True)
        for item_id in exclude:
            if item_id in self._index:
                scores[self._index[item_id]] = -np.inf
        order = np.argsort(-scores, kind="stable")[: max(k, 0)]
        return [self._ref(self._item_ids[i]) for i in order if np.isfinite(scores[i])]

    def _ref(self, item_id: str) -> ItemRef:
        title = self._catalog[item_id].display_title
        return ItemRef(title=title, item_id=item_id, score=1.0, method="exact")

    async def respond(self, state: DialogueState) -> SystemTurn:
        best = self._ranked(shown_ids(state), 1)
        if not best:
            return SystemTurn(act="chat", text="I have nothing more to recommend.")
        text = TEMPLATE.format(title=best[0].title)
        return SystemTurn(act="recommend", text=text, items=(best[0],))

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        exclude = shown_ids(state) + [g.item_id for g in given if g.item_id]
        return self._ranked(exclude, k)

    async def close(self) -> None:
        return None

"""`kind = "first_unseen"`: no model; each turn the first catalog item the user has not met.

"Met" = in the user's own past (the spec asks for `history = "pre-target"`) or shown
earlier in this dialogue. The fallback list is the next `k` such items, none of `given`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from macrs_sim.agents.context import SystemContext
from macrs_sim.agents.registry import SystemOptions, SystemSpec
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn


class FirstUnseenOptions(SystemOptions):
    kind: Literal["first_unseen"] = "first_unseen"
    # The sentence around the item's title.
    template: str = "How about {title}?"


def _shown(state: DialogueState) -> set[str]:
    return {i.item_id for ex in state.exchanges for i in ex.system.items if i.item_id}


class FirstUnseen:
    """A `Recommender` (macrs_sim.agents.base), one per dialogue."""

    def __init__(self, options: FirstUnseenOptions, ctx: SystemContext) -> None:
        self.name = ctx.name
        self._template = options.template
        past = set(ctx.history)
        self._items = [
            ItemRef(title=i.display_title, item_id=i.item_id, score=1.0, method="exact")
            for i in ctx.dataset.catalog
            if i.item_id not in past
        ]

    def _unseen(self, exclude: set[str], k: int) -> list[ItemRef]:
        return [ref for ref in self._items if ref.item_id not in exclude][:k]

    async def respond(self, state: DialogueState) -> SystemTurn:
        best = self._unseen(_shown(state), 1)
        if not best:
            return SystemTurn(act="chat", text="I have nothing more to suggest.")
        text = self._template.format(title=best[0].title)
        return SystemTurn(act="recommend", text=text, items=(best[0],))

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        exclude = _shown(state) | {g.item_id for g in given if g.item_id}
        return self._unseen(exclude, k)

    async def close(self) -> None:
        return None


def build(options: FirstUnseenOptions, ctx: SystemContext) -> FirstUnseen:
    return FirstUnseen(options, ctx)


SPEC = SystemSpec(
    kind="first_unseen",
    options=FirstUnseenOptions,
    build=f"{__name__}:build",
    uses_llm=False,
    history="pre-target",
)

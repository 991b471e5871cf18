"""A system from "an outside package": the README's 20-line example, as the tests use it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from macrs_sim.agents.context import SystemContext
from macrs_sim.agents.registry import SystemOptions, SystemSpec
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn


class FirstOptions(SystemOptions):
    kind: Literal["first"] = "first"
    greeting: str = "Try"


class FirstUnseen:
    """Recommends the catalog's items the user has not seen, in catalog order."""

    def __init__(self, options: FirstOptions, ctx: SystemContext) -> None:
        self.name, self.greeting = ctx.name, options.greeting
        self.items = [i for i in ctx.dataset.catalog if i.item_id not in ctx.history]

    async def respond(self, state: DialogueState) -> SystemTurn:
        item = self.items[len(state.exchanges)]
        ref = ItemRef(title=item.display_title, item_id=item.item_id)
        text = f"{self.greeting} {item.display_title}."
        return SystemTurn(act="recommend", text=text, items=(ref,))

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        rest = self.items[len(state.exchanges) :][:k]
        return [ItemRef(title=i.display_title, item_id=i.item_id) for i in rest]

    async def close(self) -> None:
        return None


SPEC = SystemSpec(
    kind="first", options=FirstOptions, build="tests.agents.third_party:FirstUnseen", uses_llm=False
)

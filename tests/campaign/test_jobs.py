"""The job wrappers pass the whole Recommender contract through (a merge once dropped `given`)."""

from __future__ import annotations

from collections.abc import Sequence

from macrs_sim.campaign.jobs import _Watch, _WatchedSystem
from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn, UserTurn


class _ListingSystem:
    name = "lister"

    def __init__(self) -> None:
        self.asked: list[tuple[int, tuple[str, ...]]] = []

    async def respond(self, state: DialogueState) -> SystemTurn:
        return SystemTurn(act="ask", text="Which genre?")

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        self.asked.append((k, tuple(ref.title for ref in given)))
        return [ItemRef(title="Alien")]

    async def close(self) -> None:
        return None


async def test_the_watched_system_passes_the_follow_up_items_on() -> None:
    inner = _ListingSystem()
    watched = _WatchedSystem(inner, _Watch())
    state = DialogueState(dialogue_id="d", opening=UserTurn(text="hi"))
    given = (ItemRef(title="Heat"), ItemRef(title="Up"))
    assert await watched.final_list(state, 3, given) == [ItemRef(title="Alien")]
    assert await watched.final_list(state, 10) == [ItemRef(title="Alien")]
    assert inner.asked == [(3, ("Heat", "Up")), (10, ())]

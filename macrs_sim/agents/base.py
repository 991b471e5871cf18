"""The contract every system under test meets (DESIGN.md §3)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn


@runtime_checkable
class Recommender(Protocol):
    """One instance per dialogue: the campaign builds a fresh one and closes it at the end.

    `respond`: the turn's act, text and the items it shows. The dialogue loop records the
    act as "recommend" exactly when items are shown (the system's own act is kept beside
    it, see SystemTurn.reported_act), so a recommending turn must name its item.

    `final_list` (the fallback list at turn max_turns + 1, paper §3.1): up to `k` titles,
    best first. The loop grounds them and keeps each item once (by catalog id, else by
    normalised title). When fewer than k distinct items came back, it asks once more with
    `given` = the distinct items it already has and `k` = how many are missing: answer with
    that many further items, none of `given`. The first request has `given` empty. Repeats
    are dropped whatever the system does, so the kept list may stay shorter than k.
    """

    name: str

    async def respond(self, state: DialogueState) -> SystemTurn: ...

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]: ...

    async def close(self) -> None: ...

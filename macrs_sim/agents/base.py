"""The contract every system under test meets (DESIGN.md §3)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from macrs_sim.protocol import DialogueState, ItemRef, SystemTurn


@runtime_checkable
class Recommender(Protocol):
    """One instance per dialogue: the campaign builds a fresh one and closes it at the end."""

    name: str

    async def respond(self, state: DialogueState) -> SystemTurn: ...

    async def final_list(self, state: DialogueState, k: int) -> list[ItemRef]: ...

    async def close(self) -> None: ...

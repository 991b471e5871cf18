"""The contract every user simulator meets (DESIGN.md §3)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from macrs_sim.protocol import SystemTurn, UserTurn


@runtime_checkable
class UserSimulator(Protocol):
    async def open(self) -> UserTurn: ...

    async def reply(self, turn: SystemTurn) -> UserTurn: ...

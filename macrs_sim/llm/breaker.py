"""A circuit breaker over one model's client: an outage makes calls wait, not fail.

A call that fails transiently (after the retry layer's attempts) while no call to the
same model has succeeded since it was sent means the server is down, not that this
request is bad: the circuit opens and the call waits, with capped exponential backoff,
for the server to come back, then is sent again (a call whose first round of attempts
overlapped the start of an outage, when others still succeeded, gets one more round).
Every call made while the circuit is open waits too, so an outage does not burn the
retries of every dialogue in flight. The first success closes the circuit and wakes
every waiter at once.

A call gives up after `outage_wait_s` of waiting and raises its last error (the
campaign then leaves its dialogue unfinished, so the same command redoes it). A
call that fails again while others succeed is this call's own problem: it raises.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable

from autogen_core.models import ChatCompletionClient, CreateResult

from macrs_sim.llm.base import WrappingClient
from macrs_sim.llm.retry import is_transient


class OutageBoard:
    """How many calls wait for a server right now, for the campaign's status line."""

    def __init__(self) -> None:
        self.waiting = 0
        self.since: float | None = None  # time.monotonic() when the first began waiting

    def enter(self) -> None:
        if self.waiting == 0:
            self.since = time.monotonic()
        self.waiting += 1

    def leave(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.since = None


OUTAGES = OutageBoard()  # one per process: the status line shows any model's outage


class CircuitBreaker(WrappingClient):
    def __init__(
        self,
        inner: ChatCompletionClient,
        *,
        outage_wait_s: float = 600.0,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 15.0,
        board: OutageBoard = OUTAGES,
        seed: int = 0,
    ) -> None:
        super().__init__(inner)
        self.outage_wait_s = outage_wait_s
        self.backoff_base_s, self.backoff_max_s = backoff_base_s, backoff_max_s
        self.board = board
        self.is_open = False
        self.opened = 0  # outages seen
        self._successes = 0
        self._recovered = asyncio.Event()
        self._rng = random.Random(seed)

    def _backoff_s(self, round_no: int) -> float:
        pause = min(self.backoff_max_s, self.backoff_base_s * 2.0 ** (round_no - 1))
        return pause * (0.5 + 0.5 * self._rng.random())  # spread the waiters' probes

    async def _around(self, call: Callable[[], Awaitable[CreateResult]]) -> CreateResult:
        deadline = time.monotonic() + self.outage_wait_s
        round_no = 0
        if self.is_open:  # the server is down: wait for it like those already waiting
            round_no = 1
            await self._wait(round_no, deadline)
        while True:
            before = self._successes
            try:
                result = await call()
            except Exception as err:
                answered = self._successes != before  # the server answered others meanwhile
                if not is_transient(err) or (answered and round_no > 0):
                    raise
                if time.monotonic() >= deadline:
                    raise
                if not answered:
                    self._open()
                round_no += 1
                await self._wait(round_no, deadline)
                continue
            self._close()
            return result

    def _open(self) -> None:
        if not self.is_open:
            self.is_open = True
            self.opened += 1
            self._recovered = asyncio.Event()

    def _close(self) -> None:
        self._successes += 1
        if self.is_open:
            self.is_open = False
            self._recovered.set()

    async def _wait(self, round_no: int, deadline: float) -> None:
        """Until the circuit closes or this call's backoff is over (then it probes)."""
        pause = min(self._backoff_s(round_no), max(0.0, deadline - time.monotonic()))
        self.board.enter()
        try:
            await asyncio.wait_for(self._recovered.wait(), timeout=pause)
        except TimeoutError:
            pass
        finally:
            self.board.leave()

"""Several replicas serving one model (e.g. one `vllm serve` per GPU) as one client.

Policy:
* each endpoint has at most `max_concurrency` calls in flight; callers beyond that queue,
  first come first served, and a freed slot is handed straight to the oldest waiter;
* a call goes to the healthy endpoint with the fewest calls in flight, ties round-robin;
* an endpoint whose call fails with a lost connection, a timeout, a 5xx or a 429 is set
  aside for `cooldown_s` (its Retry-After, when shorter), then tried again; the failed
  call is sent once more, preferably elsewhere, before its error reaches the retry layer;
* other 4xx say the request is wrong, not the endpoint: they surface untouched;
* when every endpoint is set aside, a call waits for the earliest to come back, but never
  past `wait_timeout_s` from its start: then `NoHealthyEndpointError` (a ConnectionError,
  so RetryingClient backs off and tries again).
"""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace

import openai
from autogen_core.models import ChatCompletionClient, CreateResult, RequestUsage

from macrs_sim.llm.base import CreateRequest, WrappingClient
from macrs_sim.llm.retry import is_transient, retry_after_s

Call = Callable[[ChatCompletionClient], Awaitable[CreateResult]]


class NoHealthyEndpointError(ConnectionError):
    """Every endpoint of the pool is set aside for longer than a call may wait."""


@dataclass(eq=False)  # identity: two endpoints may look alike
class EndpointStats:
    url: str
    calls: int = 0  # attempts sent here
    failures: int = 0  # endpoint faults among them
    in_flight: int = 0
    max_in_flight: int = 0
    cooldowns: int = 0
    down_until: float = 0.0  # time.monotonic() when it may be tried again


@dataclass
class _Waiter:
    slot: asyncio.Future[EndpointStats]
    avoid: EndpointStats | None


class EndpointPool(WrappingClient):
    """`inner` is the first endpoint's client: it answers token counts and model info."""

    def __init__(
        self,
        clients: Sequence[tuple[str, ChatCompletionClient]],
        *,
        max_concurrency: int,
        cooldown_s: float,
        wait_timeout_s: float = 60.0,
    ) -> None:
        if not clients:
            raise ValueError("an endpoint pool needs at least one endpoint")
        super().__init__(clients[0][1])
        self._stats = [EndpointStats(url) for url, _ in clients]
        self._clients = {id(s): c for s, (_, c) in zip(self._stats, clients, strict=True)}
        self.max_concurrency = max_concurrency
        self.cooldown_s = cooldown_s
        self.wait_timeout_s = wait_timeout_s
        self._waiters: deque[_Waiter] = deque()
        self._next = 0  # round-robin start for ties

    def stats(self) -> list[EndpointStats]:
        """A snapshot per endpoint, in configuration order."""
        return [replace(s) for s in self._stats]

    async def _handle(self, request: CreateRequest) -> CreateResult:
        call = request.send
        deadline = time.monotonic() + self.wait_timeout_s
        first = await self._acquire(deadline, avoid=None)
        try:
            return await self._attempt(first, call)
        except Exception as err:
            # An endpoint fault is what the retry layer would retry (see the module doc).
            if not is_transient(err) or len(self._stats) == 1:
                raise
            failure = err
        try:
            second = await self._acquire(deadline, avoid=first)
        except NoHealthyEndpointError:
            raise failure from None  # the endpoint's own error says more
        return await self._attempt(second, call)

    async def _attempt(self, ep: EndpointStats, call: Call) -> CreateResult:
        ep.calls += 1
        try:
            return await call(self._clients[id(ep)])
        except Exception as err:
            if is_transient(err):
                self._set_aside(ep, err)
            raise
        finally:
            ep.in_flight -= 1
            self._dispatch()

    def _set_aside(self, ep: EndpointStats, err: Exception) -> None:
        ep.failures += 1
        pause = self.cooldown_s
        asked = retry_after_s(err) if isinstance(err, openai.APIStatusError) else None
        if asked is not None:  # a 429's (or 503's) Retry-After, when shorter
            pause = min(pause, max(0.0, asked))
        if pause <= 0:
            return
        ep.cooldowns += 1
        ep.down_until = max(ep.down_until, time.monotonic() + pause)
        # Waiters queued while this endpoint was away get its slots when it comes back
        # (1 ms late: the loop may run a timer a hair early, when it would still be away).
        asyncio.get_running_loop().call_later(pause + 0.001, self._dispatch)

    async def _acquire(self, deadline: float, avoid: EndpointStats | None) -> EndpointStats:
        """A slot on some endpoint; queue behind earlier callers when none is free."""
        waiter = _Waiter(asyncio.get_running_loop().create_future(), avoid)
        self._waiters.append(waiter)
        self._dispatch()
        if not waiter.slot.done():
            limit = self._wait_limit_s(deadline)
            try:
                await asyncio.wait((waiter.slot,), timeout=limit)
            except BaseException:  # cancelled: leave the queue, give back a slot just handed
                if waiter.slot.done():
                    waiter.slot.result().in_flight -= 1
                    self._dispatch()
                waiter.slot.cancel()
                raise
        if not waiter.slot.done():
            waiter.slot.cancel()  # _dispatch skips it
            raise NoHealthyEndpointError(self._all_down_message())
        return waiter.slot.result()

    def _wait_limit_s(self, deadline: float) -> float | None:
        """No limit while some endpoint is healthy (just busy); else until the deadline,
        or not at all when even the earliest comes back after it."""
        now = time.monotonic()
        earliest = min(s.down_until for s in self._stats)
        if earliest <= now:
            return None
        return 0.0 if earliest > deadline else deadline - now

    def _dispatch(self) -> None:
        """Hand free slots of healthy endpoints to waiters, oldest first."""
        while self._waiters:
            head = self._waiters[0]
            if head.slot.done():  # gave up waiting
                self._waiters.popleft()
                continue
            ep = self._pick(head.avoid)
            if ep is None:
                return
            self._waiters.popleft()
            ep.in_flight += 1
            ep.max_in_flight = max(ep.max_in_flight, ep.in_flight)
            head.slot.set_result(ep)

    def _pick(self, avoid: EndpointStats | None) -> EndpointStats | None:
        now = time.monotonic()
        free = [
            s for s in self._stats if s.down_until <= now and s.in_flight < self.max_concurrency
        ]
        if avoid in free and len(free) > 1:  # a re-sent call goes elsewhere when it can
            free.remove(avoid)
        if not free:
            return None
        least = min(s.in_flight for s in free)
        n = len(self._stats)
        for i in range(n):
            index = (self._next + i) % n
            ep = self._stats[index]
            if ep.in_flight == least and ep in free:
                self._next = index + 1
                return ep
        return None  # unreachable: `free` is non-empty

    def _all_down_message(self) -> str:
        now = time.monotonic()
        parts = [f"{s.url} (away {max(0.0, s.down_until - now):.1f} s more)" for s in self._stats]
        limit = f"{self.wait_timeout_s:g} s"
        return f"no endpoint could take the call within {limit}: " + ", ".join(parts)

    async def close(self) -> None:
        for client in self._clients.values():
            await client.close()

    def actual_usage(self) -> RequestUsage:
        return _sum([c.actual_usage() for c in self._clients.values()])

    def total_usage(self) -> RequestUsage:
        return _sum([c.total_usage() for c in self._clients.values()])


def _sum(usages: list[RequestUsage]) -> RequestUsage:
    return RequestUsage(
        prompt_tokens=sum(u.prompt_tokens for u in usages),
        completion_tokens=sum(u.completion_tokens for u in usages),
    )

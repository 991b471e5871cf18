"""Timeouts for many calls in flight on one timer.

aiohttp's per-read timeout (`sock_read`) arms a timer when a request is sent and re-arms it
on every chunk received: two `call_later`s and two cancelled handles in the loop's heap
per call, 5-8 % of the lean client's CPU at 200 calls in flight. Here a call only notes
its task and deadline; one timer wakes every so often while calls are in flight and
cancels those past their deadline, which then raise TimeoutError as in `asyncio.timeout`
(a cancellation from anyone else stays a CancelledError).

A call times out between `seconds` and `seconds + resolution` after it began: a tenth of
the shortest timeout in flight, at least 10 ms and at most `max_resolution_s`.
"""

from __future__ import annotations

import asyncio
import math
from types import TracebackType


class Deadlines:
    """`with deadlines.within(seconds):` around the awaits of one call, in a task."""

    def __init__(self, max_resolution_s: float = 1.0) -> None:
        self.max_resolution_s = max_resolution_s
        self._timer: _LoopTimer | None = None

    def within(self, seconds: float) -> Deadline:
        loop = asyncio.get_running_loop()
        timer = self._timer
        if timer is None or timer.loop is not loop:  # a client may outlive its loop
            timer = self._timer = _LoopTimer(loop, self.max_resolution_s)
        task = asyncio.current_task(loop)
        if task is None:
            raise RuntimeError("a deadline needs a task to cancel")
        return Deadline(timer, task, seconds)


class Deadline:
    __slots__ = ("cancelling", "expired", "seconds", "task", "timer", "when")

    def __init__(self, timer: _LoopTimer, task: asyncio.Task[object], seconds: float) -> None:
        self.timer = timer
        self.task = task
        self.seconds = seconds
        self.when = 0.0
        self.cancelling = 0
        self.expired = False

    def __enter__(self) -> None:
        self.when = self.timer.loop.time() + self.seconds
        self.cancelling = self.task.cancelling()
        self.timer.add(self)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.timer.remove(self)
        # asyncio.timeout's rule: the sweep's cancel is always taken back (a block that
        # caught it and raised something else must not leave the task "cancelling"); a
        # TimeoutError only if the block ends in that cancellation and no other is pending.
        uncancelled = self.expired and self.task.uncancel() <= self.cancelling
        if uncancelled and exc_type is asyncio.CancelledError:
            raise TimeoutError from exc


class _LoopTimer:
    """The calls in flight on one loop, by timeout: within one timeout, deadlines come in
    the order the calls began, so a sweep stops at the first one not yet due."""

    def __init__(self, loop: asyncio.AbstractEventLoop, max_resolution_s: float) -> None:
        self.loop = loop
        self.max_resolution_s = max_resolution_s
        self.by_seconds: dict[float, dict[Deadline, None]] = {}
        self.handle: asyncio.TimerHandle | None = None
        self.resolution_s = math.inf  # the finest the timeouts in flight need

    def add(self, call: Deadline) -> None:
        calls = self.by_seconds.get(call.seconds)
        if calls is None:  # a timeout not in flight yet: may need finer sweeps
            calls = self.by_seconds[call.seconds] = {}
            finer = self._resolution(call.seconds)
            if finer < self.resolution_s and self.handle is not None:
                self.handle.cancel()
                self.handle = None
            self.resolution_s = min(self.resolution_s, finer)
        calls[call] = None
        if self.handle is None:
            self.handle = self.loop.call_later(self.resolution_s, self.sweep)

    def remove(self, call: Deadline) -> None:
        calls = self.by_seconds.get(call.seconds)
        if calls is not None:
            calls.pop(call, None)

    def sweep(self) -> None:
        now = self.loop.time()
        for calls in self.by_seconds.values():
            while calls:
                call = next(iter(calls))
                if call.when > now:
                    break
                del calls[call]
                call.expired = True
                call.task.cancel()
        for seconds in [s for s, calls in self.by_seconds.items() if not calls]:
            del self.by_seconds[seconds]
        self.resolution_s = min(map(self._resolution, self.by_seconds), default=math.inf)
        self.handle = None
        if self.by_seconds:
            self.handle = self.loop.call_later(self.resolution_s, self.sweep)

    def _resolution(self, seconds: float) -> float:
        return min(self.max_resolution_s, max(0.01, seconds / 10))

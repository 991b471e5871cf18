"""The lean client's shared deadline timer: a late call raises TimeoutError within one
resolution of its deadline, anyone else's cancellation stays a cancellation, and the timer
stops when no call is in flight."""

from __future__ import annotations

import asyncio

import pytest

from macrs_sim.llm.lean.deadlines import Deadlines


async def _sleep_within(deadlines: Deadlines, timeout_s: float, sleep_s: float) -> float:
    """How long the call ran before its TimeoutError (or its sleep ended)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    with deadlines.within(timeout_s):
        await asyncio.sleep(sleep_s)
    return loop.time() - start


async def test_a_late_call_times_out_within_one_resolution() -> None:
    deadlines = Deadlines()
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(TimeoutError):
        await _sleep_within(deadlines, 0.2, 5.0)
    assert 0.2 <= loop.time() - start < 0.2 + 0.02 + 0.1  # a tenth later, + slack
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0  # the sweep's cancel was taken back


async def test_a_call_in_time_is_untouched_and_the_timer_stops() -> None:
    deadlines = Deadlines()
    assert await _sleep_within(deadlines, 1.0, 0.05) >= 0.05
    timer = deadlines._timer
    assert timer is not None and timer.handle is not None  # still armed: due a sweep
    await asyncio.sleep(0.05)
    assert timer.handle is None and timer.by_seconds == {}  # nothing in flight: stopped


async def test_someone_elses_cancellation_stays_a_cancellation() -> None:
    deadlines = Deadlines()
    call = asyncio.ensure_future(_sleep_within(deadlines, 10.0, 5.0))
    await asyncio.sleep(0.05)
    call.cancel()
    with pytest.raises(asyncio.CancelledError):
        await call


async def test_a_short_timeout_begun_later_is_not_held_up_by_a_long_one() -> None:
    deadlines = Deadlines()
    long = asyncio.ensure_future(_sleep_within(deadlines, 10.0, 0.5))
    await asyncio.sleep(0.01)
    with pytest.raises(TimeoutError):
        await _sleep_within(deadlines, 0.1, 5.0)
    assert not long.done()  # within its own deadline
    assert await long >= 0.5


async def test_calls_of_one_timeout_expire_in_order_and_only_when_due() -> None:
    deadlines = Deadlines()
    first = asyncio.ensure_future(_sleep_within(deadlines, 0.5, 5.0))
    await asyncio.sleep(0.25)
    second = asyncio.ensure_future(_sleep_within(deadlines, 0.5, 5.0))
    await asyncio.wait([first], timeout=2.0)
    assert isinstance(first.exception(), TimeoutError)
    assert not second.done()  # due 0.25 s later: the sweep stops at it
    await asyncio.wait([second], timeout=2.0)
    assert isinstance(second.exception(), TimeoutError)


async def test_a_block_that_turns_the_sweeps_cancel_into_another_error_is_uncancelled() -> None:
    deadlines = Deadlines()
    with pytest.raises(ConnectionResetError), deadlines.within(0.05):
        try:
            await asyncio.sleep(1.0)
        except asyncio.CancelledError:
            raise ConnectionResetError from None  # as a transport might
    task = asyncio.current_task()
    assert task is not None and task.cancelling() == 0  # as asyncio.timeout leaves it


def test_one_deadlines_serves_a_loop_after_another() -> None:
    deadlines = Deadlines()
    for _ in range(2):  # each asyncio.run is a new loop: the timer follows it
        with pytest.raises(TimeoutError):
            asyncio.run(_sleep_within(deadlines, 0.05, 1.0))


async def test_a_short_timeout_joining_long_ones_gets_its_finer_sweeps() -> None:
    deadlines = Deadlines(max_resolution_s=1.0)
    long = asyncio.ensure_future(_sleep_within(deadlines, 30.0, 0.6))  # swept each 1 s
    await asyncio.sleep(0.01)
    loop = asyncio.get_running_loop()
    start = loop.time()
    with pytest.raises(TimeoutError):
        await _sleep_within(deadlines, 0.1, 5.0)
    assert loop.time() - start < 0.1 + 0.01 + 0.1  # not at the long one's 1 s sweep
    assert await long >= 0.6

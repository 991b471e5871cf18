"""The event loop a campaign runs on: uvloop where it is installed, asyncio's own otherwise.

Why: with the lean client, a third of the client's CPU per LLM call is the event loop and
its socket transports (epoll, handles, write buffers). uvloop does that part in libuv:
at 200 dialogues in flight over HTTP it measured 0.36 ms of CPU per call against
0.41-0.50 ms on asyncio's loop (benchmarks/bench_client_cpu.py). The loop changes no
result, only what a call costs; `campaign.event_loop = "asyncio"` keeps the standard one.
uvloop has no Windows build, so there "auto" is asyncio.
"""

from __future__ import annotations

import asyncio
import importlib.util
from collections.abc import Callable, Coroutine
from typing import Any, Literal, TypeVar

from macrs_sim.config import EventLoopChoice
from macrs_sim.errors import ConfigError

T = TypeVar("T")


def uvloop_installed() -> bool:
    return importlib.util.find_spec("uvloop") is not None


def loop_factory(choice: EventLoopChoice) -> Callable[[], asyncio.AbstractEventLoop] | None:
    """The factory for `choice` (None: asyncio's default loop)."""
    if choice == "asyncio" or (choice == "auto" and not uvloop_installed()):
        return None
    if not uvloop_installed():
        raise ConfigError(
            "campaign.event_loop = 'uvloop', but uvloop is not installed "
            "(pip install uvloop, or use 'auto' or 'asyncio')"
        )
    import uvloop

    return uvloop.new_event_loop


def resolved(choice: EventLoopChoice) -> Literal["uvloop", "asyncio"]:
    """The loop `choice` runs on here."""
    return "asyncio" if loop_factory(choice) is None else "uvloop"


def run_async(coro: Coroutine[Any, Any, T], choice: EventLoopChoice = "auto") -> T:
    """asyncio.run on the chosen loop (a bad choice closes `coro` unstarted)."""
    try:
        factory = loop_factory(choice)
    except ConfigError:
        coro.close()
        raise
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(coro)

"""What the terminal shows besides the progress bars: an outage, and no stray tracebacks."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterator
from typing import Any

from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.llm.breaker import OUTAGES, OutageBoard

log = logging.getLogger(__name__)
POLL_S = 0.25


def outage_line(board: OutageBoard) -> str | None:
    if board.waiting == 0 or board.since is None:
        return None
    away = time.monotonic() - board.since
    return f"waiting for the server: {board.waiting} calls waiting ({away:.0f} s)"


class _Watcher:
    def __init__(self, bar: CampaignProgress, notify: Callable[[str], None], board: OutageBoard):
        self.bar, self.notify, self.board = bar, notify, board
        self.shown = False  # an outage is on the terminal now

    def poll(self) -> None:
        line = outage_line(self.board)
        self.bar.set_status(line)
        if not self.bar.enabled and (line is not None) != self.shown:
            # Without bars: one line when an outage begins, one when it ends.
            self.notify(
                "waiting for the server (calls fail on every endpoint); dialogues pause"
                if line is not None
                else "the server answers again; dialogues go on"
            )
        self.shown = line is not None

    async def run(self) -> None:
        while True:
            self.poll()
            await asyncio.sleep(POLL_S)


@contextlib.contextmanager
def watching_outages(
    bar: CampaignProgress, notify: Callable[[str], None], board: OutageBoard = OUTAGES
) -> Iterator[None]:
    """While inside, the status line (or one line each way, without bars) says when calls
    wait for a server that went away."""
    watcher = _Watcher(bar, notify, board)
    task = asyncio.get_running_loop().create_task(watcher.run())
    try:
        yield
    finally:
        task.cancel()
        watcher.poll()  # an outage that ended since the last look is told as over
        bar.set_status(None)


def _to_log(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    log.debug("%s", context.get("message"), exc_info=context.get("exception"))


@contextlib.contextmanager
def quiet_task_errors() -> Iterator[None]:
    """Errors of tasks nobody awaits (autogen-core's, when a dialogue's agents are torn
    down mid-message) go to the debug log: the dialogue already records its own cause."""
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    loop.set_exception_handler(_to_log)
    try:
        yield
    finally:
        if loop.get_exception_handler() is _to_log:  # not replaced since (a Ctrl-C abort)
            loop.set_exception_handler(previous)

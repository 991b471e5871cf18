"""Stopping a campaign early so that it can be resumed: Ctrl-C and the budget.

Ctrl-C once: no new dialogue starts, those in flight run to their end (model
calls are bounded by their own timeouts and retries) and are stored; work kept
only whole, such as preparing the samples or judging, is cancelled. Ctrl-C
twice: everything in flight is cancelled at once and not stored. Either way the
run stays unfinished, so the same command resumes it.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from collections.abc import Awaitable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TypeVar

from macrs_sim.llm.pricing import Spend

T = TypeVar("T")
log = logging.getLogger(__name__)


def _log_quietly(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    log.debug("after abort: %s", context.get("message"), exc_info=context.get("exception"))


class CampaignInterrupted(Exception):
    """Ctrl-C ended the campaign; what finished is stored and the run can be resumed."""

    def __init__(self, run_dir: Path, stored: int, expected: int) -> None:
        super().__init__(
            f"interrupted: {stored} of {expected} dialogues stored;"
            f" run the same command again to resume ({run_dir})"
        )
        self.run_dir, self.stored, self.expected = run_dir, stored, expected


class StopControl:
    """`should_stop` for executors: True after a first Ctrl-C or once the budget is spent."""

    def __init__(self, spend: Spend) -> None:
        self.spend = spend
        self.interrupted = False
        self.aborted = False
        self._event = asyncio.Event()
        self._task: asyncio.Task[object] | None = None

    def should_stop(self) -> bool:
        return self.interrupted or self.spend.reached

    @contextmanager
    def handling_sigint(self) -> Iterator[None]:
        """Ctrl-C as above while inside (outside the main thread: a plain KeyboardInterrupt)."""
        loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()
        previous = signal.getsignal(signal.SIGINT)
        try:
            loop.add_signal_handler(signal.SIGINT, self._on_sigint)
        except (NotImplementedError, RuntimeError, ValueError):
            # No loop signal handlers here (not the main thread, or Windows): Ctrl-C arrives
            # as a plain KeyboardInterrupt, which the CLI already turns into one line.
            yield
            return
        try:
            yield
        finally:
            loop.remove_signal_handler(signal.SIGINT)
            if previous is not None:  # None: set outside Python, nothing to restore
                # asyncio would leave Python's default; a host's own (a notebook's) comes back.
                signal.signal(signal.SIGINT, previous)

    def _on_sigint(self) -> None:
        if self.interrupted:
            self.aborted = True
            # Agent runtimes torn down mid-message fail noisily as their tasks are cancelled
            # (autogen-core); the user asked to abort, so those go to the log, not the screen.
            asyncio.get_running_loop().set_exception_handler(_log_quietly)
            if self._task is not None:
                self._task.cancel()
            return
        self.interrupted = True
        self._event.set()
        print(
            "stopping: no new dialogues; waiting for those in flight (Ctrl-C again aborts them)",
            file=sys.stderr,
        )

    async def race(self, work: Awaitable[T]) -> T | None:
        """`work`'s result, or None when a Ctrl-C comes first (the work is then cancelled)."""
        task = asyncio.ensure_future(work)
        waiter = asyncio.ensure_future(self._event.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            if not task.done():
                task.cancel()
                with suppress(asyncio.CancelledError):
                    await task
        return None if task.cancelled() else task.result()

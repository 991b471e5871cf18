"""Progress bars for long work (rich), or nothing when disabled (tests, benchmarks)."""

from __future__ import annotations

from collections.abc import Iterable
from types import TracebackType

from rich.console import RenderableType
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.text import Text


class _StatusProgress(Progress):
    """The bars, then one status line when there is news (not a bar: it has no total)."""

    status: str | None = None

    def get_renderables(self) -> Iterable[RenderableType]:
        yield self.make_tasks_table(self.tasks)
        if self.status:
            yield Text(self.status, style="yellow")


class CampaignProgress:
    def __init__(self, *, enabled: bool) -> None:
        self._progress: _StatusProgress | None = None
        if enabled:
            self._progress = _StatusProgress(
                TextColumn("{task.description:<20}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[successes]} successes"),
                TimeElapsedColumn(),
                TextColumn("eta"),
                # rich's estimate from the recent pace: a 100,000-dialogue run says when it ends.
                TimeRemainingColumn(),
            )
        self._successes: dict[int, int] = {}

    @property
    def enabled(self) -> bool:
        return self._progress is not None

    def set_status(self, text: str | None) -> None:
        """A line under the bars (e.g. an outage); None removes it."""
        if self._progress is not None:
            self._progress.status = text

    def __enter__(self) -> CampaignProgress:
        if self._progress is not None:
            self._progress.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._progress is not None:
            self._progress.stop()

    def add(self, description: str, total: int) -> int:
        if self._progress is None:
            return len(self._successes) + 1
        task = int(self._progress.add_task(description, total=total, successes=0))
        self._successes[task] = 0
        return task

    def advance(self, task: int, n: int = 1, *, success: bool = False) -> None:
        if self._progress is None:
            return
        self._successes[task] = self._successes.get(task, 0) + int(success)
        self._progress.update(task, advance=n, successes=self._successes[task])  # type: ignore[arg-type]

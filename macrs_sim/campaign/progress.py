"""Progress bars for long work (rich), or nothing when disabled (tests, benchmarks)."""

from __future__ import annotations

from types import TracebackType

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class CampaignProgress:
    def __init__(self, *, enabled: bool) -> None:
        self._progress: Progress | None = None
        if enabled:
            self._progress = Progress(
                TextColumn("{task.description:<20}"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn("{task.fields[successes]} successes"),
                TimeElapsedColumn(),
            )
        self._successes: dict[int, int] = {}
        self._status: int | None = None  # the status line's task, made on first use
        self._status_text: str | None = None

    @property
    def enabled(self) -> bool:
        return self._progress is not None

    def set_status(self, text: str | None) -> None:
        """A line under the bars (e.g. an outage); None hides it."""
        if self._progress is None or text == self._status_text:
            return
        self._status_text = text
        if self._status is None:
            self._status = int(self._progress.add_task("", total=None, successes=0))
        visible = text is not None
        self._progress.update(self._status, description=text or "", visible=visible)  # type: ignore[arg-type]

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

"""The campaign's progress bar says when the run will end (issue 28: 100,000 dialogues)."""

from __future__ import annotations

import io
import re

from rich.console import Console

from macrs_sim.campaign.progress import CampaignProgress


def _render(progress: CampaignProgress) -> str:
    bars = progress._progress
    assert bars is not None
    console = Console(file=io.StringIO(), width=160, color_system=None)
    console.print(bars.make_tasks_table(bars.tasks))
    return console.file.getvalue()  # type: ignore[attr-defined]


def test_bar_shows_an_eta_once_dialogues_finish() -> None:
    progress = CampaignProgress(enabled=True)
    task = progress.add("MACRS", total=100)
    before = _render(progress)
    assert re.search(r"0/100 .*eta -:--:--", before), before
    for _ in range(10):
        progress.advance(task)
    after = _render(progress)
    assert re.search(r"10/100 .*eta \d+:\d\d:\d\d", after), after


def test_disabled_progress_draws_nothing() -> None:
    progress = CampaignProgress(enabled=False)
    assert not progress.enabled
    assert progress.add("MACRS", total=3) is not None

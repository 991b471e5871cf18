"""RecMind's offline tasks and prompting modes (paper §4): plain constants, so the command
line can list them without loading the evaluation."""

from __future__ import annotations

from typing import Literal

Task = Literal["rating", "direct", "sequential", "explanation", "summary"]
Prompting = Literal["zero-shot", "few-shot"]
TASKS: tuple[Task, ...] = ("rating", "direct", "sequential", "explanation", "summary")
PROMPTINGS: tuple[Prompting, ...] = ("zero-shot", "few-shot")
RANKING_TASKS: frozenset[str] = frozenset({"direct", "sequential"})

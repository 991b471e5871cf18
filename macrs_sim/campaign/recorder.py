"""The executors' `on_done`: store each dialogue, count its cost, move the progress bar.

A dialogue an outage cut short (`Unfinished`) is not stored: only its calls are
(they were paid for; its tool calls with them), not tied to a dialogue, so the same
command runs it again.
The first write the store refuses (disk full, I/O error) stops new dialogues: every
one computed after it would be lost, and with a paid API, wasted money.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping, Sequence

from macrs_sim.campaign.dialogue import describe_error
from macrs_sim.campaign.executor import Unfinished
from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.llm.pricing import Spend
from macrs_sim.protocol import DialogueResult, LLMCallRecord, ToolCallRecord
from macrs_sim.store import RunStore


class Recorder:
    def __init__(
        self,
        store: RunStore,
        spend: Spend,
        bar: CampaignProgress,
        in_flight: Callable[[], Mapping[str, str]] = dict,
    ) -> None:
        self.store, self.spend, self.bar = store, spend, bar
        # Meta keys written with each dialogue: the usage of those still in flight.
        self.in_flight = in_flight
        self.bar_tasks: dict[str, int] = {}
        self.unfinished: list[Unfinished] = []
        self.store_failure: str | None = None  # the first refused write
        self.lost = 0  # dialogues computed but not stored since

    def track(self, systems: Sequence[str], n_samples: int, done: Mapping[str, int]) -> None:
        """A bar per system, advanced by its dialogues `done` (stored before)."""
        for name in systems:
            self.bar_tasks[name] = task = self.bar.add(name, n_samples)
            self.bar.advance(task, done.get(name, 0))

    def __call__(
        self,
        result: DialogueResult | Unfinished,
        calls: list[LLMCallRecord],
        tool_calls: list[ToolCallRecord],
    ) -> None:
        if self.store_failure is not None:
            self.lost += 1
            return
        self.spend.add(calls)
        try:
            if isinstance(result, Unfinished):
                self.unfinished.append(result)
                detached = [c.model_copy(update={"dialogue_id": None}) for c in calls]
                tools = [t.model_copy(update={"dialogue_id": None}) for t in tool_calls]
                self.store.write_calls(detached, self.in_flight(), tools)
                return
            self.store.write_dialogue(result, calls, self.in_flight(), tool_calls)
        except sqlite3.OperationalError as err:  # the file, not the record: stop here
            self.store_failure = describe_error(err)
            self.lost += 1
            return
        if result.system in self.bar_tasks:
            self.bar.advance(self.bar_tasks[result.system], success=result.status == "success")

    def should_stop(self) -> bool:
        return self.store_failure is not None

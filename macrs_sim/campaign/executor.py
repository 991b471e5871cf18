"""How a campaign's dialogues get run: the contract between the runner and its executors.

The runner (driver) owns the run store. An executor runs `DialogueJob`s wherever
it likes (this process, Ray actors) and hands each finished dialogue back through
`on_done` with its model and tool calls, which writes them to the store;
`should_stop` is asked before each new dialogue starts (budget reached, Ctrl-C),
and an executor stops starting new ones once it says True, letting those in
flight finish.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

from macrs_sim.config import Scenario
from macrs_sim.llm.scripted import Rule
from macrs_sim.protocol import DialogueResult, LLMCallRecord, Sample, ToolCallRecord


@dataclass(frozen=True)
class DialogueJob:
    system: str  # a SystemConfig name of the scenario
    sample: Sample

    @property
    def dialogue_id(self) -> str:
        return f"{self.system}:{self.sample.sample_id}"


@dataclass(frozen=True)
class Unfinished:
    """A dialogue an endpoint outage cut short: not a result; the same command runs it again."""

    dialogue_id: str
    system: str
    cause: str


OnDone = Callable[[DialogueResult | Unfinished, list[LLMCallRecord], list[ToolCallRecord]], None]
ShouldStop = Callable[[], bool]


class Executor(Protocol):
    async def run(
        self,
        scenario: Scenario,
        jobs: Sequence[DialogueJob],
        on_done: OnDone,
        should_stop: ShouldStop,
        *,
        scripted_rules: Mapping[str, Rule] | None = None,
    ) -> None: ...

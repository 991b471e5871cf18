"""How a campaign's dialogues get run: the contract between the runner and its executors.

The runner (driver) owns the run store. An executor runs `DialogueJob`s wherever
it likes (this process, Ray actors) and hands each finished dialogue back through
`on_done` with its model and tool calls, which writes them to the store;
`should_stop` is asked before each new dialogue starts (budget reached, Ctrl-C),
and an executor stops starting new ones once it says True, letting those in
flight finish. `jobs` is iterated once, a job taken as its dialogue starts (a
campaign's jobs read their samples from the store then: campaign.stored_jobs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
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


class Jobs(Protocol):
    """The jobs to run (a list, or a campaign's StoredJobs): how many, and each once."""

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[DialogueJob]: ...


class Executor(Protocol):
    async def run(
        self,
        scenario: Scenario,
        jobs: Jobs,
        on_done: OnDone,
        should_stop: ShouldStop,
        *,
        scripted_rules: Mapping[str, Rule] | None = None,
    ) -> None: ...

"""The local executor: this process, one asyncio loop, `campaign.concurrency` dialogues at once.

`concurrency` workers pull jobs from one iterator, so only the dialogues in
flight exist at any time: a finished dialogue is handed to `on_done` and
dropped, and memory does not grow with the campaign.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Iterator, Mapping, Sequence

from macrs_sim.campaign.dialogue import describe_error, run_dialogue
from macrs_sim.campaign.executor import DialogueJob, OnDone, ShouldStop
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.config import Scenario
from macrs_sim.llm.scripted import Rule
from macrs_sim.protocol import DialogueResult, UserTurn

log = logging.getLogger(__name__)


def error_result(job: DialogueJob, max_turns: int, err: BaseException) -> DialogueResult:
    """A dialogue that failed outside `run_dialogue`, recorded with its cause."""
    return DialogueResult(
        dialogue_id=job.dialogue_id,
        system=job.system,
        sample_id=job.sample.sample_id,
        target_id=job.sample.target_id,
        status="error",
        max_turns=max_turns,
        opening=UserTurn(text=job.sample.opening),
        error=describe_error(err),
    )


class LocalExecutor:
    def __init__(self, setup: CampaignSetup) -> None:
        self.setup = setup
        self._configs = {s.name: s for s in setup.scenario.systems}

    async def run(
        self,
        scenario: Scenario,
        jobs: Sequence[DialogueJob],
        on_done: OnDone,
        should_stop: ShouldStop,
        *,
        scripted_rules: Mapping[str, Rule] | None = None,
    ) -> None:
        """Run `jobs` with the setup's clients (`scenario` and `scripted_rules` are the
        setup's own here; executors that build their setups elsewhere need them)."""
        pending = iter(jobs)
        workers = min(scenario.campaign.concurrency, len(jobs))
        # Hundreds of dialogues in flight allocate many short-lived objects per call; with the
        # default thresholds the collector ran dozens of full passes and took half the CPU.
        thresholds = gc.get_threshold()
        gc.set_threshold(50_000, 20, 100)
        try:
            await asyncio.gather(
                *(self._worker(pending, on_done, should_stop) for _ in range(workers))
            )
        finally:
            gc.set_threshold(*thresholds)

    async def _worker(
        self, pending: Iterator[DialogueJob], on_done: OnDone, should_stop: ShouldStop
    ) -> None:
        # Asked before each start: a budget or Ctrl-C stops new dialogues, not running ones.
        while not should_stop():
            job = next(pending, None)
            if job is None:
                return
            await self._one(job, on_done)

    async def _one(self, job: DialogueJob, on_done: OnDone) -> None:
        max_turns = self.setup.scenario.protocol.max_turns
        try:
            result = await self._dialogue(job)
        except Exception as err:  # building the system or simulator: this dialogue only
            result = error_result(job, max_turns, err)
        finally:
            # Also when cancelled: a dialogue that is never stored must not leave records behind.
            calls = self.setup.log.pop(job.dialogue_id)
        try:
            on_done(result, calls)
        except Exception as err:  # e.g. a result the store cannot serialize
            try:
                on_done(error_result(job, max_turns, err), calls)
            except Exception as again:
                # Left unstored: the next run of the same command does it again.
                log.warning("dialogue %s not stored: %s", job.dialogue_id, describe_error(again))

    async def _dialogue(self, job: DialogueJob) -> DialogueResult:
        cfg = self._configs[job.system]
        system = self.setup.build_system(cfg, job.dialogue_id)
        try:
            simulator = self.setup.build_simulator(job.sample, job.dialogue_id, cfg.name)
        except Exception:
            await system.close()  # run_dialogue, which would close it, never starts
            raise
        return await run_dialogue(
            system,
            simulator,
            self.setup.grounder,
            dialogue_id=job.dialogue_id,
            sample=job.sample,
            protocol=self.setup.scenario.protocol,
        )

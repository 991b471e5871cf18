"""The local executor: this process, one asyncio loop, `campaign.concurrency` dialogues at once.

`concurrency` workers pull jobs from one iterator, so only the dialogues in
flight exist at any time: a finished dialogue is handed to `on_done` and
dropped, and memory does not grow with the campaign.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator, Mapping

from macrs_sim.campaign.executor import DialogueJob, Jobs, OnDone, ShouldStop
from macrs_sim.campaign.jobs import attempt_job, deliver, error_result

__all__ = ["LocalExecutor", "error_result"]  # error_result: its home was here first
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.config import Scenario
from macrs_sim.llm.scripted import Rule

# The collector's young-generation threshold per dialogue in flight (at least 50,000).
GC_YOUNG_PER_DIALOGUE = 1_000


class LocalExecutor:
    def __init__(self, setup: CampaignSetup) -> None:
        self.setup = setup

    async def run(
        self,
        scenario: Scenario,
        jobs: Jobs,
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
        # The young generation grows with the dialogues in flight (each holds its agents and
        # history): at 200 in flight, 50,000 meant 10 young passes per 400 dialogues, 6 % of
        # the client's CPU; 1,000 per dialogue in flight meant one.
        thresholds = gc.get_threshold()
        gc.set_threshold(max(50_000, GC_YOUNG_PER_DIALOGUE * workers), 20, 100)
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
            result = await attempt_job(self.setup, job)
        finally:
            # Also when cancelled: a dialogue that is never stored must not leave records behind.
            calls = self.setup.log.pop(job.dialogue_id)
            tool_calls = self.setup.tool_log.pop(job.dialogue_id)
        deliver(on_done, job, max_turns, result, calls, tool_calls)

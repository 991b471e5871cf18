"""One session of a run: what each invocation of the same command does to its run directory.

A new run prepares its samples; a resumed one reuses the samples in its store
(or prepares them again when it was killed before storing them). Dialogues
already stored are skipped; every other one starts from its beginning: a
dialogue is written in one transaction, so a half-done one was never stored.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from macrs_sim.campaign.executor import DialogueJob, Executor
from macrs_sim.campaign.judging import judge_campaign
from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.campaign.rundir import SAMPLES_FILE, STORE_FILE, open_run_store
from macrs_sim.campaign.sampling import prepare_samples, sample_set_header
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.campaign.stopping import CampaignInterrupted, StopControl
from macrs_sim.data.sample_set import write_sample_set
from macrs_sim.llm.pricing import Spend
from macrs_sim.llm.scripted import Rule
from macrs_sim.protocol import DialogueResult, LLMCallRecord, Sample
from macrs_sim.store import RunStore

# "incomplete": a dialogue could not be stored at all; the same command retries it.
RunStatus = Literal["finished", "stopped_budget", "incomplete"]


@dataclass(frozen=True)
class Outcome:
    status: RunStatus
    already_done: int  # dialogues stored by earlier sessions
    stored: int
    expected: int
    spend: Spend


class Recorder:
    """The executors' `on_done`: store the dialogue, count its cost, move the progress bar."""

    def __init__(self, store: RunStore, spend: Spend, bar: CampaignProgress) -> None:
        self.store, self.spend, self.bar = store, spend, bar
        self.bar_tasks: dict[str, int] = {}

    def track(self, systems: Sequence[str], n_samples: int, done: set[str]) -> None:
        for name in systems:
            self.bar_tasks[name] = task = self.bar.add(name, n_samples)
            self.bar.advance(task, sum(d.split(":", 1)[0] == name for d in done))

    def __call__(self, result: DialogueResult, calls: list[LLMCallRecord]) -> None:
        self.store.write_dialogue(result, calls)
        self.spend.add(calls)
        if result.system in self.bar_tasks:
            self.bar.advance(self.bar_tasks[result.system], success=result.status == "success")


class Session:
    def __init__(
        self,
        setup: CampaignSetup,
        run_dir: Path,
        resumed: bool,
        progress: bool,
        scripted_rules: Mapping[str, Rule] | None,
        notify: Callable[[str], None] | None = None,
    ) -> None:
        self.setup, self.run_dir, self.resumed = setup, run_dir, resumed
        self.progress, self.scripted_rules = progress, scripted_rules
        self.notify = notify or (lambda line: None)
        c = setup.scenario.campaign
        self.spend = Spend(c.prices, budget_tokens=c.budget_tokens, budget_usd=c.budget_usd)
        self.stop = StopControl(self.spend)
        self.expected = 0

    async def run(self, executor: Executor, drawn: list[Sample], *, prepared: bool) -> Outcome:
        with self.stop.handling_sigint():
            try:
                return await self._run(executor, drawn, prepared)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not self.stop.aborted or task is None:
                    raise
                task.uncancel()  # our own second Ctrl-C: reported like the first
                raise self._interrupted() from None

    async def _run(self, executor: Executor, drawn: list[Sample], prepared: bool) -> Outcome:
        sc = self.setup.scenario
        self.expected = len(sc.systems) * len(drawn)
        with open_run_store(self.run_dir, self.resumed) as store:
            store.set_meta("scenario_name", sc.name)
            store.set_meta("systems", json.dumps([s.name for s in sc.systems]))
            # "running" until the last dialogue is stored: reports can tell a partial run.
            store.set_meta("status", "running")
            with CampaignProgress(enabled=self.progress) as bar:
                samples = await self._samples(store, drawn, prepared, bar)
                self.expected = len(sc.systems) * len(samples)
                store.set_meta("expected_dialogues", str(self.expected))
                for model, prompt, completion in store.uncached_usage():
                    self.spend.add_usage(model, prompt, completion)  # earlier sessions count too
                done = self._already_done(store)
                recorder = Recorder(store, self.spend, bar)
                recorder.track([s.name for s in sc.systems], len(samples), done)
                jobs = [DialogueJob(s.name, x) for s in sc.systems for x in samples]
                jobs = [j for j in jobs if j.dialogue_id not in done]
                await executor.run(
                    sc, jobs, recorder, self.stop.should_stop, scripted_rules=self.scripted_rules
                )
            if self.stop.interrupted:
                raise self._interrupted()
            status = await self._finish(store)
            stored = store.counts()["dialogues"]
        return Outcome(status, len(done), stored, self.expected, self.spend)

    def _already_done(self, store: RunStore) -> set[str]:
        done = store.finished_dialogue_ids()
        if self.resumed:
            n = f"{len(done)} of {self.expected}"
            self.notify(f"resuming {self.run_dir}: {n} dialogues already stored")
        return done

    async def _samples(
        self, store: RunStore, drawn: list[Sample], prepared: bool, bar: CampaignProgress
    ) -> list[Sample]:
        samples = store.read_samples()
        if not samples:
            ready: list[Sample] | None = drawn
            if not prepared:
                ready = await self.stop.race(prepare_samples(self.setup, drawn, bar))
            if ready is None:
                raise self._interrupted()
            store.write_prepared(ready, self.setup.log.pop(None))
            samples = ready
        if not (self.run_dir / SAMPLES_FILE).exists():
            store.set_meta("dataset", self.setup.dataset.name)
            store.set_meta("dataset_fingerprint", self.setup.dataset.fingerprint)
            header = sample_set_header(self.setup, len(samples))
            write_sample_set(self.run_dir / SAMPLES_FILE, header, samples)
        return samples

    async def _finish(self, store: RunStore) -> RunStatus:
        """The run's status now; judging (when enabled) is part of finishing."""
        if store.counts()["dialogues"] < self.expected:
            status: RunStatus = "stopped_budget" if self.spend.reached else "incomplete"
            store.set_meta("status", "stopped_budget" if status == "stopped_budget" else "running")
            return status
        store.set_meta("prompt_sha256", json.dumps(self.setup.prompts.hashes()))
        if self.setup.scenario.judge.enabled:
            judged = await self.stop.race(judge_campaign(self.setup, self.run_dir))
            if judged is None:
                raise self._interrupted()
        store.set_meta("status", "finished")
        return "finished"

    def _interrupted(self) -> CampaignInterrupted:
        try:
            with RunStore.open(self.run_dir / STORE_FILE) as store:
                stored = store.counts()["dialogues"]
        except Exception:
            stored = 0
        return CampaignInterrupted(self.run_dir, stored, self.expected)

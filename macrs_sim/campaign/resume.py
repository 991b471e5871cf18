"""One session of a run: what each invocation of the same command does to its run directory.

A new run prepares its samples; a resumed one reuses the samples in its store
(or prepares them again when it was killed before storing them). Dialogues
already stored are skipped; every other one starts from its beginning: a
dialogue is written in one transaction, so a half-done one was never stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from macrs_sim.agents.registry import system_spec
from macrs_sim.analysis.runs.access import HISTORY_META, LAYOUT_META, LIMITS_META, limits_meta
from macrs_sim.analysis.runs.domain import DOMAIN_META
from macrs_sim.campaign.executor import Executor
from macrs_sim.campaign.judging import judge_campaign
from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.campaign.recorder import Recorder
from macrs_sim.campaign.rundir import SAMPLES_FILE, STORE_FILE, open_run_store
from macrs_sim.campaign.sample_source import SampleSource
from macrs_sim.campaign.sampling import sample_set_header
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.campaign.status_line import quiet_task_errors, watching_outages
from macrs_sim.campaign.stopping import CampaignInterrupted, StopControl
from macrs_sim.campaign.stored_jobs import StoredJobs
from macrs_sim.campaign.users import ready_samples
from macrs_sim.data.domain import MOVIES
from macrs_sim.data.sample_set import write_sample_set
from macrs_sim.errors import MacrsSimError
from macrs_sim.llm.pricing import Spend
from macrs_sim.llm.scripted import Rule
from macrs_sim.protocol import LLMCallRecord
from macrs_sim.store import RunStore

# "incomplete": some dialogues are not stored (an outage cut them short, or the store
# refused a write); the same command runs them again.
RunStatus = Literal["finished", "stopped_budget", "incomplete"]
# Meta key: the usage of calls a session made for dialogues not stored yet. A session
# killed mid-run leaves it behind, and the next one counts it against the budget.
IN_FLIGHT_KEY = "in_flight_usage"
IN_FLIGHT_EVERY_S = 0.25


class StoreWriteFailed(MacrsSimError):
    """The run store refused a write (disk full): no dialogue was started after it."""


@dataclass(frozen=True)
class Outcome:
    status: RunStatus
    already_done: int  # dialogues stored by earlier sessions
    stored: int
    expected: int
    spend: Spend
    unfinished: int = 0  # dialogues an outage cut short this session (not stored)


class Session:
    def __init__(
        self,
        setup: CampaignSetup,
        run_dir: Path,
        resumed: bool,
        progress: bool,
        scripted_rules: Mapping[str, Rule] | None,
        notify: Callable[[str], None] | None = None,
        retry_errors: bool = False,
    ) -> None:
        self.setup, self.run_dir, self.resumed = setup, run_dir, resumed
        self.progress, self.scripted_rules = progress, scripted_rules
        self.notify = notify or (lambda line: None)
        self.retry_errors = retry_errors
        c = setup.scenario.campaign
        self.spend = Spend(c.prices, budget_tokens=c.budget_tokens, budget_usd=c.budget_usd)
        self.stop = StopControl(self.spend)
        self.budgeted = c.budget_tokens is not None or c.budget_usd is not None
        self.expected = 0
        self._prep_calls: list[LLMCallRecord] = []

    async def run(self, executor: Executor, source: SampleSource) -> Outcome:
        with self.stop.handling_sigint(), quiet_task_errors():
            try:
                return await self._run(executor, source)
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if not self.stop.aborted or task is None:
                    raise
                task.uncancel()  # our own second Ctrl-C: reported like the first
                raise self._interrupted() from None

    async def _run(self, executor: Executor, source: SampleSource) -> Outcome:
        sc = self.setup.scenario
        self.expected = len(sc.systems) * source.count
        with open_run_store(self.run_dir, self.resumed) as store:
            self._start(store)
            with (
                CampaignProgress(enabled=self.progress) as bar,
                watching_outages(bar, self.notify),
                self._recording_in_flight(store),
            ):
                n_samples = await self._samples(store, source, bar)
                self.expected = len(sc.systems) * n_samples
                store.set_meta("expected_dialogues", str(self.expected))
                done = self._already_done(store)
                recorder = Recorder(store, self.spend, bar, self._in_flight_meta)
                recorder.track(
                    [s.name for s in sc.systems], n_samples, store.pages.dialogue_counts()
                )
                # Read from the store as each dialogue starts: no list of samples is held.
                jobs = StoredJobs(store, [s.name for s in sc.systems])
                await executor.run(
                    sc, jobs, recorder,
                    lambda: self.stop.should_stop() or recorder.should_stop(),
                    scripted_rules=self.scripted_rules,
                )  # fmt: skip
            if recorder.store_failure is not None:
                raise self._store_failed(recorder)
            if self.stop.interrupted:
                raise self._interrupted()
            status = await self._finish(store)
            stored = store.counts()["dialogues"]
        unfinished = len(recorder.unfinished)
        return Outcome(status, done, stored, self.expected, self.spend, unfinished)

    def _start(self, store: RunStore) -> None:
        sc = self.setup.scenario
        store.set_meta("scenario_name", sc.name)
        store.set_meta("systems", json.dumps([s.name for s in sc.systems]))
        # What the items are, so reports name them in the dataset's words; films' runs
        # say nothing, as before (analysis/runs/domain.py reads none as films).
        if (domain := self.setup.dataset.domain) != MOVIES:
            store.set_meta(DOMAIN_META, domain.name)
        # Who knew what (DESIGN.md §3): each system's history and the limits all shared.
        history = {s.name: system_spec(s.kind).history for s in sc.systems}
        store.set_meta(HISTORY_META, json.dumps(history))
        # Where each role's prompt put the dialogue (config.Scenario.layout_for).
        layouts = {s.name: sc.layout_for(sc.system_model(s)) for s in sc.systems}
        layouts["(simulator)"] = sc.layout_for(sc.simulator_model())
        store.set_meta(LAYOUT_META, json.dumps(layouts))
        p = sc.protocol
        store.set_meta(LIMITS_META, limits_meta(p.max_turns, p.final_list_k, p.max_items_per_turn))
        # "running" until the last dialogue is stored: reports can tell a partial run.
        store.set_meta("status", "running")
        if self.retry_errors:
            n = store.delete_error_dialogues()
            self.notify(f"retrying {n} dialogues stored as errors in {self.run_dir}")
        store.settle_in_flight(IN_FLIGHT_KEY)  # calls of dialogues a killed session ran
        for model, prompt, completion in store.uncached_usage():
            self.spend.add_usage(model, prompt, completion)  # earlier sessions count too

    def _in_flight_meta(self) -> dict[str, str]:
        """Uncached usage of the calls not stored yet (dialogues in flight), per model;
        only with a budget, which is what it is for."""
        if not self.budgeted:
            return {}
        usage: dict[str, list[int]] = {}
        for rec in self.setup.log.all():
            if not rec.cached:
                tokens = usage.setdefault(rec.model, [0, 0])
                tokens[0] += rec.prompt_tokens
                tokens[1] += rec.completion_tokens
        return {IN_FLIGHT_KEY: json.dumps(usage)}

    @contextlib.contextmanager
    def _recording_in_flight(self, store: RunStore) -> Iterator[None]:
        """Also every IN_FLIGHT_EVERY_S, for calls made while no dialogue ends (preparation,
        long dialogues)."""

        async def periodically() -> None:
            while True:
                await asyncio.sleep(IN_FLIGHT_EVERY_S)
                with contextlib.suppress(sqlite3.Error):  # a full disk is the Recorder's news
                    store.write_calls([], self._in_flight_meta())

        task = asyncio.get_running_loop().create_task(periodically()) if self.budgeted else None
        try:
            yield
        finally:
            if task is not None:
                task.cancel()

    def _already_done(self, store: RunStore) -> int:
        done = store.count_dialogues()
        if self.resumed:
            n = f"{done} of {self.expected}"
            self.notify(f"resuming {self.run_dir}: {n} dialogues already stored")
        return done

    def _preparing_should_stop(self) -> bool:
        """Preparation's calls count against the budget as they are made."""
        calls = self.setup.log.pop(None)
        self.spend.add(calls)
        self._prep_calls += calls
        return self.stop.should_stop()

    def _take_prep_calls(self) -> list[LLMCallRecord]:
        self._preparing_should_stop()
        calls, self._prep_calls = self._prep_calls, []
        return calls

    async def _samples(self, store: RunStore, source: SampleSource, bar: CampaignProgress) -> int:
        """The run's samples stored and prepared (users.ready_samples); how many."""
        work = ready_samples(
            self.setup, store, source, bar=bar,
            should_stop=self._preparing_should_stop, take_calls=self._take_prep_calls,
        )  # fmt: skip
        n = await self.stop.race(work)
        if n is None:
            raise self._interrupted()
        path = self.run_dir / SAMPLES_FILE
        if store.pages.count_samples(unprepared=True) == 0 and not path.exists():
            store.set_meta("dataset", self.setup.dataset.name)
            store.set_meta("dataset_fingerprint", self.setup.dataset.fingerprint)
            write_sample_set(path, sample_set_header(self.setup, n), store.iter_samples())
        return n

    async def _finish(self, store: RunStore) -> RunStatus:
        """The run's status now; judging (when enabled) is part of finishing."""
        if store.counts()["dialogues"] < self.expected:
            status: RunStatus = "stopped_budget" if self.spend.reached else "incomplete"
            store.set_meta("status", status)
            return status
        store.set_meta("prompt_sha256", json.dumps(self.setup.prompts.hashes()))
        if self.setup.scenario.judge.enabled:
            judged = await self.stop.race(judge_campaign(self.setup, self.run_dir))
            if judged is None:
                raise self._interrupted()
        store.set_meta("status", "finished")
        return "finished"

    def _store_failed(self, recorder: Recorder) -> StoreWriteFailed:
        return StoreWriteFailed(
            f"{self.run_dir / STORE_FILE}: a write failed ({recorder.store_failure}); no new"
            f" dialogue was started after it ({recorder.lost} computed but not stored); free"
            " space and run the same command again to resume"
        )

    def _interrupted(self) -> CampaignInterrupted:
        try:
            with RunStore.open(self.run_dir / STORE_FILE) as store:
                stored = store.counts()["dialogues"]
        except Exception:
            stored = 0
        return CampaignInterrupted(self.run_dir, stored, self.expected)

"""A run's users: drawn once, stored, prepared (target profile, opening) as far as possible.

They are stored a chunk at a time (SAMPLE_CHUNK), each chunk with its preparation's calls
in one transaction, so a campaign of any size holds one chunk; a run killed between chunks
goes on from the first sample it had not stored (the meta key SAMPLES_PARTIAL says it was
cut short), in the same order. The next chunk's preparation starts while one finishes, so
the model server stays `campaign.concurrency` busy across chunk edges; chunks are stored in
order, and at most two are held.

A sample that cannot be prepared costs its dialogues, not the campaign: when the
model caused it (a reply broken after the repairs), each system's dialogue with it
is stored as an error naming the cause; when the server did (an outage), or the
budget or Ctrl-C stopped preparation first, it stays unprepared and its dialogues
unstarted, and the same command prepares it again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from macrs_sim.campaign.dialogue import describe_error
from macrs_sim.campaign.executor import DialogueJob
from macrs_sim.campaign.jobs import error_result
from macrs_sim.campaign.outage import is_outage
from macrs_sim.campaign.progress import CampaignProgress
from macrs_sim.campaign.sample_source import SampleSource
from macrs_sim.campaign.sampling import Prepared, PrepareEach, sample_preparer
from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.data.sample_set import SAMPLE_CHUNK
from macrs_sim.protocol import DialogueResult, LLMCallRecord, Sample
from macrs_sim.store import RunStore

# Meta key, there while a session is storing the run's samples: a run killed then has only
# some of them, and the next session stores the rest.
SAMPLES_PARTIAL = "samples_partial"


def is_prepared(sample: Sample) -> bool:
    return bool(sample.opening)


# A chunk's samples to store, those of them being prepared, and the preparing.
_InFlight = tuple[list[Sample], list[Sample], "asyncio.Task[list[Prepared]]"]


@dataclass
class _Chunk:
    samples: list[Sample]  # to store
    todo: list[Sample]  # of those, the ones prepared
    outcomes: list[Prepared]  # what preparing each of `todo` gave


@dataclass
class _Preparing:
    setup: CampaignSetup
    store: RunStore
    bar: CampaignProgress
    task: int
    should_stop: Callable[[], bool]
    take_calls: Callable[[], list[LLMCallRecord]]
    prepare: PrepareEach

    def _dialogue_ids(self, samples: list[Sample]) -> list[str]:
        return [f"{s.name}:{x.sample_id}" for x in samples for s in self.setup.scenario.systems]

    def to_prepare(self, samples: list[Sample]) -> list[Sample]:
        """Unprepared samples with a dialogue still to run (a retried error, say)."""
        done = self.store.pages.stored_dialogue_ids(self._dialogue_ids(samples))
        names = [s.name for s in self.setup.scenario.systems]
        return [
            s
            for s in samples
            if not is_prepared(s) and any(f"{n}:{s.sample_id}" not in done for n in names)
        ]

    def failed_dialogues(
        self, todo: list[Sample], by_id: dict[str, Prepared]
    ) -> list[DialogueResult]:
        """Each system's error dialogue with each sample the model could not prepare."""
        done = self.store.pages.stored_dialogue_ids(self._dialogue_ids(todo))
        max_turns = self.setup.scenario.protocol.max_turns
        failed: list[DialogueResult] = []
        for sample in todo:
            err = by_id[sample.sample_id]
            if not isinstance(err, Exception) or is_outage(err):
                continue
            cause = f"preparing the user failed: {describe_error(err)}"
            jobs = [DialogueJob(s.name, sample) for s in self.setup.scenario.systems]
            failed += [error_result(j, max_turns, cause) for j in jobs if j.dialogue_id not in done]
        return failed

    async def write(self, samples: list[Sample], todo: list[Sample], meta: dict[str, str]) -> None:
        """`samples` stored, those of `todo` prepared first (as far as they can be)."""
        self.store_prepared(_Chunk(samples, todo, await self.prepare(todo)), meta)

    def store_prepared(self, chunk: _Chunk, meta: dict[str, str]) -> None:
        samples, todo = chunk.samples, chunk.todo
        by_id = dict(zip((s.sample_id for s in todo), chunk.outcomes, strict=True))
        ready = [x if isinstance(x := by_id.get(s.sample_id), Sample) else s for s in samples]
        failed = self.failed_dialogues(todo, by_id)
        self.store.write_prepared(ready, self.take_calls(), failed, meta)

    async def earlier(self, upto: int) -> None:
        """Samples earlier sessions stored but could not prepare, prepared again (a sample
        prepared now is stored anew, after `upto`, so it is not met twice)."""
        after = 0
        while page := self.store.pages.unprepared_samples(after, upto, SAMPLE_CHUNK):
            after = page[-1][0]
            samples = [s for _, s in page]
            todo = self.to_prepare(samples)
            self.bar.advance(self.task, len(samples) - len(todo))
            if todo:
                await self.write(todo, todo, {})

    async def new(self, chunks: Iterator[list[Sample]], prepared: bool) -> None:
        """The source's samples not stored yet, a chunk at a time, in the source's order;
        a chunk is prepared while the one before it finishes, and stored after it."""
        inflight: list[_InFlight] = []
        try:
            while (chunk := await self._next(chunks, inflight)) is not None:
                stored = self.store.pages.stored_sample_ids([s.sample_id for s in chunk])
                new = [s for s in chunk if s.sample_id not in stored]
                if not new:
                    continue
                todo = [] if prepared else [s for s in new if not is_prepared(s)]
                if not prepared:  # a sample set's samples are not on the bar
                    self.bar.advance(self.task, len(new) - len(todo))
                inflight.append((new, todo, asyncio.ensure_future(self.prepare(todo))))
                if len(inflight) == 2:
                    await self._store_first(inflight)
            while inflight:
                await self._store_first(inflight)
        finally:
            for _, _, outcomes in inflight:  # a failure or stop in between: nothing left running
                outcomes.cancel()
        self.store.delete_meta(SAMPLES_PARTIAL)

    async def _next(
        self, chunks: Iterator[list[Sample]], inflight: list[_InFlight]
    ) -> list[Sample] | None:
        """The source's next chunk (None at its end); when reading it fails, the chunks
        being prepared are stored first, as they would have been before it was read."""
        try:
            return next(chunks, None)
        except Exception:
            while inflight:
                await self._store_first(inflight)
            raise

    async def _store_first(self, inflight: list[_InFlight]) -> None:
        samples, todo, outcomes = inflight[0]
        done = await outcomes
        inflight.pop(0)
        self.store_prepared(_Chunk(samples, todo, done), {SAMPLES_PARTIAL: "1"})


async def ready_samples(
    setup: CampaignSetup,
    store: RunStore,
    source: SampleSource,
    *,
    bar: CampaignProgress,
    should_stop: Callable[[], bool],
    take_calls: Callable[[], list[LLMCallRecord]],
) -> int:
    """The run's samples stored and prepared as far as possible (those still unprepared
    have no opening): those earlier sessions could not prepare, then the source's samples
    not stored yet (all of them, for a new run). Returns how many the store holds."""
    chunks = source.take()
    upto = store.pages.last_sample_rowid()
    complete = upto > 0 and store.get_meta(SAMPLES_PARTIAL) is None
    new = 0 if complete or source.prepared else max(source.count - store.pages.count_samples(), 0)
    unprepared = store.pages.count_samples(unprepared=True, upto=upto)
    task = bar.add("preparing samples", new + unprepared)
    prepare = sample_preparer(setup, bar, should_stop, task)
    preparing = _Preparing(setup, store, bar, task, should_stop, take_calls, prepare)
    await preparing.earlier(upto)
    if not complete:
        await preparing.new(chunks, source.prepared)
    return store.pages.count_samples()

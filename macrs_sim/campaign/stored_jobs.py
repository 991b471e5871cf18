"""A campaign's dialogues still to run, read from its run store as they start.

The jobs name no sample ahead: each one's `Sample` is read from the store when an
executor takes the job (at the dialogue's start), and the sample ids a page at a time,
so a campaign of any size holds the samples of the dialogues in flight and one page of
ids. The order is the one a list would have: system-major, samples in stored order.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from macrs_sim.campaign.executor import DialogueJob
from macrs_sim.store import RunStore

PAGE = 1000  # sample ids read at a time


class StoredJobs:
    """Each (system, stored prepared sample) dialogue not stored when it was made."""

    def __init__(self, store: RunStore, systems: Sequence[str], page: int = PAGE) -> None:
        self._store, self._systems, self._page = store, tuple(systems), page
        self._count = sum(store.pages.count_jobs(s) for s in self._systems)

    def __len__(self) -> int:
        return self._count

    def __iter__(self) -> Iterator[DialogueJob]:
        for system in self._systems:
            after = 0
            while page := self._store.pages.job_page(system, after, self._page):
                after = page[-1][0]
                for _, sample_id in page:
                    sample = self._store.read_sample(sample_id)
                    if sample is not None and sample.opening:
                        yield DialogueJob(system, sample)

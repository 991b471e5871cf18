"""Where a run's samples come from: a sample-set file read in chunks, or drawn (§4.4).

Bad data fails here, before any file is made: a sample set is read through with every
check (undecodable bytes, then truncated, repeated ids, another dataset, a sample its
dataset does not show), holding one chunk at a time. The run then reads it again as it
stores it (refused if the file was replaced meanwhile); drawn samples are handed over once
and not kept for the campaign.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from macrs_sim.campaign.setup import CampaignSetup
from macrs_sim.data.sample_set import SAMPLE_CHUNK, SampleSetReader
from macrs_sim.data.samples import build_samples, user_items, with_pre_target
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample

Chunks = Callable[[], Iterator[list[Sample]]]


class SampleSource:
    def __init__(self, count: int, *, prepared: bool, read: Chunks) -> None:
        self.count = count  # samples the source holds
        self.prepared = prepared  # a sample set's users are prepared already
        self._read: Chunks | None = read

    def take(self) -> Iterator[list[Sample]]:
        """The samples, a chunk at a time, once: the source lets go of them (and of drawn
        samples) as it hands them over, whether or not they are read."""
        read, self._read = self._read, None
        return read() if read is not None else iter(())


def _slices(samples: list[Sample], size: int) -> Iterator[list[Sample]]:
    for i in range(0, len(samples), size):
        yield samples[i : i + size]


def drawn_source(samples: list[Sample], size: int = SAMPLE_CHUNK) -> SampleSource:
    return SampleSource(len(samples), prepared=False, read=lambda: _slices(samples, size))


def _check(
    reader: SampleSetReader, pre_target: Callable[[list[Sample]], object], size: int
) -> None:
    """Every check before anything is written, in the order of a set read whole: the
    file's own (each line, the count, the ids), then the samples against the dataset."""
    problem: DataError | None = None
    for chunk in reader.chunks(size):
        if problem is None:
            try:
                pre_target(chunk)
            except DataError as err:
                problem = err
    if problem is not None:
        raise problem


def sample_source(setup: CampaignSetup, size: int = SAMPLE_CHUNK) -> SampleSource:
    """The scenario's sample set, checked whole (one chunk held at a time), else drawn."""
    path = setup.scenario.data.sample_set
    if path is None:
        return drawn_source(build_samples(setup.dataset, setup.scenario.data), size)
    expected = (setup.dataset.name, setup.dataset.fingerprint)
    reader = SampleSetReader(Path(path), setup.catalog, dataset=expected)

    users = cache(lambda: user_items(setup.dataset, setup.scenario.data))  # once, not a chunk

    def pre_target(chunk: list[Sample]) -> list[Sample]:
        return with_pre_target(chunk, setup.dataset, setup.scenario.data, users)

    def chunks(check_ids: bool) -> Iterator[list[Sample]]:
        for chunk in reader.chunks(size, check_ids=check_ids):
            yield pre_target(chunk)

    _check(reader, pre_target, size)
    return SampleSource(reader.header.n_samples, prepared=True, read=lambda: chunks(False))

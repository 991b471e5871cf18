"""A sample-set file's samples as a sequence read from the file on every pass.

What a campaign hands its systems' `prepare` and the popularity they may see
(campaign.setup): a million samples held as a list would cost about 2.5 GB, read a chunk
at a time they cost one chunk. Each pass reads and checks the file again (each line, the
count, repeated ids), so a pass is about as slow as reading the set: iterate, don't index.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Sequence
from itertools import islice
from typing import overload

from macrs_sim.data.sample_set import SampleSetReader
from macrs_sim.protocol import Sample

Prepare = Callable[[list[Sample]], list[Sample]]


class SampleSetView(Sequence[Sample]):
    """The samples of `reader`'s file, each chunk passed through `prepare` (e.g. the
    pre-target window of a set written before it was recorded)."""

    def __init__(self, reader: SampleSetReader, prepare: Prepare, chunk: int = 1000) -> None:
        self._reader, self._prepare, self._chunk = reader, prepare, chunk

    def __len__(self) -> int:
        return self._reader.header.n_samples

    def __iter__(self) -> Iterator[Sample]:
        for chunk in self._reader.chunks(self._chunk):
            yield from self._prepare(chunk)

    # Sequence's defaults of these index item by item: a pass over the file each.
    def __reversed__(self) -> Iterator[Sample]:
        return reversed(list(self))

    def __contains__(self, value: object) -> bool:
        return any(s == value for s in self)

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        return list(self).index(value, start, len(self) if stop is None else stop)  # type: ignore[arg-type]

    def count(self, value: object) -> int:
        return sum(1 for s in self if s == value)

    @overload
    def __getitem__(self, index: int) -> Sample: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Sample]: ...

    def __getitem__(self, index: int | slice) -> Sample | Sequence[Sample]:
        if isinstance(index, slice):
            return list(self)[index]
        i = operator.index(index)
        i = i + len(self) if i < 0 else i
        if not 0 <= i < len(self):
            raise IndexError(f"sample {index} of {len(self)}")
        return next(islice(iter(self), i, None))

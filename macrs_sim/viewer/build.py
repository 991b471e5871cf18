"""A site's data files written while its runs are read, in memory that does not grow with
the runs: a dialogue is held only while it is exported.

Each run is read once, in store order: its samples, then its dialogues, each exported and
appended to data/export/run-k.json (a JSON document written piece by piece: the same bytes
as one `to_json` of the whole), its index row to data/index.js. Chunks are planned from the
loaded runs' sample ids before a dialogue is read (split.plan_chunks); a chunk is written
as soon as its last dialogue is, its dialogues and samples read back from the export
files, where they lie as the chunk holds them.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pandas as pd

from macrs_sim.analysis.runs.load import RunData
from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import DataError
from macrs_sim.protocol import DialogueResult, Sample
from macrs_sim.viewer import files
from macrs_sim.viewer.export import EXPORT_FORMAT, EXPORT_VERSION, export_dialogues, export_sample
from macrs_sim.viewer.split import INDEX_COLUMNS, ChunkPlan, index_row, plan_chunks, sample_key

_STATUS, _BUCKET = INDEX_COLUMNS.index("status"), INDEX_COLUMNS.index("bucket")


class IndexFile(files.Pieces):
    """data/index.js: `head`'s keys, one row a dialogue, then what `finish` is given."""

    def __init__(self, path: Path, head: dict[str, Any]) -> None:
        super().__init__(path, escape=True)
        self.raw(b"MV.indexLoaded(" + files.open_list(head, "rows"), list_starts=True)
        self.rows, self.statuses, self.buckets = 0, set[str](), set[str]()

    def add(self, row: list[Any]) -> None:
        self.item(row)
        self.rows += 1
        self.statuses.add(str(row[_STATUS]))
        if row[_BUCKET]:
            self.buckets.add(row[_BUCKET])

    def finish(self, tail: dict[str, Any]) -> None:
        self.raw(b"]," + files.to_json(tail)[1:] + b");\n")


class Spans:
    """(offset, length) pairs in two arrays: 16 bytes a value."""

    def __init__(self) -> None:
        self.starts, self.lengths = array("q"), array("q")

    def append(self, span: files.Span) -> None:
        self.starts.append(span[0])
        self.lengths.append(span[1])

    def __getitem__(self, at: int) -> files.Span:
        return self.starts[at], self.lengths[at]

    def __len__(self) -> int:
        return len(self.starts)


SampleInfo = tuple[str | None, tuple[str, ...]]  # a sample's bucket and target profile


class RunSpans:
    """Where a run's samples and dialogues lie in its export file, and by a dialogue's
    position in the run: its sample id (the loaded frame's column, not copied), its sample's
    position (-1: none stored) and what its export needs of that sample (SampleInfo).
    Arrays, not dicts of ids: a few bytes a dialogue."""

    def __init__(self, sample_ids: Sequence[str]) -> None:
        self.sample_ids = sample_ids
        self.samples, self.dialogues = Spans(), Spans()
        self.sample_at = array("i")
        self._info_at, self._infos = array("i"), list[SampleInfo]()

    def add_samples(self, samples: Iterable[Sample], write: Callable[[Sample], files.Span]) -> None:
        """Write each sample, then find each dialogue's; the ids' dict is let go on return."""
        found: dict[str, int] = {}
        shared: dict[SampleInfo, int] = {}
        for sample in samples:
            found[sample.sample_id] = len(self.samples)
            self.samples.append(write(sample))
            info = (sample.bucket, sample.target_profile)
            self._info_at.append(shared.setdefault(info, len(shared)))
        self._infos = list(shared)
        self.sample_at = array("i", (found.get(s, -1) for s in self.sample_ids))

    def sample_of(self, at: int, sample_id: str) -> SampleInfo:
        """Dialogue `at` of the run (its sample `sample_id`): its sample's SampleInfo."""
        sample = self.sample_at[at]
        return (None, ()) if sample < 0 else self._infos[self._info_at[sample]]


class Chunks:
    """Writes chunk n of `plan` once each of its dialogues is in an export file."""

    def __init__(self, site: Path, plan: ChunkPlan) -> None:
        self._site, self.plan = site, plan
        self._left = array("q", bytes(8 * plan.count))
        for n in plan.chunk_of:
            self._left[n] += 1
        self.firsts: list[int] = []  # each run's first dialogue, in all runs' dialogues
        self.runs: list[tuple[files.Pieces, RunSpans]] = []

    def done(self, g: int) -> None:
        """Dialogue g (in all runs' dialogues) is written; its chunk may be whole now."""
        n = self.plan.chunk_of[g]
        self._left[n] -= 1
        if self._left[n] == 0:
            self._write(n)

    def _write(self, n: int) -> None:
        dialogues: list[bytes] = []
        samples: dict[str, bytes] = {}
        for g in self.plan.members_of(n):
            k = bisect_right(self.firsts, g) - 1
            export, spans = self.runs[k]
            at = g - self.firsts[k]
            dialogues.append(export.read(spans.dialogues[at]))
            sample = spans.sample_at[at]
            key = sample_key(k, spans.sample_ids[at]) if sample >= 0 else None
            if key is not None and key not in samples:
                samples[key] = files.to_json(key) + b":" + export.read(spans.samples[sample])
        data = [b'{"dialogues":[', b",".join(dialogues), b'],"samples":{']
        data += [b",".join(samples.values()), b"}}"]
        path = self._site / files.CHUNK_DIR / files.chunk_name(n)
        files.write_js_parts(path, "MV.chunkLoaded", [files.to_json(n), b", ", *data])


def _as_loaded(run: RunData, results: Iterator[DialogueResult]) -> Iterator[DialogueResult]:
    """The dialogues `load_run` read, which the chunks were planned for (a run still going
    may have stored more since: they wait for the next build); any other change is refused."""
    expected = run.dialogues["dialogue_id"]
    read = 0
    for dialogue_id, result in zip(expected, results, strict=False):
        if result.dialogue_id != dialogue_id:
            break
        read += 1
        yield result
    if read < len(expected):
        raise DataError(f"{run.path}: its store changed while the site was built; build it again")


def _write_run(
    k: int, run: RunData, catalog: Catalog | None, header: dict[str, Any], labels: dict[str, str],
    chunks: Chunks, index: IndexFile, export: files.Pieces,
) -> None:  # fmt: skip
    spans = RunSpans(run.dialogues["sample_id"].array)
    chunks.runs.append((export, spans))
    export.raw(files.open_list(header, "samples"), list_starts=True)
    with run.store() as store:
        spans.add_samples(
            store.iter_samples(), lambda sample: export.item(export_sample(sample, k, catalog))
        )
        export.raw(b'],"dialogues":[', list_starts=True)
        docs = export_dialogues(
            store,
            _as_loaded(run, store.iter_results()),
            run_index=k,
            labels=labels,
            catalog=catalog,
            sample_of=spans.sample_of,
            domain=run.domain,
        )
        for g, doc in enumerate(docs, start=chunks.firsts[k]):
            spans.dialogues.append(export.item(doc))
            index.add(index_row(doc, chunks.plan.chunk_of[g]))
            chunks.done(g)
    export.raw(b"]}\n")


def write_runs(
    site: Path,
    runs: Sequence[RunData],
    catalog_for: Callable[[RunData], Catalog | None] | None,
    summaries: Sequence[dict[str, Any]],
    labels: Sequence[dict[str, str]],
    index: IndexFile,
    chunk_dialogues: int,
) -> int:
    """Each run's export file and chunks, and its rows of `index`; the number of chunks."""
    sample_ids = pd.concat([run.dialogues["sample_id"] for run in runs], ignore_index=True)
    chunks = Chunks(site, plan_chunks(sample_ids, chunk_dialogues))
    del sample_ids
    with ExitStack() as stack:
        for k, run in enumerate(runs):
            export = files.Pieces(site / "data" / "export" / f"run-{k}.json", escape=False)
            stack.callback(export.file.close)
            chunks.firsts.append(sum(len(r.dialogues) for r in runs[:k]))
            header = {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "run": summaries[k]}
            catalog = catalog_for(run) if catalog_for else None
            _write_run(k, run, catalog, header, labels[k], chunks, index, export)
    return chunks.plan.count

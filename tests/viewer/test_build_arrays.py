"""The build's per-dialogue data: arrays indexed by a dialogue's position in its run (its
sample's position among the stored samples, -1 for none), not dicts of ids; the chunk plan
in 4-byte arrays. Sample ids pandas could take for missing values stay ids."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

from macrs_sim.analysis.runs.load import load_run
from macrs_sim.protocol import Sample
from macrs_sim.viewer import files
from macrs_sim.viewer.build import RunSpans
from macrs_sim.viewer.site import build_site
from macrs_sim.viewer.split import plan_chunks
from tests.analysis.handmade_runs import make_sample
from tests.viewer.test_stream_build import _js, _run


def test_each_dialogue_finds_its_sample_by_position() -> None:
    # Dialogues talk to s-2, s-9 (never stored), s-1, s-2; samples are stored s-1, s-2, s-3.
    spans = RunSpans(["s-2", "s-9", "s-1", "s-2"])
    samples = [make_sample("s-1", "m1", "top"), make_sample("s-2", "m2", "low")]
    samples.append(make_sample("s-3", "m3", "top"))  # same bucket and profile as s-1
    written: list[str] = []

    def write(sample: Sample) -> files.Span:
        written.append(sample.sample_id)
        return 10 * len(written), 7

    spans.add_samples(samples, write)
    assert written == ["s-1", "s-2", "s-3"]
    assert list(spans.sample_at) == [1, -1, 0, 1]
    assert spans.sample_at.typecode == "i" and not hasattr(spans, "position")
    assert [spans.samples[n] for n in range(3)] == [(10, 7), (20, 7), (30, 7)]
    assert spans.sample_of(0, "s-2") == spans.sample_of(3, "s-2") == ("low", ("kw",))
    assert spans.sample_of(1, "s-9") == (None, ())
    assert spans.sample_of(2, "s-1") is spans.sample_of(2, "s-1")  # one tuple, shared
    assert list(spans._info_at) == [0, 1, 0]  # s-3 shares s-1's (bucket, profile)


def test_plan_arrays_are_four_bytes_a_dialogue() -> None:
    plan = plan_chunks(["b", "a", "b"], 1)
    assert (plan.chunk_of.itemsize, plan.members.itemsize) == (4, 4)
    assert (list(plan.chunk_of), list(plan.members), list(plan.bounds)) == (
        [0, 1, 0],
        [0, 2, 1],
        [0, 2, 3],
    )


def test_ids_that_look_missing_are_ids() -> None:
    # pandas reads "nan", "None", "" and "NaN" as missing in CSV, never in factorize: five
    # samples, one dialogue each but "nan" (two), in the order first met.
    plan = plan_chunks(["nan", "None", "", "nan", "NaN", "null"], 1)
    assert list(plan.bounds) == [0, 2, 3, 4, 5, 6]
    assert list(plan.members) == [0, 3, 1, 2, 4, 5]
    assert list(plan.chunk_of) == [0, 1, 2, 0, 3, 4]


def test_a_dialogue_whose_sample_is_not_stored(tmp_path: Path) -> None:
    """Sample s-2's row deleted: its chunk holds its two dialogues and no sample; their
    bucket is None; s-1's and s-3's chunks keep theirs."""
    run_dir = _run(tmp_path)
    with closing(sqlite3.connect(run_dir / "store.sqlite")) as conn, conn:
        conn.execute("DELETE FROM samples WHERE sample_id = 's-2'")
    build_site([load_run(run_dir)], tmp_path / "site", chunk_dialogues=2)
    chunk_dir = tmp_path / "site" / files.CHUNK_DIR
    chunks = [_js(chunk_dir / files.chunk_name(n))[1] for n in range(3)]
    assert [list(c["samples"]) for c in chunks] == [["0|s-1"], [], ["0|s-3"]]
    assert [[d["bucket"] for d in c["dialogues"]] for c in chunks] == [
        ["top", "top"],
        [None, None],
        ["top", "top"],
    ]
    doc = json.loads((tmp_path / "site" / "data" / "export" / "run-0.json").read_bytes())
    assert [s["sample_id"] for s in doc["samples"]] == ["s-1", "s-3"]

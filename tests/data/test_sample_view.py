"""SampleSetView: a sample set's samples as a sequence read from the file on every pass,
one chunk held at a time (what a campaign's `prepare` and its systems' popularity get)."""

from pathlib import Path

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.sample_set import SampleSetReader, read_sample_set, write_sample_set
from macrs_sim.data.sample_view import SampleSetView
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample
from tests.data.test_sample_set_chunks import header, users


def _view(path: Path, catalog: Catalog, chunks: list[int]) -> SampleSetView:
    def prepare(chunk: list[Sample]) -> list[Sample]:
        chunks.append(len(chunk))
        return [s.model_copy(update={"bucket": f"b{len(chunks)}"}) for s in chunk]

    return SampleSetView(SampleSetReader(path, catalog), prepare, chunk=2)


def test_every_pass_reads_the_file_a_chunk_at_a_time(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = tmp_path / "set.jsonl"
    write_sample_set(path, header(5), users(sample, 5))
    chunks: list[int] = []
    view = _view(path, catalog, chunks)
    assert len(view) == 5 and chunks == []  # nothing read until iterated
    first = list(view)
    assert [s.sample_id for s in first] == ["s0", "s1", "s2", "s3", "s4"]
    # prepare ran once a chunk: 2 + 2 + 1; its output is what the view hands out
    assert chunks == [2, 2, 1] and [s.bucket for s in first] == ["b1", "b1", "b2", "b2", "b3"]
    assert [s.sample_id for s in view] == [s.sample_id for s in first]
    assert chunks == [2, 2, 1, 2, 2, 1]  # read again, not kept
    plain = [s.model_copy(update={"bucket": None}) for s in first]
    assert plain == read_sample_set(path, catalog)[1]


def test_indexing_slicing_and_reversing(tmp_path: Path, catalog: Catalog, sample: Sample) -> None:
    path = tmp_path / "set.jsonl"
    write_sample_set(path, header(5), users(sample, 5))
    view = _view(path, catalog, [])
    assert view[0].sample_id == "s0" and view[3].sample_id == "s3"
    assert view[-1].sample_id == "s4" and view[-5].sample_id == "s0"
    assert [s.sample_id for s in view[1:4]] == ["s1", "s2", "s3"]
    assert [s.sample_id for s in view[::-2]] == ["s4", "s2", "s0"]
    assert [s.sample_id for s in reversed(view)] == ["s4", "s3", "s2", "s1", "s0"]
    for bad in (5, -6):
        with pytest.raises(IndexError, match=f"sample {bad} of 5"):
            view[bad]


def test_a_truncated_set_fails_at_the_end_of_a_pass(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = tmp_path / "set.jsonl"
    write_sample_set(path, header(6), users(sample, 5))
    view = _view(path, catalog, [])
    with pytest.raises(DataError, match="header says 6 samples, the file holds 5"):
        list(view)


def test_a_set_replaced_after_opening_is_refused(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = tmp_path / "set.jsonl"
    write_sample_set(path, header(3), users(sample, 3))
    view = _view(path, catalog, [])
    write_sample_set(path, header(4), users(sample, 4))
    with pytest.raises(DataError, match="the sample set changed while the run read it"):
        list(view)


def test_membership_index_and_count_read_the_file_once(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = tmp_path / "set.jsonl"
    write_sample_set(path, header(5), users(sample, 5))
    chunks: list[int] = []

    def prepare(chunk: list[Sample]) -> list[Sample]:
        chunks.append(len(chunk))
        return chunk

    view = SampleSetView(SampleSetReader(path, catalog), prepare, chunk=2)
    third = list(view)[2]
    chunks.clear()
    assert third in view and view.index(third) == 2 and view.count(third) == 1
    # One pass each (`in` stops at the match), not one a sample.
    assert chunks == [2, 2] + [2, 2, 1] * 2
    assert "s2" not in view
    with pytest.raises(ValueError):
        view.index(third, 3)

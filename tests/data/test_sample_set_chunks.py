"""Sample sets read a chunk at a time: a set of any size is never held whole."""

from pathlib import Path

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.sample_set import (
    SampleSetHeader,
    SampleSetReader,
    read_sample_set,
    write_sample_set,
)
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample


def header(n: int) -> SampleSetHeader:
    return SampleSetHeader(
        dataset="hand", dataset_fingerprint="hand|1", data={}, simulator={}, n_samples=n
    )


def users(sample: Sample, n: int) -> list[Sample]:
    return [sample.model_copy(update={"sample_id": f"s{i}"}) for i in range(n)]


def test_2500_samples_come_in_chunks_of_1000_in_file_order(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = tmp_path / "set.jsonl"
    write_sample_set(path, header(2500), users(sample, 2500))
    chunks = list(SampleSetReader(path, catalog).chunks())
    assert [len(c) for c in chunks] == [1000, 1000, 500]
    assert [s.sample_id for c in chunks for s in c] == [f"s{i}" for i in range(2500)]
    assert read_sample_set(path, catalog)[1] == users(sample, 2500)


def test_samples_written_by_a_generator_are_read_back(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = tmp_path / "set.jsonl"
    write_sample_set(path, header(3), (s for s in users(sample, 3)))  # read once, as written
    assert [s.sample_id for s in read_sample_set(path, catalog)[1]] == ["s0", "s1", "s2"]


@pytest.mark.parametrize(
    ("n_header", "ids", "message"),
    [
        (2500, [f"s{i}" for i in range(2499)], "header says 2500 samples, the file holds 2499"),
        # Past the header's count: said at the first line too many (issue 40).
        (3, ["s0", "s1", "s2", "s3"], "set.jsonl:5: sample 4, but the header says 3 samples"),
        (2500, [f"s{i}" for i in range(2499)] + ["s7"], "repeated sample ids"),
    ],
)
def test_a_bad_set_fails_only_once_read_through(
    tmp_path: Path, catalog: Catalog, sample: Sample, n_header: int, ids: list[str], message: str
) -> None:
    """The count and the ids are known at the end: a caller that must write nothing reads
    the set through first (campaign.sample_source does)."""
    path = tmp_path / "set.jsonl"
    samples = [sample.model_copy(update={"sample_id": i}) for i in ids]
    write_sample_set(path, header(n_header), samples)
    got: list[int] = []
    with pytest.raises(DataError, match=message):
        for chunk in SampleSetReader(path, catalog).chunks(1000):
            got.append(len(chunk))
    assert sum(got) <= len(ids)


def test_repeated_ids_unchecked_when_asked(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = tmp_path / "set.jsonl"
    write_sample_set(path, header(2), [sample, sample])
    chunks = list(SampleSetReader(path, catalog).chunks(check_ids=False))
    assert [s.sample_id for c in chunks for s in c] == ["s-u1", "s-u1"]


def test_blank_lines_and_a_bom_are_skipped_and_lines_keep_their_numbers(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = tmp_path / "set.jsonl"
    bad = sample.model_copy(update={"sample_id": "s2", "target_id": "zz"})
    text = "\n".join([header(2).model_dump_json(), "", sample.model_dump_json(), "  ", ""])
    path.write_bytes(b"\xef\xbb\xbf" + (text + bad.model_dump_json() + "\n").encode())
    with pytest.raises(DataError, match=r"set.jsonl:5: item 'zz' is not in the dataset's catalog"):
        read_sample_set(path, catalog)


def test_bytes_that_are_not_utf8_name_their_line_and_byte(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = tmp_path / "set.jsonl"
    first = header(1).model_dump_json().encode() + b"\n"
    path.write_bytes(first + b'{"sample_id": "\xff"}\n')
    where = len(first) + len(b'{"sample_id": "')
    with pytest.raises(
        DataError,
        match=rf"set.jsonl:2: the sample set is not valid UTF-8 text"
        rf" \(invalid start byte at byte {where}\)",
    ):
        read_sample_set(path, catalog)

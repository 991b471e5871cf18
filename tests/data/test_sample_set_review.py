"""Sample sets read in chunks keep what a file read whole did: lines end at LF, CRLF or a
lone CR; a repeated id is said after any bad line and the count; a set replaced between the
check and the store is refused."""

import os
from pathlib import Path

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.sample_set import SampleSetHeader, SampleSetReader, write_sample_set
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample


def header(n: int) -> SampleSetHeader:
    return SampleSetHeader(
        dataset="hand", dataset_fingerprint="hand|1", data={}, simulator={}, n_samples=n
    )


def written(tmp_path: Path, sample: Sample, ids: list[str], n: int | None = None) -> Path:
    path = tmp_path / "set.jsonl"
    users = [sample.model_copy(update={"sample_id": i}) for i in ids]
    write_sample_set(path, header(len(ids) if n is None else n), users)
    return path


@pytest.mark.parametrize("ending", [b"\r", b"\r\n"])
def test_cr_and_crlf_files_read_as_lf(
    tmp_path: Path, catalog: Catalog, sample: Sample, ending: bytes
) -> None:
    path = written(tmp_path, sample, ["s0", "s1", "s2"])
    path.write_bytes(path.read_bytes().replace(b"\n", ending))
    chunks = list(SampleSetReader(path, catalog).chunks(2))
    assert [[s.sample_id for s in c] for c in chunks] == [["s0", "s1"], ["s2"]]


def test_a_bad_line_is_said_before_a_repeated_id(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = written(tmp_path, sample, ["a", "b", "a", "c"])
    with path.open("a", encoding="utf-8") as f:
        f.write("not json\n")  # line 6: after the repeat, as in the issue's example
    with pytest.raises(DataError, match=":6"):  # a line past the count: said on opening
        list(SampleSetReader(path, catalog).chunks())


def test_the_count_is_said_before_a_repeated_id(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = written(tmp_path, sample, ["a", "b", "a"], n=5)
    with pytest.raises(DataError, match="header says 5 samples, the file holds 3"):
        list(SampleSetReader(path, catalog).chunks())
    path = written(tmp_path, sample, ["a", "b", "a"])
    with pytest.raises(DataError, match="repeated sample ids"):
        list(SampleSetReader(path, catalog).chunks())


def test_a_set_replaced_after_its_check_is_refused(
    tmp_path: Path, catalog: Catalog, sample: Sample
) -> None:
    path = written(tmp_path, sample, ["a", "b"])
    reader = SampleSetReader(path, catalog)
    assert [s.sample_id for c in reader.chunks() for s in c] == ["a", "b"]
    (tmp_path / "x").mkdir()
    other = written(tmp_path / "x", sample, ["c", "d"])
    os.replace(other, path)  # `samples build` writes atomically: a new file under the name
    with pytest.raises(DataError, match="changed while the run read it"):
        list(reader.chunks())

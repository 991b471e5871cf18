"""Sample-set files: round trip, and every way a file can be wrong."""

from pathlib import Path

import pytest

from macrs_sim.data.catalog import Catalog
from macrs_sim.data.sample_set import SampleSetHeader, read_sample_set, write_sample_set
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample


def header(n: int) -> SampleSetHeader:
    return SampleSetHeader(
        dataset="hand",
        dataset_fingerprint="hand|1",
        data={"n_samples": n},
        simulator={},
        n_samples=n,
    )


def test_round_trip_keeps_everything(tmp_path: Path, catalog: Catalog, sample: Sample) -> None:
    s2 = sample.model_copy(update={"sample_id": "s-u2", "bucket": "top 10%"})
    path = tmp_path / "sets" / "x.jsonl"
    write_sample_set(path, header(2), [sample, s2])
    got_header, got = read_sample_set(path, catalog)
    assert got == [sample, s2]
    assert got_header.dataset == "hand" and got_header.created_at.endswith("Z")
    assert [p.name for p in path.parent.iterdir()] == ["x.jsonl"]  # no temp file left


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines))
    return path


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([], "empty file"),
        (['{"a": 1}'], r"x.jsonl:1: not a sample-set file"),
        (["not json"], r"x.jsonl:1: not a sample-set file"),
        (['{"format": "macrs-sim/sample-set", "version": 9}'], "sample-set version 9, expected 1"),
        (["HEADER", '{"sample_id": "s"}'], r"x.jsonl:2: bad sample \(user_id: Field required\)"),
        (["HEADER", "SAMPLE:zz"], r"x.jsonl:2: item 'zz' is not in the dataset's catalog"),
        (["HEADER", "SAMPLE:m1:"], r"x.jsonl:2: sample 's-u1' has no opening utterance"),
        (["HEADER2"], r"header says 2 samples, the file holds 0"),
    ],
)
def test_bad_files_name_file_line_and_expectation(
    tmp_path: Path, catalog: Catalog, sample: Sample, lines: list[str], message: str
) -> None:
    def expand(line: str) -> str:
        if line.startswith("HEADER"):
            return header(int(line[6:] or 1)).model_dump_json()
        if line.startswith("SAMPLE:"):
            parts = line.split(":")
            update: dict[str, object] = {"target_id": parts[1]}
            if len(parts) > 2:
                update["opening"] = parts[2]
            return sample.model_copy(update=update).model_dump_json()
        return line

    path = _write(tmp_path / "x.jsonl", [expand(line) for line in lines])
    with pytest.raises(DataError, match=message):
        read_sample_set(path, catalog)


def test_missing_file(tmp_path: Path, catalog: Catalog) -> None:
    with pytest.raises(DataError, match=r"data.sample_set: .*nope.jsonl: no such file"):
        read_sample_set(tmp_path / "nope.jsonl", catalog)

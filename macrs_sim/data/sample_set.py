"""Sample-set files: prepared samples (history, target, profile, opening, bucket), shareable.

JSON lines: a header record, then one `Sample` per line. Every system of a
campaign, and every later campaign given the file, talks to exactly these users
(paper §4.2: the same item summary and opening utterance across experiments).
A run's own `samples.jsonl` is written in this format, so it can be reused too.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NoReturn

from pydantic import BaseModel, ConfigDict, ValidationError

from macrs_sim.data.catalog import Catalog
from macrs_sim.errors import DataError
from macrs_sim.protocol import Sample
from macrs_sim.textfile import capped_lines, loads_json, long_line, not_regular

SAMPLE_SET_FORMAT = "macrs-sim/sample-set"
SAMPLE_SET_VERSION = 1


class SampleSetHeader(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    format: str = SAMPLE_SET_FORMAT
    version: int = SAMPLE_SET_VERSION
    dataset: str
    dataset_fingerprint: str
    # The data and simulator sections that made the set (for the record; not re-applied).
    data: dict[str, Any]
    simulator: dict[str, Any]
    n_samples: int
    created_at: str = ""


def write_sample_set(path: Path, header: SampleSetHeader, samples: Iterable[Sample]) -> None:
    """Atomic: the file appears complete or not at all; `samples` is read once, as written."""
    if not header.created_at:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        header = header.model_copy(update={"created_at": stamp})
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            f.write(header.model_dump_json() + "\n")
            for s in samples:
                f.write(s.model_dump_json() + "\n")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _header(path: Path, first: str) -> SampleSetHeader:
    try:
        raw = loads_json(first)
    except json.JSONDecodeError:
        raw = None
    if not isinstance(raw, dict) or raw.get("format") != SAMPLE_SET_FORMAT:
        raise DataError(
            f"{path}:1: not a sample-set file (expected a header with "
            f'"format": "{SAMPLE_SET_FORMAT}"; make one with `macrs-sim samples build`)'
        )
    if raw.get("version") != SAMPLE_SET_VERSION:
        raise DataError(
            f"{path}:1: sample-set version {raw.get('version')!r}, expected {SAMPLE_SET_VERSION}"
        )
    try:
        return SampleSetHeader.model_validate(raw)
    except ValidationError as err:
        raise DataError(f"{path}:1: bad sample-set header ({err.errors()[0]['msg']})") from None


def _sample(path: Path, lineno: int, line: str, catalog: Catalog) -> Sample:
    try:
        sample = Sample.model_validate_json(line)
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        raise DataError(f"{path}:{lineno}: bad sample ({where}: {first['msg']})") from None
    shown = (*sample.history, *(sample.pre_target or ()), sample.target_id)
    missing = [i for i in shown if i not in catalog]
    if missing:
        raise DataError(f"{path}:{lineno}: item {missing[0]!r} is not in the dataset's catalog")
    if not sample.opening:
        raise DataError(f"{path}:{lineno}: sample {sample.sample_id!r} has no opening utterance")
    problem = _held_out_problem(sample)
    if problem:
        raise DataError(f"{path}:{lineno}: sample {sample.sample_id!r} {problem}")
    return sample


def _held_out_problem(sample: Sample) -> str | None:
    """What makes `sample` no held-out test: the simulated user must have a past, and the
    target must not be in it (`samples build` never makes such a sample)."""
    if not sample.history:
        return "has an empty history; expected at least one item before the target"
    if sample.target_id in sample.history or sample.target_id in (sample.pre_target or ()):
        return (
            f"holds its target {sample.target_id!r} in its own history; "
            "expected the target held out"
        )
    return None


# Samples a reader hands over at a time: a campaign of any size holds one chunk.
SAMPLE_CHUNK = 1000


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """The file's non-blank lines with their numbers, read one at a time."""
    try:
        f = path.open("rb")
    except OSError as err:
        raise DataError(f"{path}: cannot read the sample set ({err.strerror or err})") from None

    def too_long(number: int) -> NoReturn:  # numbered as the lines are (a CR ends one too)
        raise DataError(long_line(f"{path}:{n + 1}"))

    with f:
        offset = n = 0
        for raw in capped_lines(f, on_long=too_long):
            try:
                text = raw.decode("utf-8-sig" if offset == 0 else "utf-8")
            except UnicodeDecodeError as err:
                raise DataError(
                    f"{path}:{n + 1}: the sample set is not valid UTF-8 text ({err.reason} at"
                    f" byte {offset + err.start}); save it as UTF-8"
                ) from None
            offset += len(raw)
            # A line ends at LF, CRLF or a lone CR (an old Mac file), as str.splitlines has it.
            for piece in text.replace("\r\n", "\n").split("\r"):
                n += 1
                if piece.strip():
                    yield n, piece


def _version(path: Path) -> tuple[int, int, int]:
    st = path.stat()
    return st.st_ino, st.st_size, st.st_mtime_ns


class SampleSetReader:
    """A sample-set file read a chunk at a time; the header is checked on opening (and
    against `dataset` = (name, fingerprint) it must have been built from)."""

    def __init__(
        self, path: Path, catalog: Catalog, *, dataset: tuple[str, str] | None = None
    ) -> None:
        problem = not_regular(path)
        if problem is not None:
            raise DataError(f"data.sample_set: {path}: {problem}")
        if not path.is_file():
            raise DataError(
                f"data.sample_set: {path}: no such file; "
                "build it with `macrs-sim samples build SCENARIO`"
            )
        self.path, self.catalog = path, catalog
        self.version = _version(path)
        lines = _lines(path)
        first = next(lines, None)
        if first is None:
            raise DataError(f"{path}: empty file, expected a sample-set header and samples")
        try:
            self.header = h = _header(path, first[1])
        except DataError:
            for _ in lines:
                pass  # undecodable bytes anywhere are said first, as for a file read whole
            raise
        # Undecodable bytes anywhere are said before a sample's problem, as for a file read
        # whole; a line past the header's count is said at once, not after reading the rest.
        for count, (lineno, _) in enumerate(lines, start=1):
            if count > h.n_samples:
                raise _too_many(path, h.n_samples, lineno)
        if dataset is not None and h.dataset_fingerprint != dataset[1]:
            raise DataError(
                f"data.sample_set: {path} was built from dataset {h.dataset!r} "
                f"({h.dataset_fingerprint}), but the scenario's dataset is {dataset[0]!r} "
                f"({dataset[1]})"
            )

    def chunks(self, size: int = SAMPLE_CHUNK, *, check_ids: bool = True) -> Iterator[list[Sample]]:
        """The samples, `size` at a time, each line checked as it is read; the count (and,
        with `check_ids`, repeated ids) only after the last chunk: a caller that must write
        nothing of a bad set reads it through once first."""
        if _version(self.path) != self.version:  # replaced since checked: not these samples
            raise DataError(f"{self.path}: the sample set changed while the run read it")
        lines = _lines(self.path)
        next(lines)  # the header, checked on opening
        seen: set[str] = set()
        repeated = False  # said after the count, as for a file read whole
        chunk: list[Sample] = []
        n = 0
        for lineno, line in lines:
            sample = _sample(self.path, lineno, line, self.catalog)
            if check_ids:
                repeated = repeated or sample.sample_id in seen
                seen.add(sample.sample_id)
            chunk.append(sample)
            n += 1
            if n > self.header.n_samples:
                raise _too_many(self.path, self.header.n_samples, lineno)
            if len(chunk) == size:
                yield chunk
                chunk = []
        if chunk:
            yield chunk
        if n != self.header.n_samples:
            raise DataError(
                f"{self.path}: header says {self.header.n_samples} samples, the file holds {n} "
                "(truncated or edited?)"
            )
        if repeated:
            raise DataError(f"{self.path}: repeated sample ids")


def _too_many(path: Path, n_samples: int, lineno: int) -> DataError:
    return DataError(
        f"{path}:{lineno}: sample {n_samples + 1}, but the header says {n_samples} samples"
        " (edited or appended to?)"
    )


def read_sample_set(
    path: Path, catalog: Catalog, *, dataset: tuple[str, str] | None = None
) -> tuple[SampleSetHeader, list[Sample]]:
    """Read and check a sample set; `dataset` = (name, fingerprint) it must have been built from."""
    reader = SampleSetReader(path, catalog, dataset=dataset)
    return reader.header, [s for chunk in reader.chunks() for s in chunk]

"""Read MovieLens CSV files with pandas in chunks; bad values are reported by file and line."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator, Mapping
from typing import IO, Literal

import numpy as np
import pandas as pd

from macrs_sim.data.movielens.layout import Release
from macrs_sim.errors import DataError

Kind = Literal["int", "float", "str"]
CHUNK_ROWS = 500_000
_DTYPES: dict[Kind, object] = {"int": "int64", "float": "float64", "str": str}
_INT = r"\s*[+-]?\d+\s*"
_FIELDS = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
_OPEN_QUOTE = re.compile(r"EOF inside string starting at row (\d+)")
_MAX_DIGITS = 18  # every 18-digit integer fits in int64


def read_header(release: Release, filename: str, columns: Mapping[str, Kind]) -> list[str]:
    """The header row; checks that every wanted column is there."""
    label = release.label(filename)
    with release.open_binary(filename) as fh:
        reader = csv.reader(io.TextIOWrapper(fh, encoding="utf-8-sig", newline=""))
        try:
            header = [c.strip() for c in next(reader, [])]
            first = next(reader, None)
        except UnicodeDecodeError as err:
            raise _not_utf8(release, filename, err) from None
        except csv.Error as err:
            raise DataError(f"{label}:1: unreadable header ({err}); expected CSV") from None
    missing = [c for c in columns if c not in header]
    if missing:
        found = ", ".join(header) if header else "nothing"
        raise DataError(f"{label}:1: expected columns {', '.join(columns)}; found {found}")
    twice = next((c for i, c in enumerate(header) if c in header[:i]), None)
    if twice is not None:
        raise DataError(f"{label}:1: column {twice!r} appears twice; expected each column once")
    if first is not None and len(first) > len(header):
        raise DataError(f"{label}:2: expected {len(header)} fields, found {len(first)}")
    return header


def iter_frames(
    release: Release, filename: str, columns: Mapping[str, Kind]
) -> Iterator[tuple[int, pd.DataFrame]]:
    """(line number of the chunk's first row, chunk) with ``columns`` converted to their kinds.

    Line numbers assume one line per row (true of MovieLens files: no blank lines, no
    line breaks inside quoted fields).
    """
    header = read_header(release, filename, columns)
    line = 2
    dtypes = {name: _DTYPES[kind] for name, kind in columns.items()}
    try:
        with release.open_binary(filename) as fh:
            for frame in _chunks(fh, header, dtypes):
                yield line, frame
                line += len(frame)
    except (ValueError, OverflowError) as err:
        raise _diagnose(release, filename, columns, err) from None


def _chunks(fh: IO[bytes], header: list[str], dtypes: object) -> Iterator[pd.DataFrame]:
    """Chunks under the stripped column names (real headers carry stray spaces: "genres ")."""
    yield from pd.read_csv(
        fh,
        header=0,
        names=header,
        dtype=dtypes,
        keep_default_na=False,
        encoding="utf-8-sig",
        chunksize=CHUNK_ROWS,
    )


def _diagnose(
    release: Release, filename: str, columns: Mapping[str, Kind], err: Exception
) -> DataError:
    label = release.label(filename)
    if isinstance(err, UnicodeDecodeError):
        return _not_utf8(release, filename, err)
    match = _FIELDS.search(str(err))
    if match is not None:
        want, line, saw = match.groups()
        return DataError(f"{label}:{line}: expected {want} fields, found {saw}")
    match = _OPEN_QUOTE.search(str(err))
    if match is not None:  # pandas counts rows from 0 at the header
        line = int(match.group(1)) + 1
        return DataError(f'{label}:{line}: a quoted field never closes; expected a closing "')
    try:
        found = _first_bad_value(release, filename, columns)
    except (ValueError, OverflowError):
        found = None
    if found is not None:
        return DataError(found)
    reason = (str(err).strip().splitlines() or [type(err).__name__])[0]
    return DataError(
        f"{label}: could not be read ({reason}); expected columns {', '.join(columns)}"
    )


def _not_utf8(release: Release, filename: str, err: UnicodeDecodeError) -> DataError:
    where = release.label(filename)
    with release.open_binary(filename) as fh:
        for lineno, raw in enumerate(fh, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                where = f"{where}:{lineno}"
                break
    return DataError(f"{where}: not valid UTF-8 text ({err.reason}); expected UTF-8 CSV")


def _bad_rows(values: pd.Series, kind: Kind) -> np.ndarray:
    if kind == "int":
        fits = values.str.strip().str.lstrip("+-").str.len() <= _MAX_DIGITS
        ok = (values.str.fullmatch(_INT) & fits).to_numpy(dtype=bool)
    else:
        ok = pd.to_numeric(values, errors="coerce").notna().to_numpy(dtype=bool)
    return np.flatnonzero(~ok)


def _first_bad_value(release: Release, filename: str, columns: Mapping[str, Kind]) -> str | None:
    """Reread everything as text and describe the first value that is not of its kind."""
    header = read_header(release, filename, columns)
    line = 2
    with release.open_binary(filename) as fh:
        for frame in _chunks(fh, header, str):
            hits: list[tuple[int, str]] = []
            for name, kind in columns.items():
                bad = _bad_rows(frame[name], kind) if kind != "str" else np.array([], dtype=int)
                if bad.size:
                    hits.append((int(bad[0]), name))
            if hits:
                row, name = min(hits)
                value = frame[name].iloc[row]
                expected = "an integer" if columns[name] == "int" else "a number"
                if re.fullmatch(_INT, value):
                    expected = f"an integer of at most {_MAX_DIGITS} digits"
                where = f"{release.label(filename)}:{line + row}"
                return f"{where}: {name}: expected {expected}, found {value!r}"
            line += len(frame)
    return None

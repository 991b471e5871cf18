"""Turn a MovieLens release (folder or .zip) into the prepared SQLite dataset."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.data.movielens.build import build_database
from macrs_sim.data.movielens.layout import locate_release
from macrs_sim.errors import DataError


@dataclass(frozen=True)
class PrepareSummary:
    database: Path
    release: str
    source_format: str
    n_users: int
    n_items: int
    n_interactions: int
    enriched_items: int
    unmatched_metadata: int
    wall_s: float


def _check_out(out: Path, overwrite: bool) -> None:
    if out.is_dir():
        raise DataError(f"{out}: is a folder; expected the path of the database file to write")
    if out.exists() and not overwrite:
        raise DataError(f"{out}: already exists; expected a new path (or allow overwriting)")


def _remove(tmp: Path) -> None:
    for leftover in (tmp, tmp.with_name(tmp.name + "-journal")):
        with contextlib.suppress(FileNotFoundError):
            leftover.unlink()


def _temp_beside(out: Path) -> Path:
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        fd, name = tempfile.mkstemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent)
    except OSError as err:
        raise DataError(f"{out}: cannot write there ({err}); expected a writable folder") from None
    os.close(fd)
    return Path(name)


def prepare_movielens(
    source: Path, out: Path, *, metadata: Path | None = None, overwrite: bool = False
) -> PrepareSummary:
    """Build the dataset database at ``out`` from the release at ``source`` (folder or .zip).

    ``out`` appears only when complete: the database is built in a temporary file beside it.
    """
    started = time.perf_counter()
    source, out = Path(source), Path(out)
    _check_out(out, overwrite)
    release = locate_release(source)
    tmp = _temp_beside(out)
    try:
        built = build_database(release, tmp, Path(metadata) if metadata else None)
        os.replace(tmp, out)
    except sqlite3.Error as err:
        _remove(tmp)
        raise DataError(f"{out}: could not write the database ({err})") from None
    except BaseException:
        _remove(tmp)
        raise
    return PrepareSummary(
        database=out,
        release=release.name,
        source_format=release.source_format,
        n_users=built.counts.n_users,
        n_items=built.n_items,
        n_interactions=built.counts.n_interactions,
        enriched_items=len(built.enrichment.by_movie),
        unmatched_metadata=built.enrichment.unmatched,
        wall_s=time.perf_counter() - started,
    )

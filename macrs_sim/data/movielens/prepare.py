"""Turn a MovieLens release (folder or .zip) into the prepared SQLite dataset."""

from __future__ import annotations

import contextlib
import csv
import os
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.data.movielens.build import build_database
from macrs_sim.data.movielens.layout import locate_release
from macrs_sim.data.movielens.records import Dropped, PrepareOptions
from macrs_sim.errors import DataError

# Reader faults that no check above them foresaw; they still end in one line, not a traceback.
_UNFORESEEN = (ValueError, KeyError, IndexError, TypeError, OverflowError, csv.Error)


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
    dropped: Dropped


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
    """A new empty file beside ``out``, mode 0666 less the umask like any file the user makes.

    (``tempfile.mkstemp`` would make it 0600, and the rename would keep that.)
    """
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        for _ in range(100):
            tmp = out.parent / f".{out.name}.{secrets.token_hex(4)}.tmp"
            with contextlib.suppress(FileExistsError):
                os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
                return tmp
        raise FileExistsError(f"no free temporary name beside {out.name}")
    except OSError as err:
        raise DataError(f"{out}: cannot write there ({err}); expected a writable folder") from None


def _check_options(options: PrepareOptions) -> None:
    if options.min_tag_users < 1:
        raise DataError(
            f"min_tag_users = {options.min_tag_users}: expected 1 or more (users per tag)"
        )


def prepare_movielens(
    source: Path,
    out: Path,
    *,
    metadata: Path | None = None,
    overwrite: bool = False,
    strict: bool = False,
    min_tag_users: int = 2,
) -> PrepareSummary:
    """Build the dataset database at ``out`` from the release at ``source`` (folder or .zip).

    ``out`` appears only when complete: the database is built in a temporary file beside it.
    Rows naming movies that the movies file lacks are dropped and counted, unless ``strict``.
    """
    started = time.perf_counter()
    options = PrepareOptions(Path(metadata) if metadata else None, strict, min_tag_users)
    _check_options(options)
    source, out = Path(source), Path(out)
    _check_out(out, overwrite)
    release = locate_release(source)
    tmp = _temp_beside(out)
    try:
        built = build_database(release, tmp, options)
        os.replace(tmp, out)
    except sqlite3.Error as err:
        _remove(tmp)
        raise DataError(f"{out}: could not write the database ({err})") from None
    except _UNFORESEEN as err:
        _remove(tmp)
        reason = (str(err).strip().splitlines() or [""])[0]
        raise DataError(
            f"{source}: could not be read ({type(err).__name__}: {reason}); expected a "
            "MovieLens release as GroupLens publishes it"
        ) from None
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
        dropped=built.dropped,
    )

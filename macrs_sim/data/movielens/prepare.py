"""Turn a MovieLens release (folder or .zip) into the prepared SQLite dataset."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.data.movielens.build import build_database
from macrs_sim.data.movielens.layout import locate_release
from macrs_sim.data.movielens.records import Dropped, PrepareOptions
from macrs_sim.data.prepared.atomic import check_out, write_atomically
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
    dropped: Dropped


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
    check_out(out, overwrite)
    release = locate_release(source)
    built = write_atomically(
        out,
        overwrite,
        lambda tmp: build_database(release, tmp, options),
        source,
        "a MovieLens release as GroupLens publishes it",
    )
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

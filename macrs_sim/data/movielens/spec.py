"""MovieLens as a registered dataset kind: `data prepare movielens PATH`."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from macrs_sim.data.domain import MOVIES
from macrs_sim.data.movielens.records import Dropped
from macrs_sim.data.prepared.result import PrepareResult
from macrs_sim.data.registry import DatasetSpec, PrepareOptions


class MovieLensOptions(PrepareOptions):
    strict: bool = Field(
        default=False,
        description="refuse ratings, tags or links of movies not in the movies file (default: "
        "drop and count them)",
    )
    metadata: Path | None = Field(
        default=None, description="CSV/JSONL of director, cast, overview, keywords per movie"
    )
    min_tag_users: int = Field(
        default=2,
        ge=1,
        description="keep a user tag as a keyword once N distinct users gave it to the film",
    )


def _count(n: int, noun: str) -> str:
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def dropped_lines(dropped: Dropped, movies_file: str) -> list[str]:
    """What was left out because the movies file does not list the movie; nothing if nothing."""
    lines = []
    if dropped.ratings:
        lines.append(
            f"dropped {_count(dropped.ratings, 'rating')} of "
            f"{_count(dropped.rating_movies, 'movie')} not in {movies_file}"
        )
    if dropped.tags:
        lines.append(
            f"dropped {_count(dropped.tags, 'tag')} of {_count(dropped.tag_movies, 'movie')} "
            f"not in {movies_file}"
        )
    if dropped.links:
        of = "a movie" if dropped.links == 1 else "movies"
        lines.append(
            f"dropped {_count(dropped.links, 'links.csv row')} of {of} not in {movies_file}"
        )
    return lines


def prepare(
    source: Path, out: Path, options: MovieLensOptions, *, overwrite: bool
) -> PrepareResult:
    from macrs_sim.data.movielens.prepare import prepare_movielens

    s = prepare_movielens(
        source,
        out,
        metadata=options.metadata,
        overwrite=overwrite,
        strict=options.strict,
        min_tag_users=options.min_tag_users,
    )
    lines = dropped_lines(s.dropped, f"movies.{s.source_format}")
    if options.metadata is not None:
        lines.append(
            f"enriched {s.enriched_items} items from {options.metadata}; "
            f"{s.unmatched_metadata} metadata rows matched no item"
        )
    return PrepareResult(
        database=s.database,
        kind="movielens",
        release=f"{s.release} ({s.source_format})",
        n_users=s.n_users,
        n_items=s.n_items,
        n_interactions=s.n_interactions,
        wall_s=s.wall_s,
        lines=tuple(lines),
    )


SPEC = DatasetSpec(
    kind="movielens",
    domain=MOVIES,
    options=MovieLensOptions,
    prepare="macrs_sim.data.movielens.spec:prepare",
    help="a MovieLens release: folder or zip",
    source_help="the release folder or .zip (ml-latest-small, ml-25m, ml-1m ...)",
)

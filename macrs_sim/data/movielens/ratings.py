"""The ratings pass: stream ratings into the database in file order, minus unknown movies."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from macrs_sim.data.movielens.layout import Release
from macrs_sim.data.movielens.readers import iter_ratings
from macrs_sim.data.movielens.records import RatingBatch
from macrs_sim.data.movielens.unknown import UnknownMovies
from macrs_sim.data.movielens.writer import DatasetWriter
from macrs_sim.errors import DataError

# Every MovieLens release rates on this scale (half stars in the newer ones); a rating
# outside it (or NaN, or infinite) is not a MovieLens rating.
RATING_SCALE = (0.5, 5.0)


@dataclass(frozen=True)
class Counts:
    n_users: int
    per_item: Counter[int]
    n_interactions: int
    dropped: int  # ratings of movies not in the movies file
    dropped_movies: int  # distinct movie ids among them


def _check_scale(batch: RatingBatch) -> None:
    low, high = RATING_SCALE
    if all(low <= r <= high for r in batch.ratings):
        return
    index = next(i for i, r in enumerate(batch.ratings) if not low <= r <= high)
    raise DataError(
        f"{batch.label}:{batch.line_of(index)}: rating {batch.ratings[index]!r} is outside "
        f"MovieLens's scale; expected {low:g} to {high:g} stars"
    )


def _known_only(batch: RatingBatch, unknown: UnknownMovies, dropped: Counter[int]) -> RatingBatch:
    if unknown.known.issuperset(batch.items):  # the usual case: nothing to drop
        return batch
    mask = [m in unknown.known for m in batch.items]
    if unknown.strict:
        index = mask.index(False)
        where = f"{batch.label}:{batch.line_of(index)}"
        raise unknown.refusal(where, batch.items[index], "rated")
    dropped.update(m for m, ok in zip(batch.items, mask, strict=True) if not ok)
    return batch.keep(mask)


def _empty(release: Release, read: int, unknown: UnknownMovies) -> DataError:
    filename = f"ratings.{release.source_format}"
    label = release.label(filename)
    if read:
        return DataError(
            f"{label}: every rating ({read:,}) is of a movie not in {unknown.movies_file}; "
            "expected at least one rating of a listed movie"
        )
    if release.source_format == "csv":
        return DataError(f"{label}:2: no ratings after the header; expected at least one rating")
    return DataError(f"{label}:1: no ratings; expected UserID::MovieID::Rating::Timestamp lines")


def load_ratings(release: Release, unknown: UnknownMovies, writer: DatasetWriter) -> Counts:
    """Write every rating of a listed movie, in file order; an empty result is an error.

    Dropping happens here, before anything orders ratings by time, so every later step
    (histories, samples, popularity) sees only the kept ratings.
    """
    users: set[int] = set()
    per_item: Counter[int] = Counter()
    dropped: Counter[int] = Counter()
    total = read = 0
    for batch in iter_ratings(release):
        read += len(batch)
        _check_scale(batch)
        kept = _known_only(batch, unknown, dropped)
        users.update(kept.users)
        per_item.update(kept.items)
        total += len(kept)
        if len(kept):
            writer.add_interactions(kept)
    if total == 0:
        raise _empty(release, read, unknown)
    return Counts(len(users), per_item, total, dropped.total(), len(dropped))

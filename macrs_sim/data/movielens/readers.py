"""Movies, ratings and links of a release, whichever its format."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from macrs_sim.data.movielens import dat
from macrs_sim.data.movielens.csvio import Kind, iter_frames
from macrs_sim.data.movielens.layout import Release
from macrs_sim.data.movielens.records import MovieRow, RatingBatch
from macrs_sim.data.movielens.unknown import UnknownMovies
from macrs_sim.errors import DataError

MOVIE_COLUMNS: dict[str, Kind] = {"movieId": "int", "title": "str", "genres": "str"}
RATING_COLUMNS: dict[str, Kind] = {
    "userId": "int",
    "movieId": "int",
    "rating": "float",
    "timestamp": "int",
}
LINK_COLUMNS: dict[str, Kind] = {"movieId": "int", "imdbId": "str", "tmdbId": "str"}


def parse_id(value: object) -> int | None:
    """An external id as an integer: 114709, "114709", "0114709", "tt0114709", "862.0".

    None for a missing or empty value; ValueError for anything else.
    """
    if value is None:
        return None
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return value
    text = str(value).strip()
    if not text:
        return None
    if text[:2].lower() == "tt":
        text = text[2:]
    try:
        return int(text)
    except ValueError:
        number = float(text)  # "862.0", as some exports write integer ids
        if not number.is_integer():
            raise
        return int(number)


def read_movies(release: Release) -> list[MovieRow]:
    """Every movie in file order; repeated ids are a data error."""
    filename = f"movies.{release.source_format}"
    rows = dat.read_movies(release) if release.source_format == "dat" else _csv_movies(release)
    first_seen: dict[int, int] = {}
    for row in rows:
        if row.movie_id in first_seen:
            raise DataError(
                f"{release.label(filename)}:{row.line}: movie id {row.movie_id} repeats line "
                f"{first_seen[row.movie_id]}; expected each movie once"
            )
        first_seen[row.movie_id] = row.line
    if not rows:
        what = (
            ":2: no movies after the header" if release.source_format == "csv" else ":1: no movies"
        )
        raise DataError(f"{release.label(filename)}{what}; expected at least one movie")
    return rows


def _csv_movies(release: Release) -> list[MovieRow]:
    rows: list[MovieRow] = []
    for line, frame in iter_frames(release, "movies.csv", MOVIE_COLUMNS):
        ids, titles, genres = (frame[c].tolist() for c in MOVIE_COLUMNS)
        columns = zip(ids, titles, genres, strict=True)
        for offset, (movie_id, title, genre) in enumerate(columns):
            rows.append(MovieRow(int(movie_id), str(title), str(genre), line + offset))
    return rows


def iter_ratings(release: Release) -> Iterator[RatingBatch]:
    """Ratings in file order, in batches; memory is bounded by the batch size."""
    if release.source_format == "dat":
        yield from dat.iter_ratings(release)
        return
    label = release.label("ratings.csv")
    for line, frame in iter_frames(release, "ratings.csv", RATING_COLUMNS):
        yield RatingBatch(
            label,
            line,
            users=frame["userId"].tolist(),
            items=frame["movieId"].tolist(),
            ratings=frame["rating"].tolist(),
            timestamps=frame["timestamp"].tolist(),
        )


@dataclass
class Links:
    """IMDb and TMDB ids -> MovieLens movie id, for the movies that the movies file lists."""

    imdb: dict[int, int]
    tmdb: dict[int, int]
    dropped: int = 0  # rows of movies not in the movies file


def _link_key(value: object, where: str, name: str) -> int | None:
    try:
        return parse_id(value)
    except ValueError:
        raise DataError(f"{where}: {name}: expected an id, found {value!r}") from None


def read_links(release: Release, unknown: UnknownMovies) -> Links | None:
    """links.csv, or None when the release has none (the .dat releases never do)."""
    if not release.has("links.csv"):
        return None
    links = Links({}, {})
    label = release.label("links.csv")
    for line, frame in iter_frames(release, "links.csv", LINK_COLUMNS):
        ids, imdbs, tmdbs = (frame[c].tolist() for c in LINK_COLUMNS)
        columns = zip(ids, imdbs, tmdbs, strict=True)
        for offset, (movie_id, imdb, tmdb) in enumerate(columns):
            where = f"{label}:{line + offset}"
            keys = [_link_key(imdb, where, "imdbId"), _link_key(tmdb, where, "tmdbId")]
            if not unknown.check(int(movie_id), where, "linked"):
                links.dropped += 1
                continue
            for table, key in zip((links.imdb, links.tmdb), keys, strict=True):
                if key is not None:
                    table.setdefault(key, int(movie_id))
    return links

"""Readers for the ``::``-separated .dat releases (ml-1m: latin-1; ml-10m: UTF-8)."""

from __future__ import annotations

from collections.abc import Iterator

from macrs_sim.data.movielens.layout import Release
from macrs_sim.data.movielens.records import MovieRow, RatingBatch
from macrs_sim.errors import DataError

BATCH_ROWS = 200_000
MAX_DIGITS = 18


def iter_lines(release: Release, filename: str) -> Iterator[tuple[int, str]]:
    """(line number, text) of the non-blank lines; UTF-8, else latin-1 line by line.

    A byte-order mark at the start and CRLF line ends are dropped.
    """
    with release.open_binary(filename) as fh:
        for lineno, raw in enumerate(fh, start=1):
            if lineno == 1:
                raw = raw.removeprefix(b"\xef\xbb\xbf")
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("latin-1")
            text = text.rstrip("\r\n")
            if text.strip():
                yield lineno, text


def _int(text: str, where: str, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise DataError(f"{where}: {what}: expected an integer, found {text!r}") from None
    if abs(value) >= 10**MAX_DIGITS:  # SQLite stores 64-bit integers
        raise DataError(
            f"{where}: {what}: expected an integer of at most {MAX_DIGITS} digits, found {text!r}"
        )
    return value


def _malformed(text: str, where: str, layout: str) -> DataError:
    shown = text if len(text) <= 80 else text[:77] + "..."
    return DataError(f"{where}: expected {layout}, found {shown!r}")


def _fields(text: str, where: str, layout: str) -> list[str]:
    parts = text.split("::")
    if len(parts) != layout.count("::") + 1:
        raise _malformed(text, where, layout)
    return parts


def read_movies(release: Release) -> list[MovieRow]:
    label = release.label("movies.dat")
    rows: list[MovieRow] = []
    for lineno, text in iter_lines(release, "movies.dat"):
        where = f"{label}:{lineno}"
        movie_id, title, genres = _fields(text, where, "MovieID::Title::Genres")
        rows.append(MovieRow(_int(movie_id, where, "MovieID"), title, genres, lineno))
    return rows


def iter_ratings(release: Release) -> Iterator[RatingBatch]:
    label = release.label("ratings.dat")
    batch = RatingBatch(label, 1, lines=[])
    for lineno, text in iter_lines(release, "ratings.dat"):
        where = f"{label}:{lineno}"
        user, movie, rating, stamp = _fields(text, where, "UserID::MovieID::Rating::Timestamp")
        batch.users.append(_int(user, where, "UserID"))
        batch.items.append(_int(movie, where, "MovieID"))
        try:
            batch.ratings.append(float(rating))
        except ValueError:
            raise DataError(f"{where}: Rating: expected a number, found {rating!r}") from None
        batch.timestamps.append(_int(stamp, where, "Timestamp"))
        assert batch.lines is not None
        batch.lines.append(lineno)
        if len(batch) >= BATCH_ROWS:
            yield batch
            batch = RatingBatch(label, lineno + 1, lines=[])
    if len(batch):
        yield batch


def iter_tags(release: Release) -> Iterator[tuple[int, int, int, str]]:
    """(line, user id, movie id, tag) of tags.dat; tags may hold "::", so the middle is whole."""
    label = release.label("tags.dat")
    for lineno, text in iter_lines(release, "tags.dat"):
        where = f"{label}:{lineno}"
        parts = text.split("::", 2)
        if len(parts) != 3 or "::" not in parts[2]:
            raise _malformed(text, where, "UserID::MovieID::Tag::Timestamp")
        tag, stamp = parts[2].rsplit("::", 1)
        user = _int(parts[0], where, "UserID")
        _int(stamp, where, "Timestamp")
        yield lineno, user, _int(parts[1], where, "MovieID"), tag

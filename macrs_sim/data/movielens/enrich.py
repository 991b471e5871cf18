"""Optional user-supplied metadata (director, cast, overview, keywords) joined onto movies."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass, replace
from pathlib import Path

from macrs_sim.data.movielens.layout import Release
from macrs_sim.data.movielens.readers import Links, parse_id
from macrs_sim.errors import DataError
from macrs_sim.textfile import check_regular, loads_json

KEY_COLUMNS = ("movieId", "imdbId", "tmdbId")
Row = dict[str, object]


@dataclass(frozen=True)
class Enrichment:
    director: str | None = None
    cast: tuple[str, ...] = ()
    overview: str | None = None
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class EnrichmentResult:
    by_movie: dict[int, Enrichment]  # matched movies only
    unmatched: int  # metadata rows whose id matched no movie of the release


def _read_csv(path: Path) -> tuple[list[str], list[tuple[int, Row]]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.DictReader(fh)
        # Stray spaces around column names ("director ") are common in hand-made files.
        reader.fieldnames = [str(name).strip() for name in reader.fieldnames or []]
        rows: list[tuple[int, Row]] = [(reader.line_num, dict(row)) for row in reader]
        return list(reader.fieldnames), rows


def _read_jsonl(path: Path) -> tuple[list[str], list[tuple[int, Row]]]:
    columns: list[str] = []
    rows: list[tuple[int, Row]] = []
    for lineno, line in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = loads_json(line)
        except json.JSONDecodeError as err:
            raise DataError(
                f"{path}:{lineno}: not valid JSON ({err.msg}); expected one object"
            ) from None
        if not isinstance(row, dict):
            raise DataError(f"{path}:{lineno}: expected a JSON object, found {type(row).__name__}")
        row = {str(k).strip(): v for k, v in row.items()}
        columns.extend(k for k in row if k not in columns)
        rows.append((lineno, row))
    return columns, rows


def _read(path: Path) -> tuple[list[str], list[tuple[int, Row]]]:
    check_regular(path, DataError, what="metadata file")
    if not path.is_file():
        raise DataError(f"{path}: metadata file not found; expected a .csv or .jsonl file")
    suffix = path.suffix.lower()
    if suffix not in (".csv", ".jsonl", ".ndjson"):
        raise DataError(f"{path}: unknown metadata format {suffix!r}; expected .csv or .jsonl")
    try:
        return _read_csv(path) if suffix == ".csv" else _read_jsonl(path)
    except (UnicodeDecodeError, csv.Error) as err:
        raise DataError(f"{path}: unreadable ({err}); expected UTF-8 text") from None


def _text(value: object, where: str, name: str) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        return None
    if not isinstance(value, str):
        raise DataError(f"{where}: {name}: expected a string, found {value!r}")
    return value.strip()


def _names(value: object, where: str, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    parts = value.split("|") if isinstance(value, str) else value
    if not isinstance(parts, list) or not all(isinstance(p, str) for p in parts):
        raise DataError(f"{where}: {name}: expected a list of strings, found {value!r}")
    return tuple(dict.fromkeys(p.strip() for p in parts if p.strip()))


def _enrichment(row: Row, where: str) -> Enrichment:
    return Enrichment(
        director=_text(row.get("director"), where, "director"),
        cast=_names(row.get("cast"), where, "cast"),
        overview=_text(row.get("overview"), where, "overview"),
        keywords=_names(row.get("keywords"), where, "keywords"),
    )


def _merge(old: Enrichment | None, new: Enrichment) -> Enrichment:
    """A later row for the same movie fills in or overrides the fields it gives."""
    if old is None:
        return new
    given = {k: v for k, v in vars(new).items() if v}
    return replace(old, **given)


def _resolve(key: str, links: Links | None, value: int) -> int | None:
    if key == "movieId":
        return value
    assert links is not None
    return (links.imdb if key == "imdbId" else links.tmdb).get(value)


def load_metadata(
    path: Path, release: Release, known: set[int], links: Links | None
) -> EnrichmentResult:
    """Metadata rows joined to the movie ids in ``known``, through ``links`` when needed."""
    columns, rows = _read(path)
    key = next((c for c in KEY_COLUMNS if c in columns), None)
    if key is None:
        found = ", ".join(columns) if columns else "no columns"
        raise DataError(
            f"{path}: no id column; expected one of {', '.join(KEY_COLUMNS)}; found {found}"
        )
    if key != "movieId" and links is None:
        raise DataError(
            f"{path}: keyed by {key}, but {release.name} has no links.csv; expected movieId keys"
        )
    by_movie: dict[int, Enrichment] = {}
    unmatched = 0
    for line, row in rows:
        where = f"{path}:{line}"
        try:
            value = parse_id(row.get(key))
        except ValueError:
            raise DataError(f"{where}: {key}: expected an id, found {row.get(key)!r}") from None
        movie_id = None if value is None else _resolve(key, links, value)
        if movie_id is None or movie_id not in known:
            unmatched += 1
            continue
        by_movie[movie_id] = _merge(by_movie.get(movie_id), _enrichment(row, where))
    return EnrichmentResult(by_movie, unmatched)

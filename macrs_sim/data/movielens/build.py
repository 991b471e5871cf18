"""What goes into the dataset database: ratings in file order, then the items."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from macrs_sim.data.movielens.enrich import Enrichment, EnrichmentResult, load_metadata
from macrs_sim.data.movielens.keywords import genome_keywords, has_genome, user_tag_keywords
from macrs_sim.data.movielens.layout import Release
from macrs_sim.data.movielens.readers import iter_ratings, read_movies
from macrs_sim.data.movielens.records import MovieRow
from macrs_sim.data.movielens.titles import parse_genres, parse_title
from macrs_sim.data.movielens.writer import FORMAT_VERSION, DatasetWriter, ItemRow
from macrs_sim.errors import DataError


@dataclass(frozen=True)
class Counts:
    n_users: int
    per_item: Counter[int]
    n_interactions: int


@dataclass(frozen=True)
class Built:
    counts: Counts
    n_items: int
    enrichment: EnrichmentResult


def load_ratings(release: Release, known: set[int], writer: DatasetWriter) -> Counts:
    """Stream every rating into the database, in file order, checking its movie id."""
    users: set[int] = set()
    per_item: Counter[int] = Counter()
    total = 0
    movies_file = f"movies.{release.source_format}"
    for batch in iter_ratings(release):
        if not known.issuperset(batch.items):
            index = next(i for i, m in enumerate(batch.items) if m not in known)
            raise DataError(
                f"{batch.label}:{batch.line_of(index)}: movie id {batch.items[index]} is not in "
                f"{movies_file}; expected every rated movie to be listed there"
            )
        users.update(batch.users)
        per_item.update(batch.items)
        total += len(batch)
        writer.add_interactions(batch)
    return Counts(len(users), per_item, total)


def item_row(
    row: MovieRow, label: str, count: int, extra: Enrichment, fallback: list[str]
) -> ItemRow:
    parsed = parse_title(row.title)
    if not parsed.title:
        raise DataError(f"{label}:{row.line}: movie {row.movie_id} has an empty title")
    return ItemRow(
        item_id=str(row.movie_id),
        title=parsed.title,
        year=parsed.year,
        genres=parse_genres(row.genres),
        director=extra.director,
        cast=list(extra.cast),
        keywords=list(extra.keywords) or fallback,
        overview=extra.overview,
        aka=list(parsed.aka),
        n_interactions=count,
    )


def _keywords(release: Release, known: set[int]) -> dict[int, list[str]]:
    """Per movie: its top genome tags where it has any, else its most frequent user tags."""
    keywords = user_tag_keywords(release, known)
    if has_genome(release):
        keywords.update(genome_keywords(release, known))
    return keywords


def build_database(release: Release, path: Path, metadata: Path | None) -> Built:
    movies = read_movies(release)
    known = {m.movie_id for m in movies}
    enrichment = load_metadata(metadata, release, known) if metadata else EnrichmentResult({}, 0)
    has_genome(release)  # a half-present genome is an error before the long ratings pass
    writer = DatasetWriter(path)
    try:
        counts = load_ratings(release, known, writer)
        keywords = _keywords(release, known)
        label = release.label(f"movies.{release.source_format}")
        extras = enrichment.by_movie
        writer.add_items(
            item_row(
                m,
                label,
                counts.per_item[m.movie_id],
                extras.get(m.movie_id, Enrichment()),
                keywords.get(m.movie_id, []),
            )
            for m in movies
        )
        writer.finish(
            {
                "format_version": FORMAT_VERSION,
                "source": "movielens",
                "release": release.name,
                "source_format": release.source_format,
                "enriched": "true" if metadata else "false",
                "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
                "n_users": str(counts.n_users),
                "n_items": str(len(movies)),
                "n_interactions": str(counts.n_interactions),
            }
        )
    finally:
        writer.close()
    return Built(counts, len(movies), enrichment)

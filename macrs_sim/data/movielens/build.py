"""What goes into the dataset database: ratings in file order, then the items."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from macrs_sim.data.catalog import control_character
from macrs_sim.data.movielens.enrich import Enrichment, EnrichmentResult, load_metadata
from macrs_sim.data.movielens.keywords import genome_keywords, has_genome
from macrs_sim.data.movielens.layout import Release
from macrs_sim.data.movielens.ratings import Counts, load_ratings
from macrs_sim.data.movielens.readers import read_links, read_movies
from macrs_sim.data.movielens.records import Dropped, MovieRow, PrepareOptions
from macrs_sim.data.movielens.tags import UserTags, user_tag_keywords
from macrs_sim.data.movielens.titles import ParsedTitle, parse_genres, parse_title
from macrs_sim.data.movielens.unknown import UnknownMovies
from macrs_sim.data.movielens.writer import FORMAT_VERSION, DatasetWriter, ItemRow
from macrs_sim.errors import DataError


@dataclass(frozen=True)
class Built:
    counts: Counts
    n_items: int
    enrichment: EnrichmentResult
    dropped: Dropped


def _titles(release: Release, movies: list[MovieRow]) -> dict[int, ParsedTitle]:
    """Every title parsed up front, so a bad one stops the run before the long ratings pass."""
    label = release.label(f"movies.{release.source_format}")
    parsed: dict[int, ParsedTitle] = {}
    for row in movies:
        found = control_character(row.title)
        if found:
            raise DataError(
                f"{label}:{row.line}: movie {row.movie_id}'s title holds a control character "
                f"({found}); expected one line of text"
            )
        parsed[row.movie_id] = parse_title(row.title)
        if not parsed[row.movie_id].title:
            raise DataError(f"{label}:{row.line}: movie {row.movie_id} has an empty title")
    return parsed


def item_row(
    row: MovieRow, parsed: ParsedTitle, count: int, extra: Enrichment, fallback: list[str]
) -> ItemRow:
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


def _keywords(release: Release, unknown: UnknownMovies, min_users: int) -> UserTags:
    """Per movie: its top genome tags where it has any, else its user tags."""
    tags = user_tag_keywords(release, unknown, min_users)
    if has_genome(release):
        tags.keywords.update(genome_keywords(release, unknown.known))
    return tags


def _meta(release: Release, options: PrepareOptions, built: Built) -> dict[str, str]:
    return {
        "format_version": FORMAT_VERSION,
        "source": "movielens",
        "release": release.name,
        "source_format": release.source_format,
        "enriched": "true" if options.metadata else "false",
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "n_users": str(built.counts.n_users),
        "n_items": str(built.n_items),
        "n_interactions": str(built.counts.n_interactions),
        "strict": "true" if options.strict else "false",
        "min_tag_users": str(options.min_tag_users),
        **built.dropped.meta(),
    }


def build_database(release: Release, path: Path, options: PrepareOptions) -> Built:
    movies = read_movies(release)
    titles = _titles(release, movies)
    unknown = UnknownMovies(release, {m.movie_id for m in movies}, options.strict)
    links = read_links(release, unknown)
    enrichment = EnrichmentResult({}, 0)
    if options.metadata:
        enrichment = load_metadata(options.metadata, release, unknown.known, links)
    has_genome(release)  # a half-present genome is an error before the long ratings pass
    writer = DatasetWriter(path)
    try:
        counts = load_ratings(release, unknown, writer)
        tags = _keywords(release, unknown, options.min_tag_users)
        extras = enrichment.by_movie
        writer.add_items(
            item_row(
                m,
                titles[m.movie_id],
                counts.per_item[m.movie_id],
                extras.get(m.movie_id, Enrichment()),
                tags.keywords.get(m.movie_id, []),
            )
            for m in movies
        )
        dropped = Dropped(
            counts.dropped, counts.dropped_movies, tags.dropped, tags.dropped_movies,
            links.dropped if links else 0,
        )  # fmt: skip
        built = Built(counts, len(movies), enrichment, dropped)
        writer.finish(_meta(release, options, built))
    finally:
        writer.close()
    return built

"""MovieLens releases (folder or official .zip) -> the prepared SQLite dataset database."""

from macrs_sim.data.movielens.download import MOVIELENS_RELEASES, download_movielens
from macrs_sim.data.movielens.prepare import PrepareSummary, prepare_movielens
from macrs_sim.data.movielens.titles import ParsedTitle, parse_genres, parse_title

__all__ = [
    "MOVIELENS_RELEASES",
    "ParsedTitle",
    "PrepareSummary",
    "download_movielens",
    "parse_genres",
    "parse_title",
    "prepare_movielens",
]

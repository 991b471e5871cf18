"""MovieLens releases (folder or official .zip) -> the prepared SQLite dataset database.

Names are imported on first use (PEP 562): registering the kind (spec.py, a submodule, so
this package runs first) must not load the loader and its frames when a parser is built."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from macrs_sim.data.movielens.download import MOVIELENS_RELEASES, download_movielens
    from macrs_sim.data.movielens.prepare import PrepareSummary, prepare_movielens
    from macrs_sim.data.movielens.titles import ParsedTitle, parse_genres, parse_title

_EXPORTS = {
    "MOVIELENS_RELEASES": "download",
    "download_movielens": "download",
    "PrepareSummary": "prepare",
    "prepare_movielens": "prepare",
    "ParsedTitle": "titles",
    "parse_genres": "titles",
    "parse_title": "titles",
}

__all__ = [
    "MOVIELENS_RELEASES",
    "ParsedTitle",
    "PrepareSummary",
    "download_movielens",
    "parse_genres",
    "parse_title",
    "prepare_movielens",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(f"{__name__}.{module}"), name)

"""Rows naming a movie id that the movies file does not list.

Real releases have them (an older ml-latest-small rates 1,093 movie ids its movies.csv lacks).
By default such rows are dropped and counted; ``strict`` refuses the release at the first one.
"""

from __future__ import annotations

from macrs_sim.data.movielens.layout import Release
from macrs_sim.errors import DataError


class UnknownMovies:
    def __init__(self, release: Release, known: set[int], strict: bool) -> None:
        self.known = known
        self.strict = strict
        self.movies_file = f"movies.{release.source_format}"

    def refusal(self, where: str, movie_id: int, what: str) -> DataError:
        """The --strict error for a ``what`` ("rated", "tagged", "linked") row at ``where``."""
        return DataError(
            f"{where}: movie id {movie_id} is not in {self.movies_file}; expected every "
            f"{what} movie to be listed there (--strict)"
        )

    def check(self, movie_id: int, where: str, what: str) -> bool:
        """True when the movie is listed; False to skip the row; raises when strict."""
        if movie_id in self.known:
            return True
        if self.strict:
            raise self.refusal(where, movie_id, what)
        return False

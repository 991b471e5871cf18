"""A prepared MovieLens-format database with ratings worked out by hand.

Users 1 and 2 have 4 and 3 rated interactions (the last one held out); user 3 has only
2, too few for a leave-one-out test case. Two films are called "Heat" (1995 and 1986);
the files have CRLF line ends.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.data.movielens import prepare_movielens

MOVIES = (
    "movieId,title,genres\r\n"
    "1,Heat (1995),Action|Crime\r\n"
    "2,Heat (1986),Action\r\n"
    "3,Toy Story (1995),Animation|Comedy\r\n"
    "4,Alien (1979),Horror|Sci-Fi\r\n"
    '5,"Shawshank Redemption, The (1994)",Drama\r\n'
    "6,Up (2009),Animation\r\n"
    "7,Aliens (1986),Action|Sci-Fi\r\n"
    "8,Amélie (2001),Comedy|Romance\r\n"
)
RATINGS = (
    "userId,movieId,rating,timestamp\r\n"
    "1,1,4.0,100\r\n1,2,5.0,200\r\n1,3,3.0,300\r\n1,4,2.0,400\r\n"
    "2,5,3.5,100\r\n2,1,4.5,200\r\n2,6,1.0,300\r\n"
    "3,7,5.0,100\r\n3,8,0.5,200\r\n"
)


@pytest.fixture
def ml_db(tmp_path: Path) -> Path:
    source = tmp_path / "src" / "ml-tiny"
    source.mkdir(parents=True)
    (source / "movies.csv").write_text(MOVIES, encoding="utf-8", newline="")
    (source / "ratings.csv").write_text(RATINGS, encoding="utf-8", newline="")
    out = tmp_path / "ml.sqlite"
    prepare_movielens(source, out)
    return out

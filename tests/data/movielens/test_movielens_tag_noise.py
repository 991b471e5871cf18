"""The bookkeeping-tag rules, case by case, and the distinct-users rule on a release."""

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from macrs_sim.data.movielens import prepare_movielens
from macrs_sim.data.movielens.tag_noise import noise_rule, normalize_tag

Query = Callable[[Path, str], list[tuple[object, ...]]]
MakeRelease = Callable[[str, dict[str, str | bytes]], Path]


@pytest.mark.parametrize(
    ("raw", "normalized"),
    [
        (" Pixar  Animation ", "pixar animation"),
        ("EI MUISTA", "ei muista"),
        ("Morgan\tFreeman", "morgan freeman"),
        (2007, "2007"),  # pandas may hand a number over when a column is all digits
    ],
)
def test_normalize_tag(raw: object, normalized: str) -> None:
    assert normalize_tag(raw) == normalized


@pytest.mark.parametrize(
    ("tag", "rule"),
    [
        ("2007", "date"),
        ("06/2006", "date"),
        ("6-2006", "date"),
        ("2006-06-12", "date"),
        ("12.06.2006", "date"),
        ("6/12/06", "date"),
        ("june 2006", "date"),
        ("dec. 25, 2010", "date"),
        ("9/10", "rating"),
        ("4.5/5", "rating"),
        ("10/10", "rating"),
        ("5 stars", "rating"),
        ("4.5 stars", "rating"),
        ("one star", "rating"),
        ("3-star", "rating"),
        ("3 out of 5", "rating"),
        ("*****", "rating"),
        ("*** 1/2", "rating"),
        ("rated 8", "rating"),
        ("my rating: 4", "rating"),
        ("10", "rating"),
        ("4.5", "rating"),
        ("toplist07", "list"),
        ("top 10", "list"),
        ("top-list", "list"),
        ("imdb top 250", "list"),
        ("netflix queue", "list"),
        ("watchlist", "list"),
        ("watch list", "list"),
        ("favorites", "list"),
        ("to see", "list"),
        ("want to watch", "list"),
        ("my dvds", "list"),
        ("in netflix queue", "list"),
        ("erlend's dvds", "list"),
        ("less than 300 ratings", "list"),
        ("seen", "viewing"),
        ("seen at cinema 2012", "viewing"),
        ("watched 2007", "viewing"),
        ("not seen", "viewing"),
        ("owned", "viewing"),
        ("rented", "viewing"),
        ("dvd", "format"),
        ("on dvd", "format"),
        ("dvds", "format"),
        ("vhs", "format"),
        ("blu-ray", "format"),
        ("bluray", "format"),
        ("dvd collection", "format"),
        ("netflix", "format"),
        ("tivo", "format"),
        ("bd-r", "format"),
        ("clv", "format"),
        ("dvd-video", "format"),
        ("???", "symbols"),
        ("-", "symbols"),
        ("x", "symbols"),
    ],
)
def test_bookkeeping_tags_are_noise(tag: str, rule: str) -> None:
    assert noise_rule(tag) == rule


@pytest.mark.parametrize(
    "tag",
    [
        "9/11",  # a subject, not a score
        "007",  # James Bond, not a year
        "1950s",
        "70mm",
        "saw",  # the film series
        "boring",  # an opinion: left to the distinct-users rule
        "ei muista",
        "seenfeld",
        "top gun",
        "dvd extras",
        "topless",
        "stars",
        "dark comedy",
        "based on a book",
        "world war ii",
        "twist ending",
        "mystery science theater 3000",
        "netflix original",
        "hitchcock's films",
        "ratings war",
    ],
)
def test_film_tags_are_kept(tag: str) -> None:
    assert noise_rule(tag) is None


TAGS = (
    "userId,movieId,tag,timestamp\n"
    "1,1,boring,1\n"  # one user: noise
    "1,1,Pixar,2\n"
    "2,1,pixar ,3\n"
    "2,1,PIXAR,4\n"  # user 2 again: still two users
    "1,1,toplist07,5\n"
    "2,1,toplist07,6\n"  # two users, but a list name
    "1,1,ei muista,7\n"
    "3,1,Toys,8\n"
    "3,1,toys,9\n"  # one user twice: one user
    "1,1,9/10,10\n"
    "2,1,9/10,11\n"
    "1,1,seen at cinema 2012,12\n"
    "2,1,seen at cinema 2012,13\n"
    "1,1,Dvd,14\n"
    "3,1,DVD,15\n"
    "1,1,Friendship,16\n"
    "2,1,friendship,17\n"
    "3,1,friendship,18\n"
    "1,2,2007,19\n"
    "2,2,2007,20\n"
    "1,2,06/2006,21\n"
    "3,2,06/2006,22\n"
    "2,2,5 stars,23\n"
    "3,2,5 stars,24\n"
    "2,2,netflix queue,25\n"
    "3,2,netflix queue,26\n"
)
MOVIES = "movieId,title,genres\n1,Toy Story (1995),Animation\n2,Heat (1995),Action\n"
RATINGS = "userId,movieId,rating,timestamp\n1,1,4.0,1\n"


@pytest.mark.parametrize(
    ("min_users", "keywords"),
    [
        (2, {"1": ["friendship", "pixar"], "2": []}),
        (3, {"1": ["friendship"], "2": []}),
        (1, {"1": ["friendship", "pixar", "boring", "ei muista", "toys"], "2": []}),
    ],
)
def test_user_tags_need_distinct_users(
    make_release: MakeRelease,
    out_dir: Path,
    query: Query,
    min_users: int,
    keywords: dict[str, list[str]],
) -> None:
    source = make_release(
        "ml-tags", {"movies.csv": MOVIES, "ratings.csv": RATINGS, "tags.csv": TAGS}
    )
    out = out_dir / "ml.sqlite"
    prepare_movielens(source, out, min_tag_users=min_users)
    rows = query(out, "SELECT item_id, keywords FROM items ORDER BY rowid")
    assert {str(k): json.loads(str(v)) for k, v in rows} == keywords
    meta = query(out, "SELECT key, value FROM meta WHERE key = 'min_tag_users'")
    assert meta == [("min_tag_users", str(min_users))]

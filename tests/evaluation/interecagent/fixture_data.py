"""A hand-written MovieLens-shaped release for the one-turn task, prepared into a database.

Seven films (two named "Heat": the 1995 one and the 1986 one); users 1-3 have four ratings
(three history items, the last one held out), users 4-7 only two (they train, never test).

    user 1: Heat (1986), Alien, Toy Story -> Heat (1995)
    user 2: Heat (1986), Alien, Toy Story -> Se7en
    user 3: Heat (1995), Toy Story, Alien -> Casino
    users 4, 5: Goodfellas, Se7en   user 6: Goodfellas, Alien   user 7: Goodfellas, Toy Story

Interactions per film, the three test targets left out (what InteRecAgent's tools see):
Heat 1995 (1) 1, Heat 1986 (2) 2, Toy Story (3) 4, Se7en (4) 2, Casino (5) 0, Alien (6) 4,
Goodfellas (7) 4. Leave-one-out training data (each tester's last two items held out, what
the popularity reference ranker sees): Goodfellas 4, Alien 3, Heat 1986 2, Toy Story 2,
Se7en 2, Heat 1995 1, Casino 0.
Each tester never saw exactly three films: with k = 4, ranking candidates are all of them
and the target, whatever the seed.
"""

from __future__ import annotations

from pathlib import Path

from macrs_sim.data.movielens.prepare import prepare_movielens

MOVIES = """movieId,title,genres
1,Heat (1995),Action|Crime|Thriller
2,Heat (1986),Action|Crime
3,Toy Story (1995),Animation|Comedy
4,Se7en (1995),Crime|Mystery|Thriller
5,Casino (1995),Crime|Drama
6,Alien (1979),Horror|Sci-Fi
7,Goodfellas (1990),Crime|Drama
"""
SEQUENCES = {1: [2, 6, 3, 1], 2: [2, 6, 3, 4], 3: [1, 3, 6, 5], 4: [7, 4], 5: [7, 4],
             6: [7, 6], 7: [7, 3]}  # fmt: skip


def ratings_csv() -> str:
    lines = ["userId,movieId,rating,timestamp"]
    for user, movies in SEQUENCES.items():
        lines += [f"{user},{m},4.0,{1000 * user + t}" for t, m in enumerate(movies)]
    return "\n".join(lines) + "\n"


def write_database(root: Path) -> Path:
    release = root / "ml-tiny"
    release.mkdir()
    (release / "movies.csv").write_text(MOVIES, encoding="utf-8")
    (release / "ratings.csv").write_text(ratings_csv(), encoding="utf-8")
    out = root / "tiny.sqlite"
    prepare_movielens(release, out)
    return out

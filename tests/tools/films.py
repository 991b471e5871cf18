"""A hand-written film database in the MovieLens schema.

Hostile on purpose: two films named "Heat" (a remake pair), a title with a trailing
space, a film without a year, and interactions that name an item the catalog lacks.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from macrs_sim.data.movielens.writer import INDEXES, SCHEMA

# id, title, year, genres, director, cast, keywords, overview, n_interactions
FILMS: list[tuple[str, str, int | None, list[str], str, list[str], list[str], str, int]] = [
    ("1", "Star Voyage", 1979, ["Sci-Fi", "Adventure"], "Ann Kepler", ["Tom Nova"],
     ["space", "starship"], "A crew travels across the galaxy to find a new home planet.", 30),
    ("2", "Paris in Love", 2001, ["Comedy", "Romance"], "Marie Dubois", ["Julie Blanc"],
     ["paris", "wedding"], "Two strangers fall in love during a chaotic wedding week.", 12),
    ("3", "Heat", 1995, ["Crime", "Thriller"], "Michael Mann", ["Al Pacino", "Robert De Niro"],
     ["heist", "los angeles"], "A detective hunts a professional thief after a bank heist.", 25),
    ("4", "Heat", 1986, ["Action", "Thriller"], "Dick Richards", ["Burt Reynolds"],
     ["las vegas", "bodyguard"], "A bodyguard in Las Vegas takes revenge on the mob.", 3),
    ("5", "Laugh Factory ", 2010, ["Comedy"], "Sam Joke", ["Bea Funny"],
     ["stand-up", "club"], "A failing comedian runs a small club in Chicago.", 8),
    ("6", "Haunted Manor", 1999, ["Horror"], "Vera Dark", ["Ian Shade"],
     ["ghost", "mansion"], "A family moves into a mansion where a ghost waits.", 15),
    ("7", "Galaxy Kids", 2005, ["Animation", "Comedy", "Sci-Fi"], "Leo Bright", ["Mia Small"],
     ["aliens", "school"], "Children at a school for young aliens learn to fly.", 20),
    ("8", "Quiet Rooms", None, ["Drama"], "Nora Still", [],
     [], "A widow cleans out her house.", 0),
]  # fmt: skip
INTERACTIONS = [
    ("u1", "1", 5.0, 100), ("u1", "3", 4.0, 101), ("u1", "7", 3.5, 102),
    ("u2", "1", 4.0, 100), ("u2", "2", 2.0, 105), ("u3", "1", 3.0, 90),
    ("u3", "99", 1.0, 91),
]  # fmt: skip


def write_database(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    for f in FILMS:
        row = (f[0], f[1], f[2], json.dumps(f[3]), f[4], json.dumps(f[5]), json.dumps(f[6]),
               f[7], "[]", f[8])  # fmt: skip
        conn.execute("INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)
        conn.executemany("INSERT INTO item_genres VALUES (?, ?)", [(f[0], g) for g in f[3]])
    conn.executemany("INSERT INTO interactions VALUES (?, ?, ?, ?)", INTERACTIONS)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [("format_version", "1")])
    conn.commit()
    conn.executescript(INDEXES)
    conn.close()
    return path

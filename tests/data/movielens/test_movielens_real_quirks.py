"""Releases as people download them: an older ml-latest-small with its faults, CRLF, BOM,
stray spaces in headers. Counts below are worked out by hand from the rows."""

import json
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from macrs_sim.data.dataset import database_dataset
from macrs_sim.data.movielens import csvio, prepare_movielens
from macrs_sim.data.movielens.records import Dropped
from macrs_sim.data.movielens.spec import dropped_lines as _dropped_lines

Query = Callable[[Path, str], list[tuple[object, ...]]]
Files = dict[str, str | bytes]
MakeRelease = Callable[[str, Files], Path]
RunCli = Callable[..., subprocess.CompletedProcess[str]]

# The header of movies.csv ends in a space, as in a real older ml-latest-small.
OLD_MOVIES = (
    "movieId,title,genres \n"
    + """1,Toy Story (1995),Adventure|Animation|Children|Comedy|Fantasy
3,"City of Lost Children, The (Cité des enfants perdus, La) (1995)",Adventure|Drama|Fantasy
5,"Swedish Love Story, A (Kärlekshistoria, En) (1970)",Drama|Romance
6,"Haine, La (1995)",Crime|Drama
7,"Misérables, Les (1995)",Drama|War
8,"Boot, Das (1981)",Action|Drama|War
9,"Postino, Il (1994)",Comedy|Drama|Romance
10,"Untergang, Der (2004)",Drama|War
11,"Blechtrommel, Die (1979)",Drama
12,"Samouraï, Le (1967)",Crime|Drama
13,"Laberinto del fauno, El (2006)",Drama|Fantasy
14,"Eclisse, L' (1962)",Drama
15,"Hello, Goodbye, and Everything Between (2022)",
16,Unlisted (2001),(no genres listed)
17,\"\"\"Great\"\" Performances: Cats (1998)\",Musical
"""
)
# Movies 2, 4 and 99 are rated but not listed: 5 ratings of 3 movies are dropped. User 5
# rated only movie 2, so 4 users remain, with 7 ratings.
OLD_RATINGS = """userId,movieId,rating,timestamp
1,1,4.0,964982703
1,2,3.0,964982224
1,3,5.0,964981247
2,99,4.0,1445714835
2,99,3.5,1445714900
2,5,4.5,1445714952
3,4,2.0,1306463578
3,6,5.0,1306463500
5,2,1.0,1100000000
4,1,3.0,1200000000
4,15,2.5,1200000100
4,16,3.0,1200000200
"""
# Movie 1: pixar (users 1, 2); boring (one user); toplist07 (two users, a list name).
# Movie 3: surreal (users 1, 3, 4), steampunk (4, 2); ei muista (one user); dvd (a format).
# Movies 2 and 99 are not listed: 3 tag rows of 2 movies dropped.
OLD_TAGS = """userId,movieId,tag,timestamp
1,1,pixar,1
2,1,Pixar,2
2,1,pixar,3
3,1,boring,4
1,1,toplist07,5
2,1,toplist07,6
1,2,orphan,7
2,2,orphan,8
3,99,x y,9
1,3,ei muista,10
1,3,surreal,11
3,3,Surreal ,12
4,3,surreal,13
4,3,steampunk,14
2,3,Steampunk,15
1,3,dvd,16
3,3,DVD,17
"""
OLD_LINKS = """movieId,imdbId,tmdbId
1,0114709,862
2,0113497,8844
3,0112682,
4,0113041,11862
"""
OLD_FILES: dict[str, str | bytes] = {
    "movies.csv": OLD_MOVIES,
    "ratings.csv": OLD_RATINGS,
    "tags.csv": OLD_TAGS,
    "links.csv": OLD_LINKS,
}


def _meta(query: Query, db: Path) -> dict[str, str]:
    return {str(k): str(v) for k, v in query(db, "SELECT key, value FROM meta")}


def _column(query: Query, db: Path, column: str) -> dict[str, object]:
    rows = query(db, f"SELECT item_id, {column} FROM items ORDER BY rowid")
    return {str(item_id): value for item_id, value in rows}


def test_old_latest_small_loads_through_the_cli(
    make_release: MakeRelease, run_cli: RunCli, tmp_path: Path, query: Query
) -> None:
    make_release("ml-latest-small", OLD_FILES)
    proc = run_cli("data", "prepare", "movielens", "src/ml-latest-small")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("prepared ml-latest-small (csv): 4 users, 15 items, 7 interactions")
    assert lines[1:4] == [
        "dropped 5 ratings of 3 movies not in movies.csv",
        "dropped 3 tags of 2 movies not in movies.csv",
        "dropped 2 links.csv rows of movies not in movies.csv",
    ]
    db = tmp_path / "data" / "ml-latest-small.sqlite"
    meta = _meta(query, db)
    counted = ("dropped_", "n_", "strict", "min_")
    assert {k: v for k, v in meta.items() if k.startswith(counted)} == {
        "n_users": "4",
        "n_items": "15",
        "n_interactions": "7",
        "strict": "false",
        "min_tag_users": "2",
        "dropped_ratings": "5",
        "dropped_rating_movies": "3",
        "dropped_tags": "3",
        "dropped_tag_movies": "2",
        "dropped_links": "2",
    }
    assert query(db, "SELECT user_id, item_id FROM interactions ORDER BY rowid") == [
        ("1", "1"), ("1", "3"), ("2", "5"), ("3", "6"), ("4", "1"), ("4", "15"), ("4", "16"),
    ]  # fmt: skip
    counts = _column(query, db, "n_interactions")
    assert {k: v for k, v in counts.items() if v} == {
        "1": 2,
        "3": 1,
        "5": 1,
        "6": 1,
        "15": 1,
        "16": 1,
    }
    keywords = {k: json.loads(str(v)) for k, v in _column(query, db, "keywords").items()}
    assert {k: v for k, v in keywords.items() if v} == {
        "1": ["pixar"],
        "3": ["surreal", "steampunk"],
    }


def test_dropped_ratings_never_reach_histories(make_release: MakeRelease, out_dir: Path) -> None:
    summary = prepare_movielens(make_release("ml-latest-small", OLD_FILES), out_dir / "ml.sqlite")
    dataset = database_dataset(summary.database)
    assert (dataset.n_users, dataset.n_interactions) == (4, 7)
    # User 1 rated 3, then the unlisted 2, then 1: the history skips 2.
    assert dataset.prefixes(2) == {"1": ["3", "1"], "4": ["1", "15"]}
    assert dataset.popularity["1"] == 2


def test_old_latest_small_titles_and_genres(
    make_release: MakeRelease, out_dir: Path, query: Query
) -> None:
    summary = prepare_movielens(make_release("ml-latest-small", OLD_FILES), out_dir / "ml.sqlite")
    db = summary.database
    assert _column(query, db, "title") == {
        "1": "Toy Story",
        "3": "The City of Lost Children",
        "5": "A Swedish Love Story",
        "6": "La Haine",
        "7": "Les Misérables",
        "8": "Das Boot",
        "9": "Il Postino",
        "10": "Der Untergang",
        "11": "Die Blechtrommel",
        "12": "Le Samouraï",
        "13": "El Laberinto del fauno",
        "14": "L'Eclisse",
        "15": "Hello, Goodbye, and Everything Between",
        "16": "Unlisted",
        "17": '"Great" Performances: Cats',
    }
    aka = {k: json.loads(str(v)) for k, v in _column(query, db, "aka").items()}
    assert {k: v for k, v in aka.items() if v} == {
        "3": ["La Cité des enfants perdus"],
        "5": ["En Kärlekshistoria"],
    }
    assert _column(query, db, "year")["3"] == 1995
    genres = _column(query, db, "genres")
    assert (genres["15"], genres["16"], genres["17"]) == ("[]", "[]", '["Musical"]')
    assert query(db, "SELECT COUNT(*) FROM item_genres WHERE item_id IN ('15', '16')") == [(0,)]


def test_thousands_of_unlisted_movies_one_line(
    make_release: MakeRelease, run_cli: RunCli, query: Query, tmp_path: Path
) -> None:
    # 1,093 unlisted ids (1001..2093), each rated once by user 1; user 2 rates them again,
    # cycling through them, 2,234 times: 1,093 + 2,234 = 3,327 dropped ratings.
    unlisted = list(range(1001, 2094))
    again = (unlisted * 3)[:2234]
    rows = [f"1,{m},3.0,{i}" for i, m in enumerate(unlisted)]
    rows += [f"2,{m},4.0,{i}" for i, m in enumerate(again)]
    rows += ["3,1,5.0,1", "3,2,4.0,2"]
    files: dict[str, str | bytes] = {
        "movies.csv": "movieId,title,genres \n1,Heat (1995),Action\n2,Up (2009),Animation\n",
        "ratings.csv": "userId,movieId,rating,timestamp\n" + "\n".join(rows) + "\n",
    }
    make_release("ml-latest-small", files)
    proc = run_cli("data", "prepare", "movielens", "src/ml-latest-small", "--out", "ml.sqlite")
    assert proc.returncode == 0, proc.stderr
    assert "1 users, 2 items, 2 interactions" in proc.stdout
    assert "dropped 3,327 ratings of 1,093 movies not in movies.csv\n" in proc.stdout
    meta = _meta(query, tmp_path / "ml.sqlite")
    assert (meta["dropped_ratings"], meta["dropped_rating_movies"]) == ("3327", "1093")


def _crlf_bom(files: dict[str, str | bytes], bom: bool = True) -> dict[str, str | bytes]:
    changed: dict[str, str | bytes] = {}
    for name, content in files.items():
        text = content if isinstance(content, str) else content.decode("latin-1")
        raw = text.replace("\n", "\r\n")
        data = raw.encode("utf-8") if isinstance(content, str) else raw.encode("latin-1")
        changed[name] = (b"\xef\xbb\xbf" if bom else b"") + data
    return changed


@pytest.mark.parametrize("chunk_rows", [500_000, 2])
def test_crlf_and_bom_on_every_csv_file(
    make_release: MakeRelease,
    latest_files: Files,
    out_dir: Path,
    query: Query,
    monkeypatch: pytest.MonkeyPatch,
    chunk_rows: int,
) -> None:
    monkeypatch.setattr(csvio, "CHUNK_ROWS", chunk_rows)
    plain = prepare_movielens(make_release("ml-plain", latest_files), out_dir / "plain.sqlite")
    odd = prepare_movielens(make_release("ml-odd", _crlf_bom(latest_files)), out_dir / "odd.sqlite")
    assert (odd.n_users, odd.n_items, odd.n_interactions, odd.dropped.tags) == (4, 8, 9, 1)
    for sql in ("SELECT * FROM items ORDER BY rowid", "SELECT * FROM interactions ORDER BY rowid"):
        assert query(odd.database, sql) == query(plain.database, sql)
    assert _column(query, odd.database, "genres")["2"] == '["Crime", "Drama"]'  # no "\r"


def test_crlf_latin1_dat(
    ml1m: Path, make_release: MakeRelease, out_dir: Path, query: Query
) -> None:
    files: Files = {p.name: p.read_bytes() for p in ml1m.iterdir()}
    summary = prepare_movielens(
        make_release("ml-1m", _crlf_bom(files, bom=False)), out_dir / "ml.sqlite"
    )
    assert (summary.n_users, summary.n_items, summary.n_interactions) == (2, 4, 4)
    assert _column(query, summary.database, "title")["3"] == "Les Misérables"
    assert _column(query, summary.database, "genres")["4"] == '["Action", "Thriller"]'


def test_crlf_and_bom_utf8_dat_with_tags(
    make_release: MakeRelease, out_dir: Path, query: Query
) -> None:
    files: Files = {
        "movies.dat": (
            "1::Toy Story (1995)::Adventure|Animation|Children|Comedy|Fantasy\n"
            "2::Amélie (Fabuleux destin d'Amélie Poulain, Le) (2001)::Comedy|Romance\n"
            "3::Homme, L' (2005)::Drama\n"
            "4::Short Film (2000)::(no genres listed)\n"
        ),
        "ratings.dat": "15::1::4.5::1215184630\n20::2::3.5::1188263867\n20::9::5::1188263900\n",
        "tags.dat": (
            "15::1::pixar::1215184630\n20::1::Pixar::1188263867\n"
            "15::2::paris::1215184600\n20::2::whimsical::1188263868\n20::2::Paris::1188263869\n"
            "15::9::unlisted::1\n"
        ),
    }
    summary = prepare_movielens(make_release("ml-10m", _crlf_bom(files)), out_dir / "ml.sqlite")
    assert (summary.n_users, summary.n_items, summary.n_interactions) == (2, 4, 2)
    d = summary.dropped
    assert (d.ratings, d.rating_movies, d.tags, d.tag_movies, d.links) == (1, 1, 1, 1, 0)
    assert _column(query, summary.database, "keywords") == {
        "1": '["pixar"]',
        "2": '["paris"]',
        "3": "[]",
        "4": "[]",
    }
    assert _column(query, summary.database, "title")["4"] == "Short Film"


def _spaced(header_line: str) -> str:
    return " , ".join(f" {c}  " for c in header_line.split(",")) + " "


def test_spaces_around_every_column_name(
    genome_release: Path, make_release: MakeRelease, out_dir: Path, query: Query, tmp_path: Path
) -> None:
    files = {p.name: p.read_text(encoding="utf-8") for p in genome_release.iterdir()}
    files["tags.csv"] = "userId,movieId,tag,timestamp\n10,2,heist,2\n11,2,Heist,3\n"
    files["links.csv"] = "movieId,imdbId,tmdbId\n1,0114709,862\n"
    spaced: Files = {}
    for name, text in files.items():
        head, rest = text.split("\n", 1)
        spaced[name] = _spaced(head) + "\n" + rest
    assert str(spaced["ratings.csv"]).startswith(" userId   ,  movieId   ,")
    metadata = tmp_path / "meta.csv"
    metadata.write_text(" tmdbId , director \n862,John Lasseter\n", encoding="utf-8")
    summary = prepare_movielens(
        make_release("ml-25m", spaced), out_dir / "ml.sqlite", metadata=metadata
    )
    assert (summary.n_users, summary.n_items, summary.n_interactions) == (2, 3, 3)
    assert (summary.enriched_items, summary.unmatched_metadata) == (1, 0)
    db = summary.database
    assert _column(query, db, "director")["1"] == "John Lasseter"
    keywords = {k: json.loads(str(v)) for k, v in _column(query, db, "keywords").items()}
    assert keywords["1"][:2] == ["pixar animation", "funny"]  # genome first
    assert keywords["2"] == ["heist"]


def test_dropped_lines_say_one_in_the_singular() -> None:
    assert _dropped_lines(Dropped(1, 1, 1, 1, 1), "movies.dat") == [
        "dropped 1 rating of 1 movie not in movies.dat",
        "dropped 1 tag of 1 movie not in movies.dat",
        "dropped 1 links.csv row of a movie not in movies.dat",
    ]
    assert _dropped_lines(Dropped(3_327, 1_093, 2, 1, 0), "movies.csv") == [
        "dropped 3,327 ratings of 1,093 movies not in movies.csv",
        "dropped 2 tags of 1 movie not in movies.csv",
    ]

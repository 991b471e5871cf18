import json
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pytest

from macrs_sim.data.movielens import PrepareSummary, csvio, prepare_movielens

Query = Callable[[Path, str], list[tuple[object, ...]]]

ITEMS_SQL = (
    'SELECT item_id, title, year, genres, director, "cast", keywords, overview, aka, '
    "n_interactions FROM items ORDER BY rowid"
)


def _items(query: Query, db: Path) -> dict[str, dict[str, object]]:
    cols = ["title", "year", "genres", "director", "cast", "keywords", "overview", "aka", "n"]
    result: dict[str, dict[str, object]] = {}
    for row in query(db, ITEMS_SQL):
        record = dict(zip(cols, row[1:], strict=True))
        for key in ("genres", "cast", "keywords", "aka"):
            record[key] = json.loads(str(record[key]))
        result[str(row[0])] = record
    return result


def test_latest_small_summary_and_meta(latest_small: Path, out_dir: Path, query: Query) -> None:
    out = out_dir / "ml.sqlite"
    summary = prepare_movielens(latest_small, out)
    assert isinstance(summary, PrepareSummary)
    assert (summary.database, summary.release, summary.source_format) == (
        out,
        "ml-latest-small",
        "csv",
    )
    assert (summary.n_users, summary.n_items, summary.n_interactions) == (4, 8, 9)
    assert (summary.enriched_items, summary.unmatched_metadata) == (0, 0)
    assert summary.wall_s >= 0
    meta = {str(k): str(v) for k, v in query(out, "SELECT key, value FROM meta")}
    created = str(meta.pop("created_at"))
    assert datetime.fromisoformat(created).utcoffset() is not None
    assert meta == {
        "format_version": "1",
        "source": "movielens",
        "release": "ml-latest-small",
        "source_format": "csv",
        "enriched": "false",
        "n_users": "4",
        "n_items": "8",
        "n_interactions": "9",
        "strict": "false",
        "min_tag_users": "2",
        "dropped_ratings": "0",
        "dropped_rating_movies": "0",
        "dropped_tags": "1",  # the orphan tag of movie 999
        "dropped_tag_movies": "1",
        "dropped_links": "0",
    }
    assert (summary.dropped.tags, summary.dropped.ratings) == (1, 0)
    assert sorted(p.name for p in out_dir.iterdir()) == ["ml.sqlite"]


def test_latest_small_items(latest_small: Path, out_dir: Path, query: Query) -> None:
    out = out_dir / "ml.sqlite"
    prepare_movielens(latest_small, out)
    items = _items(query, out)
    assert list(items) == ["1", "2", "3", "4", "5", "6", "7", "8"]  # movies.csv order
    assert {k: v["n"] for k, v in items.items()} == {
        "1": 3, "2": 2, "3": 1, "4": 1, "5": 0, "6": 1, "7": 1, "8": 0,
    }  # fmt: skip
    assert items["2"] == {
        "title": "The Shawshank Redemption",
        "year": 1994,
        "genres": ["Crime", "Drama"],
        "director": None,
        "cast": [],
        "keywords": [],  # each of its tags was given by one user only
        "overview": None,
        "aka": [],
        "n": 2,
    }
    assert items["1"]["keywords"] == ["pixar", "animation"]  # "fun": one user
    assert items["4"]["keywords"] == ["juliet"]
    assert (items["3"]["title"], items["3"]["aka"]) == (
        "The City of Lost Children",
        ["La Cité des enfants perdus"],
    )
    assert (items["4"]["title"], items["4"]["aka"]) == ("Seven", ["Se7en"])
    assert (items["5"]["title"], items["5"]["year"]) == ("Babylon 5", None)
    assert (items["6"]["title"], items["6"]["year"]) == ("Fawlty Towers", 1975)
    assert (items["7"]["title"], items["7"]["aka"]) == ("L'Avventura", ["The Adventure"])
    assert (items["8"]["genres"], items["8"]["keywords"]) == ([], [])
    assert items["5"]["keywords"] == []


def test_one_user_per_tag_ranks_by_users_then_name(
    latest_small: Path, out_dir: Path, query: Query
) -> None:
    out = out_dir / "ml.sqlite"
    prepare_movielens(latest_small, out, min_tag_users=1)
    items = _items(query, out)
    assert items["1"]["keywords"] == ["pixar", "animation", "fun"]
    assert items["2"]["keywords"] == ["hope, friendship", "morgan freeman", "prison"]
    assert items["4"]["keywords"] == [
        "juliet", "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
    ]  # fmt: skip


def test_interactions_and_genres(latest_small: Path, out_dir: Path, query: Query) -> None:
    out = out_dir / "ml.sqlite"
    prepare_movielens(latest_small, out)
    rows = query(out, "SELECT user_id, item_id, rating, timestamp FROM interactions ORDER BY rowid")
    assert rows[:3] == [
        ("1", "1", 4.0, 964982703),
        ("1", "2", 5.0, 964981247),
        ("1", "4", 3.5, 964982224),
    ]
    assert rows[-1] == ("4", "7", 1.5, 1100000000)
    assert len(rows) == 9
    genres = query(out, "SELECT item_id, genre FROM item_genres WHERE item_id IN ('2', '8')")
    assert sorted(genres) == [("2", "Crime"), ("2", "Drama")]
    assert query(out, "SELECT COUNT(*) FROM item_genres WHERE genre = 'Mystery'") == [(2,)]


def test_schema_is_exact(latest_small: Path, out_dir: Path, query: Query) -> None:
    out = out_dir / "ml.sqlite"
    prepare_movielens(latest_small, out)

    def columns(table: str) -> list[tuple[object, ...]]:
        # (name, type, notnull, pk)
        return [(r[1], r[2], r[3], r[5]) for r in query(out, f"PRAGMA table_info({table})")]

    assert columns("meta") == [("key", "TEXT", 0, 1), ("value", "TEXT", 1, 0)]
    assert columns("items") == [
        ("item_id", "TEXT", 0, 1),
        ("title", "TEXT", 1, 0),
        ("year", "INTEGER", 0, 0),
        ("genres", "TEXT", 1, 0),
        ("director", "TEXT", 0, 0),
        ("cast", "TEXT", 1, 0),
        ("keywords", "TEXT", 1, 0),
        ("overview", "TEXT", 0, 0),
        ("aka", "TEXT", 1, 0),
        ("n_interactions", "INTEGER", 1, 0),
    ]
    assert columns("item_genres") == [("item_id", "TEXT", 1, 0), ("genre", "TEXT", 1, 0)]
    assert columns("interactions") == [
        ("user_id", "TEXT", 1, 0),
        ("item_id", "TEXT", 1, 0),
        ("rating", "REAL", 0, 0),
        ("timestamp", "INTEGER", 1, 0),
    ]
    indexes = query(
        out, "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
    )
    assert sorted(indexes) == [
        ("interactions_user_time", "interactions"),
        ("item_genres_genre", "item_genres"),
    ]
    assert [r[2] for r in query(out, "PRAGMA index_info(interactions_user_time)")] == [
        "user_id",
        "timestamp",
    ]


def test_zip_parent_folder_and_folder_agree(
    latest_small: Path, out_dir: Path, query: Query, make_zip: Callable[[Path, Path], Path]
) -> None:
    archive = make_zip(latest_small, latest_small.parent.parent / "ml-latest-small.zip")
    results = []
    for i, source in enumerate([latest_small, latest_small.parent, archive]):
        summary = prepare_movielens(source, out_dir / f"{i}.sqlite")
        assert (summary.release, summary.source_format) == ("ml-latest-small", "csv")
        results.append(
            (
                _items(query, summary.database),
                query(summary.database, "SELECT * FROM interactions ORDER BY rowid"),
            )
        )
    assert results[0] == results[1] == results[2]


def test_small_chunks_give_the_same_database(
    latest_small: Path, out_dir: Path, query: Query, monkeypatch: pytest.MonkeyPatch
) -> None:
    prepare_movielens(latest_small, out_dir / "big.sqlite")
    monkeypatch.setattr(csvio, "CHUNK_ROWS", 2)
    summary = prepare_movielens(latest_small, out_dir / "small.sqlite")
    assert summary.n_interactions == 9
    for sql in (ITEMS_SQL, "SELECT * FROM interactions ORDER BY rowid"):
        assert query(out_dir / "big.sqlite", sql) == query(out_dir / "small.sqlite", sql)


def test_overwrite_replaces_existing_database(
    latest_small: Path, out_dir: Path, query: Query
) -> None:
    out = out_dir / "ml.sqlite"
    out.write_text("old")
    summary = prepare_movielens(latest_small, out, overwrite=True)
    assert summary.n_items == 8
    assert query(out, "SELECT COUNT(*) FROM items") == [(8,)]
    assert sorted(p.name for p in out_dir.iterdir()) == ["ml.sqlite"]


def test_out_folder_is_created(latest_small: Path, tmp_path: Path) -> None:
    out = tmp_path / "new" / "deeper" / "ml.sqlite"
    assert prepare_movielens(latest_small, out).database.is_file()


def test_csv_with_bom_and_extra_columns(
    make_release: Callable[[str, dict[str, str | bytes]], Path], out_dir: Path, query: Query
) -> None:
    source = make_release(
        "ml-custom",
        {
            "movies.csv": "\ufeffmovieId,title,genres,extra\n10,Heat (1995),Action,x\n",
            "ratings.csv": "userId,movieId,rating,timestamp\n7,10,4.0,5\n",
        },
    )
    summary = prepare_movielens(source, out_dir / "ml.sqlite")
    assert (summary.release, summary.n_items, summary.n_interactions) == ("ml-custom", 1, 1)
    assert query(summary.database, "SELECT item_id, title, keywords FROM items") == [
        ("10", "Heat", "[]")
    ]

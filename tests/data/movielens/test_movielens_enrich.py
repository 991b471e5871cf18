import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from macrs_sim.data.movielens import prepare_movielens
from macrs_sim.errors import DataError

Query = Callable[[Path, str], list[tuple[object, ...]]]


def _item(query: Query, db: Path, item_id: str) -> dict[str, object]:
    rows = query(
        db,
        f"SELECT director, \"cast\", overview, keywords FROM items WHERE item_id = '{item_id}'",
    )
    director, cast, overview, keywords = rows[0]
    return {
        "director": director,
        "cast": json.loads(str(cast)),
        "overview": overview,
        "keywords": json.loads(str(keywords)),
    }


def test_csv_metadata_by_movie_id(
    latest_small: Path, out_dir: Path, tmp_path: Path, query: Query
) -> None:
    meta = tmp_path / "meta.csv"
    meta.write_text(
        "movieId,director,cast,overview,keywords\n"
        '1,John Lasseter,Tom Hanks|Tim Allen,"Toys, alive.",toys|friendship\n'
        "2,Frank Darabont,Tim Robbins| Morgan Freeman ,,\n"
        "999,Nobody,,,\n",
        encoding="utf-8",
    )
    summary = prepare_movielens(latest_small, out_dir / "ml.sqlite", metadata=meta)
    assert (summary.enriched_items, summary.unmatched_metadata) == (2, 1)
    db = summary.database
    assert _item(query, db, "1") == {
        "director": "John Lasseter",
        "cast": ["Tom Hanks", "Tim Allen"],
        "overview": "Toys, alive.",
        "keywords": ["toys", "friendship"],  # given keywords replace the user tags
    }
    assert _item(query, db, "2") == {
        "director": "Frank Darabont",
        "cast": ["Tim Robbins", "Morgan Freeman"],
        "overview": None,
        "keywords": [],  # none given, and its user tags were each given by one user
    }
    assert _item(query, db, "5") == {"director": None, "cast": [], "overview": None, "keywords": []}
    assert {str(k): str(v) for k, v in query(db, "SELECT key, value FROM meta")}[
        "enriched"
    ] == "true"


def test_jsonl_metadata_by_imdb_id(
    latest_small: Path, out_dir: Path, tmp_path: Path, query: Query
) -> None:
    meta = tmp_path / "meta.jsonl"
    rows = [
        {"imdbId": "tt0114709", "director": "John Lasseter", "cast": ["Tom Hanks"]},
        {"imdbId": "111161", "keywords": ["hope"], "overview": "Prison drama."},
        {"imdbId": 114369, "cast": "Brad Pitt|Morgan Freeman"},
        {"imdbId": "tt9999999", "director": "Unknown"},
    ]
    meta.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    summary = prepare_movielens(latest_small, out_dir / "ml.sqlite", metadata=meta)
    assert (summary.enriched_items, summary.unmatched_metadata) == (3, 1)
    db = summary.database
    assert _item(query, db, "1")["cast"] == ["Tom Hanks"]
    assert _item(query, db, "2") == {
        "director": None,
        "cast": [],
        "overview": "Prison drama.",
        "keywords": ["hope"],
    }
    assert _item(query, db, "4")["cast"] == ["Brad Pitt", "Morgan Freeman"]


def test_csv_metadata_by_tmdb_id(
    latest_small: Path, out_dir: Path, tmp_path: Path, query: Query
) -> None:
    meta = tmp_path / "meta.csv"
    meta.write_text("tmdbId,director\n862,John Lasseter\n807,David Fincher\n1,Nobody\n,Empty\n")
    summary = prepare_movielens(latest_small, out_dir / "ml.sqlite", metadata=meta)
    assert (summary.enriched_items, summary.unmatched_metadata) == (2, 2)
    assert _item(query, summary.database, "4")["director"] == "David Fincher"


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (
            "meta.csv",
            "title,director\nHeat,Michael Mann\n",
            "no id column; expected one of movieId",
        ),
        ("meta.jsonl", '{"movieId": 1}\nnot json\n', "meta.jsonl:2: not valid JSON"),
        ("meta.jsonl", "[1, 2]\n", "meta.jsonl:1: expected a JSON object"),
        ("meta.jsonl", '{"movieId": 1, "cast": [1, 2]}\n', "meta.jsonl:1: cast: expected a list"),
        ("meta.jsonl", '{"movieId": 1, "director": 5}\n', "meta.jsonl:1: director: expected a"),
        (
            "meta.csv",
            "movieId,director\nabc,X\n",
            "meta.csv:2: movieId: expected an id, found 'abc'",
        ),
        ("meta.txt", "movieId\n1\n", "expected .csv or .jsonl"),
    ],
)
def test_bad_metadata(
    latest_small: Path, out_dir: Path, tmp_path: Path, name: str, content: str, message: str
) -> None:
    meta = tmp_path / name
    meta.write_text(content)
    with pytest.raises(DataError, match=re.escape(message)) as info:
        prepare_movielens(latest_small, out_dir / "ml.sqlite", metadata=meta)
    assert "\n" not in str(info.value)
    assert list(out_dir.iterdir()) == []


def test_metadata_file_missing(latest_small: Path, out_dir: Path, tmp_path: Path) -> None:
    with pytest.raises(DataError, match="metadata file not found"):
        prepare_movielens(latest_small, out_dir / "ml.sqlite", metadata=tmp_path / "nope.csv")
    assert list(out_dir.iterdir()) == []


def test_imdb_keys_need_links(ml1m: Path, out_dir: Path, tmp_path: Path) -> None:
    meta = tmp_path / "meta.csv"
    meta.write_text("imdbId,director\ntt0114709,John Lasseter\n")
    with pytest.raises(DataError, match="keyed by imdbId, but ml-1m has no links.csv"):
        prepare_movielens(ml1m, out_dir / "ml.sqlite", metadata=meta)
    assert list(out_dir.iterdir()) == []

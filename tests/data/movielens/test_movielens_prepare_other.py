"""Genome (ml-25m style) and .dat (ml-1m, ml-10m) releases."""

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from macrs_sim.data.movielens import csvio, dat, prepare_movielens

Query = Callable[[Path, str], list[tuple[object, ...]]]


def _column(query: Query, db: Path, column: str) -> dict[str, object]:
    rows = query(db, f"SELECT item_id, {column} FROM items ORDER BY rowid")
    return {str(item_id): value for item_id, value in rows}


@pytest.mark.parametrize("chunk_rows", [500_000, 3])
def test_genome_keywords_then_user_tags(
    genome_release: Path,
    out_dir: Path,
    query: Query,
    monkeypatch: pytest.MonkeyPatch,
    chunk_rows: int,
) -> None:
    monkeypatch.setattr(csvio, "CHUNK_ROWS", chunk_rows)
    summary = prepare_movielens(genome_release, out_dir / "ml.sqlite")
    assert (summary.release, summary.n_users, summary.n_items, summary.n_interactions) == (
        "ml-25m",
        2,
        3,
        3,
    )
    keywords = {
        k: json.loads(str(v)) for k, v in _column(query, summary.database, "keywords").items()
    }
    assert keywords == {
        "1": [
            "pixar animation",
            "funny",
            "atmospheric",
            "quirky",
            "space",
            "robots",
            "romance",
            "dark",
        ],
        "2": ["heist"],  # no genome tag reaches 0.5: user tags given by 2+ users
        "3": [],  # no genome scores, and its one user tag was given by one user
    }
    assert _column(query, summary.database, "title")["3"] == "The Usual Suspects"
    assert _column(query, summary.database, "n_interactions") == {"1": 2, "2": 1, "3": 0}


def test_ml1m_latin1_dat(ml1m: Path, out_dir: Path, query: Query) -> None:
    summary = prepare_movielens(ml1m, out_dir / "ml.sqlite")
    assert (summary.release, summary.source_format) == ("ml-1m", "dat")
    assert (summary.n_users, summary.n_items, summary.n_interactions) == (2, 4, 4)
    db = summary.database
    assert _column(query, db, "title") == {
        "1": "Toy Story",
        "2": "Jumanji",
        "3": "Les Misérables",
        "4": "The Crow: City of Angels",
    }
    assert json.loads(str(_column(query, db, "genres")["1"])) == ["Animation", "Children", "Comedy"]
    assert _column(query, db, "n_interactions") == {"1": 2, "2": 0, "3": 1, "4": 1}
    assert query(db, "SELECT * FROM interactions ORDER BY rowid") == [
        ("1", "1", 5.0, 978300760),
        ("1", "3", 3.0, 978302109),
        ("2", "1", 4.0, 978298413),
        ("2", "4", 2.0, 978299000),
    ]
    assert query(
        db, "SELECT item_id FROM item_genres WHERE genre = 'Children' ORDER BY item_id"
    ) == [
        ("1",),
        ("2",),
    ]
    assert set(_column(query, db, "keywords").values()) == {"[]"}


@pytest.mark.parametrize("batch_rows", [200_000, 1])
def test_ml10m_zip(
    ml10m_zip: Path,
    out_dir: Path,
    query: Query,
    monkeypatch: pytest.MonkeyPatch,
    batch_rows: int,
) -> None:
    monkeypatch.setattr(dat, "BATCH_ROWS", batch_rows)
    summary = prepare_movielens(ml10m_zip, out_dir / "ml.sqlite")
    assert (summary.release, summary.source_format) == ("ml-10m", "dat")
    assert (summary.n_users, summary.n_items, summary.n_interactions) == (2, 4, 3)
    db = summary.database
    assert _column(query, db, "title") == {
        "1": "Toy Story",
        "2": "Amélie",
        "3": "L'Homme",
        "4": "Short Film",
    }
    assert json.loads(str(_column(query, db, "aka")["2"])) == [
        "Le Fabuleux destin d'Amélie Poulain"
    ]
    assert _column(query, db, "keywords") == {
        "1": '["pixar"]',
        "2": '["paris"]',  # "whimsical": one user
        "3": "[]",
        "4": "[]",
    }
    assert _column(query, db, "genres")["4"] == "[]"
    assert query(db, "SELECT rating FROM interactions ORDER BY rowid") == [(4.5,), (3.5,), (5.0,)]
    assert {str(k): str(v) for k, v in query(db, "SELECT key, value FROM meta")}[
        "release"
    ] == "ml-10m"

"""filter_items with a whole query or a wrong value (issue 38 §1): the query's own ids, its
own order, values grounded in the catalog, and a filter over a bus of any size.

Films (tests/tools/films.py), by popularity: 1 Star Voyage (30, 1979, Sci-Fi), 3 Heat
(25, 1995), 7 Galaxy Kids (20, 2005, Comedy Sci-Fi), 6 Haunted Manor (15, 1999),
2 Paris in Love (12, 2001, Comedy), 5 Laugh Factory (8, 2010, Comedy), 4 Heat (3, 1986),
8 Quiet Rooms (0, no year).
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from macrs_sim.data.movielens.writer import SCHEMA
from macrs_sim.tools.hard import HardFilterTool, HardHits


async def _hits(db: Path, condition: str, **more: object) -> HardHits:
    reply = await HardFilterTool(db, sql_condition=True).call_raw({"condition": condition, **more})
    assert reply.ok, reply.text
    assert isinstance(reply.data, HardHits)
    return reply.data


@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        # Selects titles, not ids: still the three comedies (was: all 8, `item_id` read from
        # the outer table).
        ("SELECT title FROM items WHERE genres LIKE '%Comedy%'", ["7", "2", "5"]),
        ("SELECT DISTINCT title, year FROM items WHERE year > 2004", ["7", "5"]),
        ("SELECT i.item_id FROM items AS i WHERE i.year < 1990", ["1", "4"]),
        # A join with a table that has item_id too: the items table's id (was: "ambiguous
        # column name: item_id").
        ("SELECT i.title FROM items i JOIN item_genres g ON g.item_id = i.item_id"
         " WHERE g.genre = 'Comedy'", ["7", "2", "5"]),
        ("SELECT title FROM items JOIN item_genres USING (item_id) WHERE genre = 'Comedy'",
         ["7", "2", "5"]),
    ],
)  # fmt: skip
async def test_a_whole_query_keeps_the_items_it_selects(
    film_db: Path, condition: str, expected: list[str]
) -> None:
    assert [h.item_id for h in (await _hits(film_db, condition)).hits] == expected


async def test_a_query_without_the_id_is_refused(film_db: Path) -> None:
    reply = await HardFilterTool(film_db, sql_condition=True).call_raw(
        {"condition": "WITH t AS (SELECT title FROM items) SELECT title FROM t"}
    )
    assert reply.error == (
        "refused: the query must return item_id (SELECT item_id FROM items WHERE ...)"
    )


async def test_a_query_with_order_by_keeps_its_order(film_db: Path) -> None:
    hits = await _hits(film_db, "SELECT item_id FROM items WHERE year > 1990 ORDER BY year DESC")
    assert [h.item_id for h in hits.hits] == ["5", "7", "2", "6", "3"]
    assert hits.query_order
    plain = await _hits(film_db, "year > 1990")  # no ORDER BY: popularity, as before
    assert [h.item_id for h in plain.hits] == ["3", "7", "6", "2", "5"]
    assert not plain.query_order


@pytest.mark.parametrize(
    ("condition", "rewritten", "expected"),
    [
        # No genre holds "Science Fiction": the closest one that exists is Sci-Fi.
        ("genres LIKE '%Science Fiction%'", "genres LIKE '%Sci-Fi%'", ["1", "7"]),
        ("genres NOT LIKE '%comedies%' AND year > 1990", "genres NOT LIKE '%Comedy%' AND "
         "year > 1990", ["3", "6"]),
        # A table that does not exist is the items table (RecAI's rewrite).
        ("SELECT * FROM movies WHERE genres LIKE '%Horror%'", "SELECT * FROM items WHERE "
         "genres LIKE '%Horror%'", ["6"]),
    ],
)  # fmt: skip
async def test_values_and_tables_are_grounded(
    film_db: Path, condition: str, rewritten: str, expected: list[str]
) -> None:
    hits = await _hits(film_db, condition)
    assert [h.item_id for h in hits.hits] == expected
    assert hits.rewritten == rewritten


@pytest.mark.parametrize(
    ("condition", "rewritten", "expected"),
    [
        # Words inside a quoted value are the value: no table, no LIKE to ground.
        ("title = 'Escape From Alcatraz Where'", None, []),
        ("title = 'genres LIKE ''%Science Fiction%'' '", None, []),
        # A short table name: only the name is replaced, not the keyword that holds it.
        ("SELECT item_id from m where genres LIKE '%Horror%'",
         "SELECT item_id from items where genres LIKE '%Horror%'", ["6"]),
    ],
)  # fmt: skip
async def test_only_sql_outside_quotes_is_grounded(
    film_db: Path, condition: str, rewritten: str | None, expected: list[str]
) -> None:
    hits = await _hits(film_db, condition)
    assert [h.item_id for h in hits.hits] == expected
    assert hits.rewritten == rewritten


async def test_a_value_that_exists_is_left_alone(film_db: Path) -> None:
    # "Sci" is part of Sci-Fi; a director nobody has is an honest empty answer.
    assert (await _hits(film_db, "genres LIKE '%Sci%'")).rewritten is None
    hits = await _hits(film_db, "director LIKE '%Kubrick%'")
    assert hits.hits == () and hits.rewritten is None


def _big_catalog(path: Path, n: int) -> Path:
    """n films straight into SQLite: item i is from 1900 + i % 100, a comedy when i % 3 == 0."""
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    genres = [["Comedy"] if i % 3 == 0 else ["Drama"] for i in range(n)]
    conn.executemany("INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", (
        (f"i{i}", f"Film {i}", 1900 + i % 100, json.dumps(genres[i]), "", "[]", "[]", "", "[]",
         n - i) for i in range(n)
    ))  # fmt: skip
    conn.executemany("INSERT INTO item_genres VALUES (?, ?)",
                     ((f"i{i}", genres[i][0]) for i in range(n)))  # fmt: skip
    conn.commit()
    conn.close()
    return path


async def test_a_bus_of_40000_items_is_filtered(tmp_path: Path) -> None:
    db = _big_catalog(tmp_path / "big.sqlite", 40_000)
    within = [f"i{i}" for i in range(1, 40_000)]  # every item but i0
    condition = "genres LIKE '%Comedy%' AND year = 1950"
    reply = await HardFilterTool(db, sql_condition=True).call_raw(
        {"condition": condition, "within": within, "limit": 5}
    )
    assert reply.ok, reply.error
    assert isinstance(reply.data, HardHits)
    # i % 100 == 50 and i % 3 == 0: i = 150, 450, 750, ... (most popular = smallest i).
    assert [h.item_id for h in reply.data.hits] == ["i150", "i450", "i750", "i1050", "i1350"]
    assert reply.data.more

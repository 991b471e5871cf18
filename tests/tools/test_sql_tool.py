"""`sql_query`: answers on a hand-written database; writes refused; row and time limits."""

from __future__ import annotations

import hashlib
import time
from pathlib import Path

import pytest

from macrs_sim.tools.sql import SqlQueryTool


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


async def test_answers_a_join_with_hand_counted_rows(film_db: Path) -> None:
    tool = SqlQueryTool(film_db, hidden_tables=())
    sql = (
        "SELECT i.title, COUNT(*) AS n FROM interactions x JOIN items i USING (item_id) "
        "GROUP BY i.item_id ORDER BY n DESC, i.title"
    )
    reply = await tool.call_raw({"sql": sql})
    assert reply.ok and reply.data is not None
    # Star Voyage: u1, u2, u3; the others once; item 99 is in no catalog row, so no join.
    assert reply.data.rows == (("Star Voyage", 3), ("Galaxy Kids", 1), ("Heat", 1),
                               ("Paris in Love", 1))  # fmt: skip
    assert reply.text.splitlines()[:2] == ["title | n", "Star Voyage | 3"]


async def test_genre_table_and_null_year(film_db: Path) -> None:
    tool = SqlQueryTool(film_db)
    text = await tool.run_text(
        "SELECT title, year FROM items WHERE item_id IN "
        "(SELECT item_id FROM item_genres WHERE genre = 'Drama')"
    )
    assert text == "title | year\nQuiet Rooms | NULL"


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO items (item_id, title) VALUES ('x', 'x')",
        "UPDATE items SET title = 'Cold' WHERE item_id = '3'",
        "DELETE FROM interactions",
        "DROP TABLE items",
        "CREATE TABLE t (x)",
        "CREATE TEMP TABLE t (x)",
        "ATTACH DATABASE ':memory:' AS other",
        "PRAGMA query_only = 0",
        "PRAGMA journal_mode = WAL",
        "PRAGMA user_version = 7",
        "BEGIN IMMEDIATE",
        "VACUUM",
        "REINDEX",
        "SELECT 1; DELETE FROM items",
    ],
)
async def test_writes_are_refused_as_text_and_the_file_is_unchanged(
    film_db: Path, sql: str
) -> None:
    before = _digest(film_db)
    reply = await SqlQueryTool(film_db).call_raw(sql)
    assert not reply.ok and reply.error
    assert reply.text.startswith("Error: ")
    assert _digest(film_db) == before
    after = await SqlQueryTool(film_db, hidden_tables=()).run_text(
        "SELECT COUNT(*) FROM interactions"
    )
    assert after == "COUNT(*)\n7"


async def test_schema_pragma_is_allowed(film_db: Path) -> None:
    text = await SqlQueryTool(film_db).run_text("PRAGMA table_info(item_genres)")
    assert [line.split(" | ")[1] for line in text.splitlines()[1:]] == ["item_id", "genre"]


async def test_row_limit_truncates_and_says_so(film_db: Path) -> None:
    reply = await SqlQueryTool(film_db, max_rows=3).call_raw("SELECT item_id FROM items")
    assert reply.data is not None
    assert reply.data.rows == (("1",), ("2",), ("3",)) and reply.data.truncated
    assert reply.text.endswith("(only the first 3 rows are shown; add LIMIT or filters)")


async def test_exactly_the_limit_is_not_truncated(film_db: Path) -> None:
    reply = await SqlQueryTool(film_db, max_rows=8).call_raw("SELECT item_id FROM items")
    assert reply.data is not None and len(reply.data.rows) == 8 and not reply.data.truncated


async def test_a_query_that_never_ends_stops_at_the_time_limit(film_db: Path) -> None:
    forever = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c"
    )
    tool = SqlQueryTool(film_db, time_limit_s=0.3)
    start = time.perf_counter()
    reply = await tool.call_raw(forever)
    # Stopped at the limit (slack for a busy shared machine), not left to run.
    assert 0.3 <= time.perf_counter() - start < 2.0
    assert not reply.ok
    assert reply.text == "Error: the query ran past the time limit of 0.3 s and was stopped"


async def test_syntax_error_and_missing_database_are_text(film_db: Path, tmp_path: Path) -> None:
    assert await SqlQueryTool(film_db).run_text("SELEC 1") == (
        'Error: SQL error: near "SELEC": syntax error'
    )
    missing = tmp_path / "nope.sqlite"
    assert (
        await SqlQueryTool(missing).run_text("SELECT 1") == f"Error: database {missing} not found"
    )
    assert not missing.exists()


async def test_blob_bombs_are_bounded(film_db: Path) -> None:
    text = await SqlQueryTool(film_db).run_text("SELECT zeroblob(100000000)")
    assert text == "Error: SQL error: string or blob too big"


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT COUNT(*) FROM interactions",
        "SELECT item_id FROM interactions WHERE user_id = 'u1' ORDER BY timestamp DESC",
        "SELECT i.title FROM items i JOIN interactions x ON x.item_id = i.item_id",
        "SELECT title FROM items WHERE item_id IN (SELECT item_id FROM interactions)",
        "SELECT value FROM meta",
    ],
)
async def test_user_histories_are_hidden_by_default(film_db: Path, sql: str) -> None:
    """Histories hold the samples' targets: a system must not read them back."""
    tool = SqlQueryTool(film_db)
    assert "interactions(" not in tool.description and "items(item_id" in tool.description
    reply = await tool.call_raw(sql)
    assert reply.text.startswith(
        "Error: refused: only SELECT queries over the listed tables are allowed ("
    )

"""`sql_query`'s limits hold for every query: one slow step, value bombs, printf widths."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from macrs_sim.tools.sql import SqlQueryTool
from macrs_sim.tools.sql_guard import widest

# A busy shared machine: the answer must come this soon after the limit.
_SLACK_S = 0.6
_TOO_BIG = "Error: SQL error: string or blob too big"
_WIDE = "Error: refused: a printf/format width or precision over 1000000 characters"


async def _timed(db: Path, sql: str, limit: float = 0.5) -> tuple[str, float]:
    tool = SqlQueryTool(db, time_limit_s=limit, hidden_tables=())
    start = time.perf_counter()
    reply = await tool.call_raw({"sql": sql})
    elapsed = time.perf_counter() - start
    assert not reply.ok and reply.error is not None
    return reply.text, elapsed


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT printf('%.*c', 2147483647, 'x')",  # the query: 17 s, one VM step
        "SELECT format('%.*c', '2147483647', 'x')",  # format is printf; `*` read from text
        "SELECT printf('%.2147483647c', 'x')",
        "SELECT printf('%*.*c', 1, -2147483647, 'x')",  # a negative precision counts as its size
        # SQLite reads a text's or a blob's leading integer: both are 2147483647 wide.
        "SELECT printf('%.*c', '2147483647x', 'x')",
        "SELECT printf('%.*c', CAST('2147483647' AS BLOB), 'x')",
        "SELECT title, printf('%s %.*c', title, 2000000000, 'y') FROM items",
    ],
)
async def test_printf_widths_past_the_length_limit_are_refused_at_once(
    film_db: Path, sql: str
) -> None:
    text, elapsed = await _timed(film_db, sql)
    assert text == _WIDE
    assert elapsed < _SLACK_S


async def test_printf_still_formats_like_sqlite(film_db: Path) -> None:
    tool = SqlQueryTool(film_db)
    reply = await tool.call_raw(
        "SELECT printf('%d items, %5.2f %s', 3, 2.5, 'ok'), format('%%%-4s|', 'ab'), "
        "printf(NULL), printf(x'41'), printf('%.*c', 3, 'z')"
    )
    assert reply.data is not None
    assert reply.data.rows == (("3 items,  2.50 ok", "%ab  |", None, "A", "zzz"),)


@pytest.mark.parametrize(
    "sql",
    [
        "SELECT zeroblob(2000000000)",
        "SELECT randomblob(2000000000)",
        "SELECT length(randomblob(600000) || randomblob(600000))",
        "SELECT length(replace(replace(replace(replace(hex(zeroblob(1000)), '0', '0000000000'),"
        " '0', '0000000000'), '0', '0000000000'), '0', '00'))",
        "WITH RECURSIVE c(s) AS (SELECT 'x' UNION ALL SELECT s || s FROM c) "
        "SELECT length(s) FROM c",
    ],
)
async def test_value_bombs_stop_at_the_length_limit(film_db: Path, sql: str) -> None:
    text, elapsed = await _timed(film_db, sql)
    assert (text, elapsed < _SLACK_S) == (_TOO_BIG, True)


async def test_a_single_slow_step_is_answered_at_the_time_limit(film_db: Path) -> None:
    """`instr` of a 200 000-character needle in 400 000 characters is one VM step of about
    4e10 byte comparisons (a second or more): no interrupt reaches it, so the call answers at
    its limit and leaves the step to end in the background. (Half the sizes, 1e10, finished
    within 0.2 s on a quiet machine one time in three.)"""
    slow = (
        "SELECT instr(hex(zeroblob(200000)) || '1', substr(hex(zeroblob(200000)), 1, 200000) "
        "|| '1')"
    )
    text, elapsed = await _timed(film_db, slow, limit=0.2)
    assert text == "Error: the query ran past the time limit of 0.2 s and was stopped"
    assert 0.2 <= elapsed < 0.2 + _SLACK_S


async def test_a_recursive_cte_without_end_stops_at_the_limit(film_db: Path) -> None:
    sql = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c"
    text, elapsed = await _timed(film_db, sql, limit=0.3)
    assert text == "Error: the query ran past the time limit of 0.3 s and was stopped"
    assert 0.3 <= elapsed < 0.3 + _SLACK_S


async def test_query_text_and_like_patterns_are_bounded(film_db: Path) -> None:
    long_query = "SELECT 1" + " + 1" * 30_000  # 120 008 characters
    assert (await _timed(film_db, long_query))[0] == "Error: SQL error: query string is too large"
    pattern = "SELECT title FROM items WHERE title LIKE printf('%.*c', 2000, 'a')"
    assert (await _timed(film_db, pattern))[0] == (
        "Error: SQL error: LIKE or GLOB pattern too complex"
    )


@pytest.mark.parametrize(
    ("fmt", "args", "expected"),
    [
        ("%5.2f %s", (1.0, "a"), 5),
        ("%.*c", (7, "x"), 7),
        ("%*.*s", (-9, 3, "a"), 9),
        ("%d %.*c", (1, 40, "x"), 40),  # the `*` is the second argument, not the first
        ("%%.99999999c", (), 0),  # `%%` is a percent sign; what follows is text
        ("%!10.3000f", (1.0,), 3000),
        ("%.*c", ("2e9", "x"), 2_000_000_000),  # SQLite reads 2: the larger reading counts
        ("%.*c", ("2147483647x", "x"), 2147483647),
        ("%.*c", (b"2147483647", "x"), 2147483647),
        ("%.*c", (" -12abc", "x"), 12),
        ("%.*c", ("abc", "x"), 0),
        ("%.*c", (float("inf"), "x"), 0),
        ("%.*c", (), 0),  # missing argument: SQLite reads 0
        ("%lld %ls", (1, "a"), 0),
    ],
)
def test_widest_reads_written_and_star_sizes(
    fmt: str, args: tuple[Any, ...], expected: int
) -> None:
    assert widest(fmt, args) == expected

"""What the loaders' tests share: reading a prepared database back."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

Query = Callable[[Path, str], list[tuple[object, ...]]]


@pytest.fixture
def query() -> Query:
    """Rows of one SQL statement over a database file (movielens, yelp, steam tests)."""

    def run(db: Path, sql: str) -> list[tuple[object, ...]]:
        conn = sqlite3.connect(db)
        try:
            return conn.execute(sql).fetchall()
        finally:
            conn.close()

    return run

"""RecMind's memory database is named by the layout of the catalog copy inside it: a
product memory written when products were copied in the film columns is never reused,
and films' memories keep the names they always had."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from macrs_sim.agents.recmind.memory import histories_digest, memory_database
from macrs_sim.data.dataset import Dataset
from macrs_sim.tools import database
from tests.agents.recmind.helpers import HISTORIES
from tests.tools.shops import products

SHOP_HISTORIES = {"u1": [("p1", 5.0), ("p3", 4.0)]}


def test_the_digest_changes_with_another_domains_layout(
    dataset: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    shop = products()
    before = histories_digest(shop, SHOP_HISTORIES), histories_digest(dataset, HISTORIES)
    monkeypatch.setattr(database, "DOMAIN_LAYOUT", "columns-0")  # the film-column copies
    assert histories_digest(shop, SHOP_HISTORIES) != before[0]
    assert histories_digest(dataset, HISTORIES) == before[1]  # films: as ever


def test_a_memory_in_the_old_layout_is_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shop = products()
    monkeypatch.setattr(database, "DOMAIN_LAYOUT", "columns-0")
    old = memory_database(shop, SHOP_HISTORIES, tmp_path)
    monkeypatch.undo()
    new = memory_database(shop, SHOP_HISTORIES, tmp_path)
    assert new != old
    with closing(sqlite3.connect(new)) as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(items)")]
    assert "brand" in columns and "director" not in columns

"""The catalog database of another domain: a column per attribute, typed by its values;
films keep the prepared MovieLens schema. Values worked out by hand (tests/tools/shops.py)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from pathlib import Path

import pytest

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import demo_dataset
from macrs_sim.data.domain import MOVIES
from macrs_sim.data.movielens.writer import SCHEMA
from macrs_sim.errors import DataError
from macrs_sim.tools.database import tool_database
from macrs_sim.tools.schema import FILM_SCHEMA, SCHEMA_KEY, read_schema
from macrs_sim.tools.sql import TABLES, SqlQueryTool
from tests.tools.shops import products, restaurants

PRODUCT_ITEMS = (
    "items(item_id TEXT, title TEXT, year INTEGER, categories TEXT JSON list, brand TEXT, "
    "features TEXT JSON list, price REAL, price_band TEXT, store TEXT, keywords TEXT JSON "
    "list, description TEXT, aka TEXT JSON list, n_interactions INTEGER)"
)


def _declared(path: Path, table: str) -> list[tuple[str, str]]:
    with sqlite3.connect(path) as conn:
        return [(r[1], r[2]) for r in conn.execute(f"PRAGMA table_info({table})")]


def test_products_schema_columns_and_types(tmp_path: Path) -> None:
    path = tool_database(products(), tmp_path)
    schema = read_schema(path)
    assert schema.tables() == {
        "items": PRODUCT_ITEMS,
        "item_categories": "item_categories(item_id TEXT, category TEXT)",
        "interactions": "interactions(user_id TEXT, item_id TEXT, rating REAL, timestamp INTEGER)",
    }
    # Every price is one number: REAL; features: several on p1, a JSON list; the rest TEXT.
    assert _declared(path, "items")[3:9] == [
        ("categories", "TEXT"), ("brand", "TEXT"), ("features", "TEXT"), ("price", "REAL"),
        ("price_band", "TEXT"), ("store", "TEXT"),
    ]  # fmt: skip
    # The most common brand, and the median price 15.495 rounded.
    assert schema.example == "brand = 'Neutrogena' AND price < 15"
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT item_id, typeof(price), features, store FROM items ORDER BY item_id"
        ).fetchall()
        assert rows == [
            ("p1", "real", '["Oil-free", "Hyaluronic acid"]', "Neutrogena Store"),
            ("p2", "real", '["Water resistant"]', "Neutrogena Store"),
            ("p3", "real", '["Fragrance-free", "Non-greasy"]', "Galderma"),
            ("p4", "real", None, None),
        ]
        assert conn.execute("SELECT COUNT(*) FROM item_categories").fetchone() == (12,)
        assert conn.execute("SELECT COUNT(*) FROM interactions").fetchone() == (0,)


async def test_brand_and_price_condition_on_products(tmp_path: Path) -> None:
    tool = SqlQueryTool(tool_database(products(), tmp_path))
    text = await tool.run_text(
        "SELECT title FROM items WHERE brand = 'Neutrogena' AND price < 20 ORDER BY title"
    )
    # 8.49 is below 20 as a number (as text '8.49' > '20'); 24.50 is not; p3 is Cetaphil.
    assert text == "title\nHydro Boost Water Gel\nMakeup Remover Wipes"
    assert "over the product database" in tool.description
    assert PRODUCT_ITEMS in tool.description and "director" not in tool.description
    assert "interactions(" not in tool.description  # hidden, as for films


async def test_restaurant_columns(tmp_path: Path) -> None:
    path = tool_database(restaurants(), tmp_path)
    assert read_schema(path).tables()["items"] == (
        "items(item_id TEXT, title TEXT, year INTEGER, categories TEXT JSON list, "
        "ambience TEXT JSON list, city TEXT, neighborhood TEXT, price_range TEXT, stars REAL, "
        "state TEXT, keywords TEXT JSON list, description TEXT, aka TEXT JSON list, "
        "n_interactions INTEGER)"
    )
    text = await SqlQueryTool(path).run_text(
        "SELECT i.title FROM items i JOIN item_categories c USING (item_id) "
        "WHERE c.category = 'Pizza' AND stars >= 4.5"
    )
    assert text == "title\nPizzeria Bianco"


def test_films_keep_the_prepared_schema(tmp_path: Path) -> None:
    path = tool_database(demo_dataset(DataConfig()), tmp_path)
    assert read_schema(path) == FILM_SCHEMA
    with sqlite3.connect(":memory:") as conn:
        conn.executescript(SCHEMA)
        prepared = [(r[1], r[2]) for r in conn.execute("PRAGMA table_info(items)")]
    assert _declared(path, "items") == prepared
    assert _declared(path, "item_genres") == [("item_id", "TEXT"), ("genre", "TEXT")]
    # The text InteRecAgent's and RecMind's prompts were written against, word for word.
    assert TABLES == {
        "items": "items(item_id TEXT, title TEXT, year INTEGER, genres TEXT JSON list, "
        'director TEXT, "cast" TEXT JSON list, keywords TEXT JSON list, overview TEXT, '
        "aka TEXT JSON list, n_interactions INTEGER)",
        "item_genres": "item_genres(item_id TEXT, genre TEXT)",
        "interactions": "interactions(user_id TEXT, item_id TEXT, rating REAL, timestamp INTEGER)",
    }


def test_a_database_without_a_schema_row_is_read_as_films(film_db: Path, tmp_path: Path) -> None:
    assert read_schema(film_db) == FILM_SCHEMA  # written by hand in the MovieLens schema
    assert read_schema(tmp_path / "not-there.sqlite") == FILM_SCHEMA


def test_a_non_film_copy_is_named_apart_from_a_film_one(tmp_path: Path) -> None:
    """The same catalog as films and as products: two files, never one reused for the other
    (another domain's copy used to be written in the film columns)."""
    shop = products()
    as_films = dataclasses.replace(shop, domain=MOVIES)
    assert tool_database(shop, tmp_path) != tool_database(as_films, tmp_path)
    assert read_schema(tool_database(as_films, tmp_path)) == FILM_SCHEMA


def test_a_schema_naming_no_plain_identifier_is_refused(tmp_path: Path) -> None:
    """Names from a database's meta go into SQL text: a hostile one is one line."""
    bad = FILM_SCHEMA.model_dump(mode="json") | {"category_table": "x; DROP TABLE items"}
    path = tmp_path / "c.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
        db.execute("INSERT INTO meta VALUES (?, ?)", (SCHEMA_KEY, json.dumps(bad)))
    db.close()
    with pytest.raises(DataError, match="catalog schema is not valid"):
        read_schema(path)

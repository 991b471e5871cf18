"""The database the SQL tools read: the catalog alone, written once per dataset.

It holds items (with their interaction counts), the category table and meta, in the
catalog's schema (tools/schema.py: films the prepared MovieLens one, other domains a
column per attribute), and no interaction rows: users' histories contain the samples'
targets, and an authorizer cannot hide a table reliably (SQLite does not authorise the
columns of a `JOIN ... USING`), so the rows are simply not there. The demo dataset,
which has no database at all, gets one the same way. Named by the dataset fingerprint
and its popularity counts; whole or absent. Meta keeps the schema, so the tools that
are given the file describe its columns.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

from macrs_sim.data.dataset import DATABASE_FORMAT_VERSION, Dataset
from macrs_sim.data.domain import Domain
from macrs_sim.data.movielens.writer import INDEXES, SCHEMA
from macrs_sim.tools.attribute_columns import catalog_schema, cell
from macrs_sim.tools.schema import SCHEMA_KEY, CatalogSchema, is_film, sql_name

# Another domain's copy used to be written in the film columns: a new name, not that copy.
DOMAIN_LAYOUT = "columns-1"


def layout_tag(domain: Domain) -> str:
    """What a cache name of a copy of the catalog adds for its layout: films' never
    changed (their names stay as they were), another domain's names its columns' layout."""
    return "" if is_film(domain) else f"|{DOMAIN_LAYOUT}"


def _json(values: tuple[str, ...]) -> str:
    return json.dumps(list(values), ensure_ascii=False)


def _film_rows(conn: sqlite3.Connection, dataset: Dataset) -> None:
    conn.executescript(SCHEMA)
    for item in dataset.catalog:
        conn.execute(
            "INSERT INTO items VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                item.item_id, item.title, item.year, _json(item.genres), item.director,
                _json(item.cast), _json(item.keywords), item.overview, _json(item.aka),
                dataset.popularity.get(item.item_id, 0),
            ),
        )  # fmt: skip
        conn.executemany(
            "INSERT INTO item_genres VALUES (?, ?)", ((item.item_id, g) for g in item.genres)
        )
    conn.commit()
    conn.executescript(INDEXES)


def _domain_rows(conn: sqlite3.Connection, dataset: Dataset, schema: CatalogSchema) -> None:
    key = {"item_id": " PRIMARY KEY"}
    columns = ", ".join(f"{sql_name(c.name)} {c.type}{key.get(c.name, '')}" for c in schema.columns)
    conn.executescript(
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
        f"CREATE TABLE items ({columns});\n"
        "CREATE TABLE item_categories (item_id TEXT NOT NULL, category TEXT NOT NULL);\n"
        "CREATE TABLE interactions (user_id TEXT NOT NULL, item_id TEXT NOT NULL, "
        "rating REAL, timestamp INTEGER NOT NULL);"
    )
    insert = f"INSERT INTO items VALUES ({', '.join('?' * len(schema.columns))})"
    for item in dataset.catalog:
        fixed = (item.item_id, item.title, item.year, _json(item.categories))
        attributes = tuple(cell(c, item) for c in schema.attribute_columns)
        rest = (_json(item.keywords), item.description, _json(item.aka))
        count = dataset.popularity.get(item.item_id, 0)
        conn.execute(insert, (*fixed, *attributes, *rest, count))
        conn.executemany(
            "INSERT INTO item_categories VALUES (?, ?)",
            ((item.item_id, c) for c in dict.fromkeys(item.categories)),
        )
    conn.commit()
    conn.execute("CREATE INDEX item_categories_category ON item_categories(category)")


def _write(path: Path, dataset: Dataset) -> None:
    schema = catalog_schema(dataset)
    conn = sqlite3.connect(path)
    try:
        if schema.film:
            _film_rows(conn, dataset)
            meta = {"format_version": DATABASE_FORMAT_VERSION}
        else:  # not a prepared database of any format: the loaders refuse it
            _domain_rows(conn, dataset, schema)
            meta = {"domain": schema.domain}
        meta |= {"release": dataset.name, SCHEMA_KEY: schema.model_dump_json()}
        conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        conn.commit()
    finally:
        conn.close()


def tool_database(dataset: Dataset, cache_dir: Path) -> Path:
    """The catalog database of `dataset` under `cache_dir`, written on first use."""
    # The counts too: a campaign's copy counts popularity without its samples' targets.
    key = f"{dataset.fingerprint}|{json.dumps(sorted(dataset.popularity.items()))}"
    key += layout_tag(dataset.domain)
    path = cache_dir / f"catalog-{hashlib.sha256(key.encode()).hexdigest()[:16]}.sqlite"
    if path.is_file():
        return path
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        _write(tmp, dataset)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path

"""The database the SQL tools read: the catalog alone, written once per dataset.

It holds items (with their interaction counts), item_genres and meta, in the prepared
schema, and no interaction rows: users' histories contain the samples' targets, and an
authorizer cannot hide a table reliably (SQLite does not authorise the columns of a
`JOIN ... USING`), so the rows are simply not there. The demo dataset, which has no
database at all, gets one the same way. Named by the dataset fingerprint and its
popularity counts; whole or absent.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

from macrs_sim.data.dataset import DATABASE_FORMAT_VERSION, Dataset
from macrs_sim.data.movielens.writer import INDEXES, SCHEMA


def _json(values: tuple[str, ...]) -> str:
    return json.dumps(list(values), ensure_ascii=False)


def _write(path: Path, dataset: Dataset) -> None:
    conn = sqlite3.connect(path)
    try:
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
        meta = {"format_version": DATABASE_FORMAT_VERSION, "release": dataset.name}
        conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        conn.commit()
        conn.executescript(INDEXES)
    finally:
        conn.close()


def tool_database(dataset: Dataset, cache_dir: Path) -> Path:
    """The catalog database of `dataset` under `cache_dir`, written on first use."""
    # The counts too: a campaign's copy counts popularity without its samples' targets.
    counts = json.dumps(sorted(dataset.popularity.items()))
    digest = hashlib.sha256(f"{dataset.fingerprint}|{counts}".encode()).hexdigest()[:16]
    path = cache_dir / f"catalog-{digest}.sqlite"
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

"""The database the SQL tools read: the prepared file, or one written for the demo dataset.

The demo has no database (its users are synthesised in memory), so the same schema is
written once beside other caches, named by the dataset fingerprint, whole or not at all.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from pathlib import Path

from macrs_sim.config import DataConfig
from macrs_sim.data.dataset import DATABASE_FORMAT_VERSION, Dataset
from macrs_sim.data.movielens.writer import INDEXES, SCHEMA
from macrs_sim.data.users import synthesize_interactions


def _json(values: tuple[str, ...]) -> str:
    return json.dumps(list(values), ensure_ascii=False)


def _write(path: Path, dataset: Dataset, seed: int) -> None:
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
        rows = synthesize_interactions(dataset.catalog, seed=seed)
        conn.executemany(
            "INSERT INTO interactions VALUES (?, ?, NULL, ?)",
            ((r.user_id, r.item_id, r.timestamp) for r in rows),
        )
        meta = {"format_version": DATABASE_FORMAT_VERSION, "release": dataset.name}
        conn.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        conn.commit()
        conn.executescript(INDEXES)
    finally:
        conn.close()


def tool_database(cfg: DataConfig, dataset: Dataset, cache_dir: Path) -> Path:
    """The prepared database itself, or the demo's, written under `cache_dir` on first use."""
    if cfg.dataset != "demo":
        return Path(cfg.dataset)
    digest = hashlib.sha256(dataset.fingerprint.encode()).hexdigest()[:16]
    path = cache_dir / f"demo-{digest}.sqlite"
    if path.is_file():
        return path
    cache_dir.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        _write(tmp, dataset, cfg.seed)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path

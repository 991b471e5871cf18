"""RecMind's memory database: world knowledge (the catalog) and personalised memory.

The paper stores item metadata and users' interaction histories in one database that its
SQL tool reads. Here that is a copy of the toolkit's catalog database (tools/database.py)
plus a `user_ratings` table holding only what the caller says is visible: each user's
history with the held-out items already removed, so no query can reach a target. Written
once per (dataset, histories), named by their digest; whole or absent.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from collections.abc import Mapping, Sequence
from contextlib import closing
from pathlib import Path

from macrs_sim.data.dataset import Dataset
from macrs_sim.protocol import Sample
from macrs_sim.tools.database import tool_database
from macrs_sim.tools.sql import TABLES

# A user's visible history: (item id, rating or None), oldest first.
History = Sequence[tuple[str, float | None]]

USER_RATINGS = (
    "user_ratings(user_id TEXT, item_id TEXT, rating REAL (1-5, NULL when unknown), "
    "position INTEGER (1 = the user's oldest item))"
)
DATABASE_INFO = "; ".join([TABLES["items"], TABLES["item_genres"], USER_RATINGS])


def histories_digest(dataset: Dataset, histories: Mapping[str, History]) -> str:
    h = hashlib.sha256(dataset.fingerprint.encode() + b"\n")
    # The items table carries popularity, which a campaign counts without its targets.
    h.update(json.dumps(sorted(dataset.popularity.items())).encode() + b"\n")
    for user in sorted(histories):
        h.update(json.dumps([user, [list(p) for p in histories[user]]]).encode() + b"\n")
    return h.hexdigest()[:16]


def _add_histories(path: Path, histories: Mapping[str, History]) -> None:
    conn = sqlite3.connect(path)
    try:
        conn.execute(
            "CREATE TABLE user_ratings (user_id TEXT NOT NULL, item_id TEXT NOT NULL, "
            "rating REAL, position INTEGER NOT NULL)"
        )
        rows = [
            (user, item_id, rating, pos)
            for user in sorted(histories)
            for pos, (item_id, rating) in enumerate(histories[user], 1)
        ]
        conn.executemany("INSERT INTO user_ratings VALUES (?, ?, ?, ?)", rows)
        conn.execute("CREATE INDEX user_ratings_user ON user_ratings(user_id)")
        conn.execute("CREATE INDEX user_ratings_item ON user_ratings(item_id)")
        conn.commit()
    finally:
        conn.close()


def memory_database(dataset: Dataset, histories: Mapping[str, History], cache_dir: Path) -> Path:
    """The catalog plus `histories` as `user_ratings`, under `cache_dir` (written on first use)."""
    path = cache_dir / f"recmind-memory-{histories_digest(dataset, histories)}.sqlite"
    if path.is_file():
        return path
    catalog = tool_database(dataset, cache_dir)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        shutil.copyfile(catalog, tmp)
        _add_histories(tmp, histories)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def default_memory_dir() -> Path:
    """Where memory databases go when the caller names no folder (the user cache)."""
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "macrs-sim" / "recmind"


def sample_histories(samples: Sequence[Sample], database: Path | None) -> dict[str, History]:
    """Each sample's visible history with the user's ratings from `database` (None: no
    ratings, as in the demo). A user with several samples keeps the shortest history, so
    no sample's target is visible through another."""
    chosen: dict[str, Sample] = {}
    for s in samples:
        if s.user_id not in chosen or len(s.history) < len(chosen[s.user_id].history):
            chosen[s.user_id] = s
    ratings = _ratings(database, sorted(chosen)) if database is not None else {}
    return {user: [(i, ratings.get((user, i))) for i in s.history] for user, s in chosen.items()}


def _ratings(database: Path, users: Sequence[str]) -> dict[tuple[str, str], float | None]:
    out: dict[tuple[str, str], float | None] = {}
    with closing(sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)) as conn:
        for user in users:
            sql = "SELECT item_id, rating FROM interactions WHERE user_id = ? ORDER BY timestamp"
            for item_id, rating in conn.execute(sql, (user,)):
                out[(user, str(item_id))] = None if rating is None else float(rating)
    return out

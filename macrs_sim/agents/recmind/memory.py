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
    """Each sample user's pre-target window (`Sample.system_history`: their own items before
    the target, unfiltered, oldest first; DESIGN.md §3) with the ratings they gave them, read
    from `database` (None: no ratings, as in the demo). A user with several samples keeps
    the shortest window, so no sample's target is visible through another."""
    chosen: dict[str, Sample] = {}
    for s in samples:
        if s.user_id not in chosen or len(s.system_history) < len(chosen[s.user_id].system_history):
            chosen[s.user_id] = s
    ratings = _ratings(database, chosen) if database is not None else {}
    out: dict[str, History] = {}
    for user, s in chosen.items():
        window = s.system_history
        out[user] = list(zip(window, ratings.get(user, [None] * len(window)), strict=True))
    return out


_RATINGS_SQL = (
    "SELECT item_id, rating FROM interactions WHERE user_id = ? ORDER BY timestamp, rowid"
)


def _ratings(database: Path, chosen: Mapping[str, Sample]) -> dict[str, list[float | None]]:
    """Per user, the rating of each item of the sample's window as given at that point of
    the user's record: only rows before the target count (the order the dataset's windows
    are cut in), so a rating given again after the target never shows."""
    out: dict[str, list[float | None]] = {}
    with closing(sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)) as conn:
        for user in sorted(chosen):
            s = chosen[user]
            rows = [(str(i), None if r is None else float(r))
                    for i, r in conn.execute(_RATINGS_SQL, (user,))]  # fmt: skip
            cut = next((n for n, (i, _) in enumerate(rows) if i == s.target_id), len(rows))
            out[user] = _matched(s.system_history, rows[:cut])
    return out


def _matched(
    history: Sequence[str], rows: Sequence[tuple[str, float | None]]
) -> list[float | None]:
    """Each history item's rating at its next occurrence in `rows` (time order): position by
    position for the window itself, in order for a sample set's older filtered list; None
    for an item the rows do not show there."""
    ratings: list[float | None] = []
    at = 0
    for item in history:
        found = next((n for n in range(at, len(rows)) if rows[n][0] == item), None)
        if found is None:
            ratings.append(None)
            continue
        ratings.append(rows[found][1])
        at = found + 1
    return ratings

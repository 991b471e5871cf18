"""RecMind's memory database: world knowledge (the catalog) and personalised memory.

The paper stores item metadata and "the interaction history of all the users" (§4.1) in
one database that its SQL tool reads: "the average rating of this item" is a question for
it. Here that is a copy of the toolkit's catalog database (tools/database.py) plus a
`user_ratings` table holding every user's visible interactions: the training part of the
split in use (offline: leave-one-out, every user's last item held out; campaign: the
campaign split, each sample's target and what follows it held out), so no query can reach
a target. Written once per (dataset, histories, the catalog copy's layout), named by their
digest; whole or absent.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
from collections import defaultdict
from collections.abc import Mapping, Sequence
from contextlib import closing
from pathlib import Path

from macrs_sim.data.dataset import Dataset
from macrs_sim.data.splits import Interactions, campaign_split, leave_one_out
from macrs_sim.protocol import Sample
from macrs_sim.tools.database import layout_tag, tool_database
from macrs_sim.tools.schema import read_schema
from macrs_sim.tools.sql import TABLES

# A user's visible history: (item id, rating or None), oldest first.
History = Sequence[tuple[str, float | None]]

USER_RATINGS = (
    "user_ratings(user_id TEXT, item_id TEXT, rating REAL (1-5, NULL when unknown), "
    "position INTEGER (1 = the user's oldest item))"
)
DATABASE_INFO = "; ".join([TABLES["items"], TABLES["item_genres"], USER_RATINGS])


def database_info(database: Path) -> str:
    """The memory database's tables as its SQL tool is told them: the catalog's own
    (DATABASE_INFO for films; brand, price ... for products) and user_ratings."""
    return "; ".join([*read_schema(database).catalog_tables(), USER_RATINGS])


def histories_digest(dataset: Dataset, histories: Mapping[str, History]) -> str:
    h = hashlib.sha256(dataset.fingerprint.encode() + b"\n")
    # The copied catalog's layout: another domain's memory once held the film columns.
    h.update(layout_tag(dataset.domain).encode())
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


def read_ratings(data: Interactions) -> dict[str, tuple[float | None, ...]]:
    """Every user's ratings aligned with `data.sequences` (position i rates item i), read
    from the prepared database in the order `data.splits` reads the sequences (user, time,
    file order; items outside the catalog skipped). {} for a dataset without a database
    (the demo's synthetic users rate nothing). sqlite3 errors are the caller's to word."""
    if data.database is None:
        return {}
    known = set(data.item_ids)
    out: dict[str, list[float | None]] = defaultdict(list)
    uri = f"{data.database.resolve().as_uri()}?mode=ro"
    with closing(sqlite3.connect(uri, uri=True)) as conn:
        for user, item, rating in conn.execute(_RATINGS_SQL):
            if str(item) in known:
                out[str(user)].append(None if rating is None else float(rating))
    return {u: tuple(r) for u, r in out.items()}


def leave_one_out_visible(data: Interactions) -> dict[str, tuple[int, ...]]:
    """Offline (leave-one-out): every user's sequence without its test target, the last
    item, whether or not the user is asked; a user with fewer than 3 items has no test
    case and keeps all. The same for every --users, so memory never depends on it."""
    visible = dict(data.sequences)
    visible |= {case.user_id: case.history for case in leave_one_out(data).test}
    return visible


def campaign_visible(data: Interactions, samples: Sequence[Sample]) -> dict[str, tuple[int, ...]]:
    """Campaign: every user's sequence up to each sample's target (the campaign split's
    training part and its validation item), nothing of the target and what follows."""
    split = campaign_split(data, samples)
    visible = dict(split.train)
    visible |= {case.user_id: (*case.history, case.target) for case in split.validation}
    return visible


def memory_histories(
    data: Interactions,
    visible: Mapping[str, Sequence[int]],
    ratings: Mapping[str, Sequence[float | None]],
) -> dict[str, History]:
    """Personal memory: each user's visible prefix as (item id, rating or None), oldest
    first; `ratings` aligned with `data.sequences` (missing: no ratings)."""
    out: dict[str, History] = {}
    for user in sorted(visible):
        seq = visible[user]
        rated = ratings.get(user, ())
        out[user] = [(data.item_ids[i], rated[n] if n < len(rated) else None)
                     for n, i in enumerate(seq)]  # fmt: skip
    return out


_RATINGS_SQL = (
    "SELECT user_id, item_id, rating FROM interactions ORDER BY user_id, timestamp, rowid"
)

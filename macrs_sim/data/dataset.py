"""A dataset: catalog, item popularity, and each user's chronological interactions.

Two sources: the bundled demo (films written for the package, synthetic users)
and a database prepared from a download (`data prepare <kind>`: MovieLens, Amazon
Reviews, Yelp, Steam or a registered kind), in format 1 (MovieLens only, film columns)
or 2 (any domain: data/prepared/writer.py).
Sample construction only ever needs each user's first few interactions, so the
database is queried for those prefixes, never loaded whole.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Mapping
from contextlib import closing, contextmanager
from dataclasses import dataclass
from pathlib import Path

from macrs_sim.config import DataConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.domain import MOVIES, Domain
from macrs_sim.data.users import synthesize_interactions
from macrs_sim.errors import ConfigError, DataError
from macrs_sim.protocol import Item

# Format 1: MovieLens only, film columns (still what the SQL tools' catalog copy uses).
DATABASE_FORMAT_VERSION = "1"
_READABLE_FORMATS = ("1", "2")
_HINT = "make one with `macrs-sim data prepare <kind> PATH` (kinds: `data prepare --help`)"


@dataclass(frozen=True)
class Dataset:
    name: str
    # Identifies the data a sample set was drawn from (name, sizes, catalog digest).
    fingerprint: str
    catalog: Catalog
    popularity: Mapping[str, int]
    n_users: int
    n_interactions: int
    _prefixes: Callable[[int], dict[str, list[str]]]
    # Every user's whole sequence; None for a dataset made by hand with prefixes only.
    _sequences: Callable[[], dict[str, list[str]]] | None = None
    # The items' domain (their noun, the attributes people name); films unless a prepared
    # database of another kind says otherwise. Last, so positional callers are unchanged.
    domain: Domain = MOVIES

    def prefixes(self, length: int) -> dict[str, list[str]]:
        """First `length` items of each user who has that many, in time order (ties: file order)."""
        return self._prefixes(length)

    def sequences(self) -> dict[str, list[str]]:
        """Each user's items, all of them, in time order (`data.target = "last"` needs them)."""
        if self._sequences is None:
            raise DataError(f"dataset {self.name}: holds no whole user sequences")
        return self._sequences()


def catalog_digest(catalog: Catalog) -> str:
    h = hashlib.sha256()
    for item in catalog:
        h.update(f"{item.item_id}\t{item.display_title}\n".encode())
    return h.hexdigest()[:16]


def demo_dataset(cfg: DataConfig) -> Dataset:
    catalog = Catalog.from_jsonl(Path(cfg.catalog)) if cfg.catalog else Catalog.demo()
    rows = synthesize_interactions(catalog, seed=cfg.seed)
    by_user: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for r in rows:
        by_user[r.user_id].append((r.timestamp, r.item_id))
    ordered = {u: [i for _, i in sorted(seq, key=lambda p: p[0])] for u, seq in by_user.items()}
    counts = Counter(r.item_id for r in rows)

    def prefixes(length: int) -> dict[str, list[str]]:
        return {u: seq[:length] for u, seq in ordered.items() if len(seq) >= length}

    name = "demo" if cfg.catalog is None else f"demo:{cfg.catalog}"
    return Dataset(
        name=name,
        fingerprint=f"{name}|seed={cfg.seed}|{catalog_digest(catalog)}",
        catalog=catalog,
        popularity={item.item_id: counts.get(item.item_id, 0) for item in catalog},
        n_users=len(by_user),
        n_interactions=len(rows),
        _prefixes=prefixes,
        _sequences=lambda: {u: list(seq) for u, seq in ordered.items()},
    )


def _item(row: sqlite3.Row) -> Item:
    if "attributes" in row.keys():  # noqa: SIM118 (`in row` would look among the values)
        return Item.model_validate(
            {
                "item_id": row["item_id"],
                "title": row["title"],
                "year": row["year"],
                "categories": json.loads(row["categories"]),
                "attributes": json.loads(row["attributes"]),
                "keywords": json.loads(row["keywords"]),
                "description": row["description"],
                "aka": json.loads(row["aka"]),
            }
        )
    return Item.model_validate(
        {
            "item_id": row["item_id"],
            "title": row["title"],
            "year": row["year"],
            "categories": json.loads(row["genres"]),
            "attributes": {"director": row["director"], "cast": json.loads(row["cast"])},
            "keywords": json.loads(row["keywords"]),
            "description": row["overview"],
            "aka": json.loads(row["aka"]),
        }
    )


def read_only(path: Path) -> sqlite3.Connection:
    """A prepared database, read-only and immutable: nothing is ever written beside the
    file (no -wal, -shm or journal), whatever file it is (a run store in WAL mode given by
    mistake). Prepared databases are never changed in place (`prepare` renames a new one in)."""
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True)


def _connect(path: Path) -> sqlite3.Connection:
    hint = _HINT
    if not path.is_file():
        raise DataError(f"data.dataset: {path}: no such database; {hint}")
    conn = read_only(path)
    conn.row_factory = sqlite3.Row
    try:
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.DatabaseError:
        conn.close()
        raise DataError(f"data.dataset: {path}: not a prepared dataset database; {hint}") from None
    if "schema_version" in meta and "format_version" not in meta:
        conn.close()
        raise DataError(
            f"data.dataset: {path}: a macrs-sim run store, not a dataset database; {hint}"
        )
    if meta.get("format_version") not in _READABLE_FORMATS:
        conn.close()
        raise DataError(
            f"data.dataset: {path}: database format {meta.get('format_version')!r}, "
            f"expected one of {', '.join(map(repr, _READABLE_FORMATS))}; prepare it again "
            "with this version"
        )
    return conn


@contextmanager
def _readable(path: Path) -> Iterator[None]:
    """A damaged file (pages overwritten, truncated) or rows of the wrong shape: one line."""
    try:
        yield
    except sqlite3.DatabaseError as err:
        raise DataError(
            f"data.dataset: {path}: damaged database ({err}); prepare it again with "
            f"`macrs-sim data prepare {_kind_hint(path)} PATH --overwrite`"
        ) from None
    except (KeyError, IndexError, TypeError, ValueError) as err:
        raise DataError(
            f"data.dataset: {path}: not a prepared dataset database ({type(err).__name__}: "
            f"{err}); prepare it again with this version"
        ) from None


def database_dataset(path: Path) -> Dataset:
    conn = _connect(path)
    try:
        with _readable(path):
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            rows = conn.execute("SELECT * FROM items ORDER BY rowid").fetchall()
            if not rows:
                raise DataError(f"data.dataset: {path}: the database holds no items")
            catalog = Catalog([_item(r) for r in rows])
            popularity = {r["item_id"]: int(r["n_interactions"]) for r in rows}
            n_users = conn.execute("SELECT COUNT(DISTINCT user_id) FROM interactions").fetchone()
            n_inter = conn.execute("SELECT COUNT(*) FROM interactions").fetchone()[0]
    finally:
        conn.close()

    def prefixes(length: int) -> dict[str, list[str]]:
        with _readable(path), closing(read_only(path)) as c:
            rows = c.execute(_PREFIX_SQL, (length,)).fetchall()
        out: dict[str, list[str]] = defaultdict(list)
        for user_id, item_id in rows:
            out[user_id].append(item_id)
        return {u: seq for u, seq in out.items() if len(seq) >= length}

    name = meta.get("release", path.stem)
    domain = _domain(path, meta.get("kind"))
    return Dataset(
        name=name,
        fingerprint=f"{name}|{len(catalog)} items|{n_inter} interactions|{catalog_digest(catalog)}",
        catalog=catalog,
        popularity=popularity,
        n_users=int(n_users[0]),
        n_interactions=int(n_inter),
        _prefixes=prefixes,
        _sequences=lambda: _whole(path),
        domain=domain,
    )


def _domain(path: Path, kind: str | None) -> Domain:
    from macrs_sim.data.registry import domain_of

    try:
        return domain_of(kind)
    except ConfigError as err:
        raise DataError(
            f"data.dataset: {path}: {err}; install the package that registers it"
        ) from None


def _kind_hint(path: Path) -> str:
    """The kind a (damaged) database was prepared from, where its meta can still be read."""
    try:
        with closing(read_only(path)) as c:
            found = c.execute("SELECT value FROM meta WHERE key = 'kind'").fetchone()
    except sqlite3.Error:
        found = None
    return str(found[0]) if found else "movielens"


def _whole(path: Path) -> dict[str, list[str]]:
    """Every user's items in time order: the prefix query with no cut."""
    with _readable(path), closing(read_only(path)) as c:
        rows = c.execute(_PREFIX_SQL, (2**62,)).fetchall()
    out: dict[str, list[str]] = defaultdict(list)
    for user_id, item_id in rows:
        out[user_id].append(item_id)
    return dict(out)


# rowid breaks timestamp ties in file order, so the order is the same on every machine.
_PREFIX_SQL = """
SELECT user_id, item_id FROM (
  SELECT user_id, item_id, timestamp, rowid AS r,
         ROW_NUMBER() OVER (PARTITION BY user_id ORDER BY timestamp, rowid) AS n
  FROM interactions)
WHERE n <= ? ORDER BY user_id, n
"""


def open_dataset(cfg: DataConfig) -> Dataset:
    if cfg.dataset == "demo":
        return demo_dataset(cfg)
    return database_dataset(Path(cfg.dataset))

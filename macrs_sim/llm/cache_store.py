"""The SQLite file behind the response cache (`macrs_sim.llm.cache`).

WAL and a 30 s busy timeout let several processes (Ray actors) share one file.
Reads run on the caller's thread: a primary-key lookup in WAL mode never waits
for a writer and costs far less than a hop to a thread, which, with the event
loop busy running dialogues, waits for the GIL. Writes are batched to one worker
thread, so a commit (or another process holding the write lock) never stalls the
loop; until its batch commits, an entry is answered from memory.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from autogen_core.models import CreateResult

CACHE_FILE = "llm_cache.sqlite"
_TABLE = (
    "CREATE TABLE IF NOT EXISTS responses"
    " (key TEXT PRIMARY KEY, result TEXT NOT NULL, created REAL NOT NULL)"
)
BATCH_SIZE = 64  # entries per commit...
BATCH_AGE_S = 1.0  # ...or fewer, once the oldest has waited this long
# SQLite answers "database is locked" without waiting out the busy timeout in a few races
# (two connections setting up a new file, a WAL snapshot gone stale): tried again, backing
# off from 50 ms, before the cache gives up.
LOCK_ATTEMPTS = 6
_log = logging.getLogger(__name__)
T = TypeVar("T")


def when_unlocked(work: Callable[[], T], *, attempts: int = LOCK_ATTEMPTS) -> T:
    """`work()`, tried again while SQLite says the database is locked or busy."""
    for attempt in range(attempts):
        try:
            return work()
        except sqlite3.OperationalError as err:
            locked = "locked" in str(err) or "busy" in str(err)
            if not locked or attempt == attempts - 1:
                raise
            time.sleep(0.05 * 2**attempt)
    raise AssertionError("unreachable")


class ResponseCache:
    """key -> CreateResult in one SQLite file that several processes may share."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._reader: sqlite3.Connection | None = None  # both opened on first use
        self._writer: sqlite3.Connection | None = None
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="llm-cache")
        self._lock = threading.Lock()  # guards the two dicts below against the worker
        self._batch: dict[str, tuple[str, float]] = {}  # not yet handed to the worker
        self._unwritten: dict[str, tuple[str, float]] = {}  # handed over, not committed yet
        self._batch_started = 0.0
        self._closed = False
        # Set, with one warning, when the file turns out unusable (damaged, not a database,
        # its folder not writable): the campaign then runs without a cache.
        self.broken: str | None = None

    def get(self, key: str) -> CreateResult | None:
        """The stored reply, marked cached=True; None on a miss (and once the file is broken)."""
        if self.broken is not None:
            return None
        with self._lock:
            entry = self._batch.get(key) or self._unwritten.get(key)
        try:
            text = entry[0] if entry else self._select(key)
            if text is None:
                return None
            return CreateResult.model_validate_json(text).model_copy(update={"cached": True})
        except (sqlite3.Error, OSError, ValueError) as err:  # ValueError: a mangled entry
            self._give_up(err)
            return None

    def put(self, key: str, result: CreateResult) -> None:
        """Store a reply (committed in the background, in batches); ignored once closed."""
        if self._closed or self.broken is not None:
            return
        now = time.time()
        with self._lock:
            if not self._batch:
                self._batch_started = now
            self._batch.setdefault(key, (result.model_dump_json(), now))
            if len(self._batch) >= BATCH_SIZE or now - self._batch_started >= BATCH_AGE_S:
                self._hand_over()

    def flush(self) -> None:
        """Block until every reply put so far is committed."""
        if not self._closed:
            with self._lock:
                self._hand_over()
            self._worker.submit(lambda: None).result()  # after every batch: one thread

    def close(self) -> None:
        """Write what is pending and close the file; idempotent, final."""
        if self._closed:
            return
        self.flush()
        self._closed = True
        self._worker.submit(self._close_writer).result()
        self._worker.shutdown()
        if self._reader is not None:
            self._reader.close()

    def _hand_over(self) -> None:
        batch, self._batch = self._batch, {}
        if batch:
            self._unwritten.update(batch)
            self._worker.submit(self._write, batch)

    def _select(self, key: str) -> str | None:
        if self._reader is None:
            self._reader = when_unlocked(self._connect)
        row = self._reader.execute("SELECT result FROM responses WHERE key = ?", (key,))
        found = row.fetchone()
        return None if found is None else str(found[0])

    def _write(self, batch: dict[str, tuple[str, float]]) -> None:
        rows = [(k, text, created) for k, (text, created) in batch.items()]

        def commit() -> None:
            if self._writer is None:
                self._writer = self._connect()
            with self._writer as db:  # one transaction, committed here
                db.executemany("INSERT OR IGNORE INTO responses VALUES (?, ?, ?)", rows)

        try:
            when_unlocked(commit)
        except (sqlite3.Error, OSError) as err:  # the cache only saves work: a lost entry
            self._give_up(err)  # is a re-call
        finally:
            with self._lock:
                for k in batch:
                    self._unwritten.pop(k, None)

    def _give_up(self, err: BaseException) -> None:
        """Warn once, then behave as if there were no cache."""
        with self._lock:
            if self.broken is not None:
                return
            self.broken = " ".join(str(err).split()) or type(err).__name__
            self._batch.clear()
        _log.warning(
            "response cache %s unusable (%s): running without the cache", self.path, self.broken
        )

    def _connect(self) -> sqlite3.Connection:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        # check_same_thread off: close() may run on another thread than the one that read.
        conn = sqlite3.connect(self.path, timeout=30.0, check_same_thread=False)
        try:
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute("PRAGMA journal_mode = WAL")  # readers never wait for the writer
            conn.execute("PRAGMA synchronous = NORMAL")  # a lost entry is only a re-call
            conn.execute(_TABLE)
        except sqlite3.Error:
            conn.close()
            raise
        return conn

    def _close_writer(self) -> None:
        if self._writer is not None:
            self._writer.close()

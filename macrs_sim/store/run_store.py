"""The run store: one SQLite file per run holding samples, dialogues, turns, model and tool calls.

Dialogues are written whole (dialogue + turns + calls in one transaction), so an
interrupted campaign never leaves a half-written dialogue behind and the dialogues stored
are a safe resume point (samples.py: the jobs still to run). The file's format is
format.py's: opening a format 1 store rewrites it as format 2 once, or, where the
file cannot be written, reads it as it is through the same table names.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import macrs_sim.store.samples as paged
from macrs_sim.errors import DataError
from macrs_sim.protocol import DialogueResult, LLMCallRecord, Sample, ToolCallRecord
from macrs_sim.store.format import (
    FORMAT,
    SCHEMA,
    calls_in_dialogue_order,
    count_sql,
    store_format,
    upgraded,
)
from macrs_sim.store.opening import checked_format, has_tool_table, read_only_mode, writable
from macrs_sim.store.read import (
    StoredEvent,
    call,
    check_meta,
    decode_rows,
    event,
    integrity_problem,
)
from macrs_sim.store.rows import (
    CALL_COLS,
    JSON_DICT,
    TOOL_COLS,
    insert_calls,
    insert_dialogue,
    insert_tool_calls,
    read_results,
    set_meta,
    tool_record,
)
from macrs_sim.store.stream import iter_results

SCHEMA_VERSION = FORMAT
STORE_FILE = "store.sqlite"  # a run directory's store (campaign.rundir lays the directory out)


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    # Autocommit mode: transactions are opened explicitly in `_transaction`.
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode={mode}", uri=True, isolation_level=None)
    conn.row_factory = sqlite3.Row
    return conn


class RunStore:
    def __init__(self, path: Path, conn: sqlite3.Connection, read_only: bool = False) -> None:
        self.path = path
        self._conn = conn
        self._tool_table = True  # False only for a format 1 store from before tool calls
        self.format = FORMAT  # "1" only for a format 1 store that could not be rewritten
        self.read_only = read_only  # opened read-only: a store that cannot be written
        if not read_only:
            conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA foreign_keys=ON")

    @classmethod
    def create(cls, path: Path | str) -> RunStore:
        path = Path(path)
        if path.exists():
            raise DataError(f"{path}: already exists; a run store is only created once")
        path.parent.mkdir(parents=True, exist_ok=True)
        store = cls(path, _connect(path, "rwc"))
        # One transaction: a store has its whole schema and version, or nothing.
        store._conn.executescript(
            f"BEGIN; {SCHEMA}"
            f" INSERT INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}'); COMMIT;"
        )
        return store

    @classmethod
    def open(cls, path: Path | str, *, check: bool = True) -> RunStore:
        """The store at `path`; `check=False` skips the page check (quick_check reads every
        page: seconds at a million dialogues) for a store this process checked already.
        A store that cannot be written (its file or folder) is read as it is, read-only."""
        path = Path(path)
        if not path.is_file():
            raise DataError(f"{path}: not a macrs-sim run store (no such file)")
        read_only = not writable(path)
        # mode=rw never creates a file; validate before any PRAGMA writes to it.
        conn = _connect(path, read_only_mode(path) if read_only else "rw")
        try:
            version = checked_format(path, conn, check)
            tool_table = version != "1" or (not read_only and upgraded(path, conn))
            if version == "1" and read_only:
                tool_table = has_tool_table(conn)
            store = cls(path, conn, read_only)
        except DataError:
            conn.close()
            raise
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise DataError(f"{path}: run store cannot be opened ({exc})") from None
        store._tool_table = tool_table
        store.format = store_format(conn) or FORMAT
        return store

    @staticmethod
    def is_blank(path: Path | str) -> bool:
        """True for a file with no tables at all: a run killed while creating its store."""
        try:
            conn = _connect(Path(path), "rw")
            try:
                return int(conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()[0]) == 0
            finally:
                conn.close()
        except sqlite3.DatabaseError:
            return False

    def integrity_problem(self) -> str | None:
        """None when SQLite finds the file sound, else its first complaint."""
        return integrity_problem(self._conn)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._conn.execute("BEGIN")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")

    def set_meta(self, key: str, value: str) -> None:
        with self._transaction() as conn:
            conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def delete_meta(self, key: str) -> None:
        with self._transaction() as conn:
            conn.execute("DELETE FROM meta WHERE key = ?", (key,))

    def all_meta(self) -> dict[str, str]:
        rows = self._conn.execute("SELECT key, value FROM meta ORDER BY key")
        pairs = decode_rows(self.path, "meta", rows, lambda r: r[0], lambda r: (r[0], r[1]))
        return {k: check_meta(self.path, k, str(v)) for k, v in pairs}

    def get_meta(self, key: str) -> str | None:
        rows = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,))
        found = list(decode_rows(self.path, "meta", rows, lambda _: key, lambda r: str(r[0])))
        return check_meta(self.path, key, found[0]) if found else None

    def log_event(self, kind: str, payload: dict[str, Any]) -> None:
        with self._transaction() as conn:
            conn.execute(
                "INSERT INTO events (ts, kind, json) VALUES (?, ?, ?)",
                (time.time(), kind, JSON_DICT.dump_json(payload).decode()),
            )

    def read_events(self, kind: str | None = None) -> list[StoredEvent]:
        where, args = (" WHERE kind = ?", (kind,)) if kind is not None else ("", ())
        rows = self._conn.execute(f"SELECT id, ts, kind, json FROM events{where} ORDER BY id", args)
        return list(decode_rows(self.path, "events", rows, lambda r: r["id"], event))

    def write_samples(self, samples: Sequence[Sample]) -> None:
        """Add samples, all or nothing; a sample_id already present raises ValueError."""
        rows = [(s.sample_id, s.model_dump_json()) for s in samples]
        try:
            with self._transaction() as conn:
                conn.executemany("INSERT INTO samples (sample_id, json) VALUES (?, ?)", rows)
        except sqlite3.IntegrityError as exc:
            raise ValueError(f"samples not written: {exc}") from None

    def read_samples(self) -> list[Sample]:
        return list(self.iter_samples())

    def iter_samples(self, sample_id: str | None = None) -> Iterator[Sample]:
        """The stored samples (or the one of `sample_id`) in the order written."""
        where, args = (" WHERE sample_id = ?", (sample_id,)) if sample_id is not None else ("", ())
        rows = self._conn.execute(
            f"SELECT sample_id, json FROM samples{where} ORDER BY rowid", args
        )
        return decode_rows(
            self.path,
            "samples",
            rows,
            lambda r: r["sample_id"],
            lambda r: Sample.model_validate_json(r["json"]),
        )

    def read_sample(self, sample_id: str) -> Sample | None:
        return next(self.iter_samples(sample_id), None)

    @property
    def pages(self) -> paged.SamplePages:
        """Samples and jobs a page at a time, and the counts a campaign sizes itself by."""
        return paged.SamplePages(self._conn, self.path)

    def write_dialogue(
        self,
        result: DialogueResult,
        calls: Sequence[LLMCallRecord],
        meta: Mapping[str, str] | None = None,
        tool_calls: Sequence[ToolCallRecord] = (),
    ) -> None:
        """Write a dialogue, its turns, its model and tool calls (and `meta` keys), all or
        nothing."""
        try:
            with self._transaction() as conn:
                insert_dialogue(conn, result, calls)
                insert_tool_calls(conn, tool_calls)
                set_meta(conn, meta or {})
        except sqlite3.IntegrityError as exc:
            raise ValueError(f"dialogue {result.dialogue_id} not written: {exc}") from None

    def write_prepared(
        self,
        samples: Sequence[Sample],
        calls: Sequence[LLMCallRecord],
        dialogues: Sequence[DialogueResult] = (),
        meta: Mapping[str, str] | None = None,
    ) -> None:
        """Prepared samples (replacing stored ones of the same id) with the calls that
        prepared them, the error dialogues of those that could not be (and `meta` keys), all
        or nothing: a run killed in between neither loses the samples nor records a call
        twice (`calls` are those made since the last write, which may include calls for
        samples prepared next: they were made, and are kept as made)."""
        rows = [(s.sample_id, s.model_dump_json()) for s in samples]
        try:
            with self._transaction() as conn:
                # An upsert keeps a re-prepared sample's rowid: the order jobs run in.
                conn.executemany(
                    "INSERT INTO samples (sample_id, json) VALUES (?, ?)"
                    " ON CONFLICT (sample_id) DO UPDATE SET json = excluded.json",
                    rows,
                )
                insert_calls(conn, calls)
                for result in dialogues:
                    insert_dialogue(conn, result, ())
                set_meta(conn, meta or {})
        except sqlite3.IntegrityError as exc:
            raise ValueError(f"samples not written: {exc}") from None

    def delete_error_dialogues(self) -> int:
        """Remove every dialogue stored as an error (samples.py), in one transaction."""
        with self._transaction() as conn:
            return paged.delete_error_dialogues(conn)

    def uncached_usage(self) -> list[tuple[str, int, int]]:
        """(model, prompt tokens, completion tokens) of calls that reached a backend."""
        rows = self._conn.execute(
            "SELECT model, SUM(prompt_tokens), SUM(completion_tokens) FROM llm_calls"
            " WHERE cached = 0 GROUP BY model ORDER BY model"
        )
        return [(str(r[0]), int(r[1]), int(r[2])) for r in rows]

    def write_calls(
        self,
        calls: Sequence[LLMCallRecord],
        meta: Mapping[str, str] | None = None,
        tool_calls: Sequence[ToolCallRecord] = (),
    ) -> None:
        """Record calls not tied to a written dialogue (e.g. sample building)."""
        with self._transaction() as conn:
            insert_calls(conn, calls)
            insert_tool_calls(conn, tool_calls)
            set_meta(conn, meta or {})

    def settle_in_flight(self, key: str) -> int:
        """Turn the usage a stopped session last recorded under meta `key` (calls of
        dialogues it had in flight, {model: [prompt, completion]}) into call records
        without a dialogue, once. Returns the tokens settled."""
        value = self.get_meta(key)
        usage: dict[str, list[int]] = json.loads(value) if value else {}
        calls = [
            LLMCallRecord(
                dialogue_id=None,
                system=None,
                role="in_flight_when_stopped",
                turn=None,
                model=model,
                prompt_tokens=p,
                completion_tokens=c,
            )  # fmt: skip
            for model, (p, c) in sorted(usage.items())
            if p or c
        ]
        with self._transaction() as conn:
            insert_calls(conn, calls)
            conn.execute("DELETE FROM meta WHERE key = ?", (key,))
        return sum(c.prompt_tokens + c.completion_tokens for c in calls)

    def read_results(self, system: str | None = None) -> list[DialogueResult]:
        return read_results(self._conn, self.path, system)

    def iter_results(
        self, system: str | None = None, ids: Sequence[str] | None = None, upto: int | None = None
    ) -> Iterator[DialogueResult]:
        """The dialogues one at a time, in the order written (bounded memory); `upto`: none
        stored after the dialogue of that rowid."""
        return iter_results(self._conn, self.path, system, ids, upto)

    @contextmanager
    def snapshot(self) -> Iterator[RunStore]:
        """One read transaction: every query inside sees the store as it was when the
        first one ran, while a campaign goes on writing."""
        self._conn.execute("BEGIN")
        try:
            yield self
        finally:
            self._conn.execute("COMMIT")

    def last_rowids(self) -> tuple[int, int]:
        """The last rowid of `dialogues` and the last id of `llm_calls` (0 when empty)."""
        last = (
            "SELECT (SELECT COALESCE(MAX(rowid), 0) FROM dialogues),"
            " (SELECT COALESCE(MAX(id), 0) FROM llm_calls)"
        )
        row = self._conn.execute(last).fetchone()
        return int(row[0]), int(row[1])

    def count_dialogues(self) -> int:
        return int(self._conn.execute("SELECT COUNT(*) FROM dialogues").fetchone()[0])

    def query(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        """A read query over the store's tables, for aggregates the analysis computes in SQL."""
        return self._conn.execute(sql, args)

    def query_tuples(self, sql: str, args: Sequence[Any] = ()) -> sqlite3.Cursor:
        """`query` whose rows are plain tuples (no sqlite3.Row): for scans of millions of rows."""
        cursor = self._conn.cursor()
        cursor.row_factory = None
        return cursor.execute(sql, args)

    def finished_dialogue_ids(self) -> set[str]:
        return {r["dialogue_id"] for r in self._conn.execute("SELECT dialogue_id FROM dialogues")}

    def count_errors(self) -> int:
        """Dialogues stored as errors."""
        row = self._conn.execute("SELECT COUNT(*) FROM dialogues WHERE status = 'error'")
        return int(row.fetchone()[0])

    def read_calls(self) -> list[LLMCallRecord]:
        rows = self._conn.execute(f"SELECT id, {CALL_COLS} FROM llm_calls ORDER BY id")
        return list(decode_rows(self.path, "llm_calls", rows, lambda r: r["id"], call))

    def read_tool_calls(self) -> list[ToolCallRecord]:
        if not self._tool_table:
            return []
        rows = self._conn.execute(f"SELECT id, {TOOL_COLS} FROM tool_calls ORDER BY id")
        return list(decode_rows(self.path, "tool_calls", rows, lambda r: r["id"], tool_record))

    def counts(self) -> dict[str, int]:
        tables = ("dialogues", "turns", "llm_calls", "tool_calls")
        return {
            t: int(self._conn.execute(count_sql(self.format, t)).fetchone()[0])
            if t != "tool_calls" or self._tool_table
            else 0
            for t in tables
        }

    def calls_in_dialogue_order(self, name: str, columns: Sequence[str]) -> sqlite3.Cursor:
        """The model (`name` = llm_calls) or tool calls of stored dialogues, `id` and
        `columns`, in the order `iter_results` yields the dialogues, then by id."""
        return self._conn.execute(calls_in_dialogue_order(self.format, name, columns))

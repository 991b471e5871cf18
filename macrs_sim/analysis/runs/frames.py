"""The run's tables as pandas frames, built as the store is read (analysis/runs/load.py).

Rows are collected column by column and repeated strings (system, act, role, model,
dialogue ids) are shared, so a frame of a million turns costs pointers, not copies.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np
import pandas as pd

from macrs_sim.analysis.runs.dialogue_pass import Coded, Ids
from macrs_sim.protocol import LLMCallRecord, Sample
from macrs_sim.store import RunStore
from macrs_sim.store.read import call, decode_rows

# The columns of `act_turns`: what the act, transition and usage tables need of a turn.
ACT_TURN_COLUMNS = ["dialogue_id", "system", "sample_id", "turn", "act", "accepted"]
CALL_COLUMNS = list(LLMCallRecord.model_fields)
SAMPLE_COLUMNS = ["sample_id", "user_id", "target_id", "bucket", "history_len", "opening"]


class Interned(dict[str, str]):
    """One str object per distinct value."""

    def __call__(self, value: str) -> str:
        return self.setdefault(value, value)


# The turns of the dialogues the load read, in its order (dialogue rowid, then turn); the
# load checked every row of them. SQLite walks dialogues by rowid and seeks each one's turns.
ACT_TURNS_SQL = """SELECT t.dialogue_id, d.system, d.sample_id, t.turn, t.act, t.accepted
FROM dialogues d JOIN turns t ON t.dialogue_id = d.dialogue_id
WHERE d.rowid <= ? ORDER BY d.rowid, t.turn"""


def act_turns_frame(store: RunStore, upto: int, loaded: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row a turn (ACT_TURN_COLUMNS) of the dialogues up to rowid `upto`: what the act,
    transition and usage tables need, no text. Read as the load reads (dialogue_pass.py):
    no Python object a row; a dialogue's ids are one str each (those of `loaded`, the run's
    dialogues frame in the same order, when given), acts and systems one a value."""
    ids = {"dialogue_id": Ids(), "sample_id": Ids()}
    shared = _Shared(loaded)
    systems, acts = Coded(), Coded()
    dialogue: array[int] = array("q")  # each turn's dialogue, as its position in `ids`
    turns: array[int] = array("q")
    accepted = bytearray()
    last: Any = None
    for did, system, sid, turn, act, ok in store.query_tuples(ACT_TURNS_SQL, (upto,)):
        if last is None or did != last:
            last = did
            ids["dialogue_id"].add(did)
            ids["sample_id"].add(sid)
            shared.find(did, sid)
            systems.add(system)
        if not (type(turn) is int and type(act) is str and type(ok) is int and ok in (0, 1)):
            turn, act, ok = _as_record_reads(turn, act, ok)
        dialogue.append(len(systems.codes) - 1)
        turns.append(turn)
        acts.add(act)
        accepted.append(bool(ok))
    if not turns:
        return pd.DataFrame(columns=ACT_TURN_COLUMNS)
    at = np.frombuffer(dialogue, dtype=np.int64)
    own = shared.columns() or (ids.pop("dialogue_id").column(), ids.pop("sample_id").column())
    frame = pd.DataFrame(index=pd.RangeIndex(len(turns)))
    frame["dialogue_id"] = own[0][at]
    frame["system"] = systems.column()[at]
    frame["sample_id"] = own[1][at]
    frame["turn"] = np.frombuffer(turns, dtype=np.int64).copy()
    frame["act"] = acts.column()
    frame["accepted"] = np.frombuffer(accepted, dtype=bool).copy()
    return frame


class _Shared:
    """The str objects of the loaded frame's ids, matched in order: a turn's dialogue is the
    next loaded one with its id (a dialogue without turns is skipped). Any mismatch and the
    turns keep their own copies."""

    def __init__(self, loaded: pd.DataFrame | None) -> None:
        self.ok = loaded is not None
        if loaded is not None:
            self.ids = loaded["dialogue_id"].to_numpy(dtype=object)
            self.sids = loaded["sample_id"].to_numpy(dtype=object)
        self.at: array[int] = array("q")
        self.next = 0

    def find(self, did: str, sid: str) -> None:
        if not self.ok:
            return
        while self.next < len(self.ids) and self.ids[self.next] != did:
            self.next += 1
        if self.next == len(self.ids) or self.sids[self.next] != sid:
            self.ok = False
            return
        self.at.append(self.next)
        self.next += 1

    def columns(self) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]] | None:
        if not self.ok:
            return None
        at = np.frombuffer(self.at, dtype=np.int64)
        return self.ids[at], self.sids[at]


def _as_record_reads(turn: Any, act: Any, ok: Any) -> tuple[int, str, bool]:
    """A cell SQLite holds in another type (a store without STRICT takes 'false' in an
    integer column) read as the turn's record reads it when the load checked it: pydantic's
    lax int, str and bool ('false' is False, as in the load; Python's bool says True)."""
    from pydantic import TypeAdapter

    return (TypeAdapter(int).validate_python(turn), TypeAdapter(str).validate_python(act),
            TypeAdapter(bool).validate_python(ok))  # fmt: skip


def samples_frame(samples: Iterable[Sample]) -> pd.DataFrame:
    rows = [
        (s.sample_id, s.user_id, s.target_id, s.bucket, len(s.history), s.opening) for s in samples
    ]
    return pd.DataFrame(rows, columns=SAMPLE_COLUMNS)


def _call_values(row: Any, text: Interned) -> tuple[Any, ...]:
    """A call row's values; anything but plain SQLite types goes through LLMCallRecord, so a
    damaged cell reads as the record's own validation message."""
    ints = (row["prompt_tokens"], row["completion_tokens"], row["cached"], row["ok"])
    plain = (
        all(type(v) is int for v in ints)
        and row["cached"] in (0, 1)
        and row["ok"] in (0, 1)
        and type(row["latency_s"]) in (int, float)
        and all(type(row[c]) is str for c in ("role", "model"))
        and all(row[c] is None or type(row[c]) is str for c in ("dialogue_id", "system", "error"))
        and (row["turn"] is None or type(row["turn"]) is int)
    )
    if not plain:
        record = call(row)
        values = tuple(getattr(record, c) for c in CALL_COLUMNS)
    else:
        values = tuple(row[c] for c in CALL_COLUMNS)

    def name(value: Any) -> Any:
        return text(value) if isinstance(value, str) else value

    d, s, role, turn, model, prompt, completion, latency, cached, ok, error = values
    return (
        name(d), name(s), name(role), turn, name(model), prompt, completion,
        float(latency), bool(cached), bool(ok), error,
    )  # fmt: skip


class _CallColumns:
    """The calls frame's columns as they are read: numbers in typed arrays, text as shared
    str objects, so a million calls cost about 70 bytes each, not a tuple and its objects."""

    NUMBERS = {"prompt_tokens": "q", "completion_tokens": "q", "latency_s": "d"}

    def __init__(self) -> None:
        self.text: dict[str, list[str | None]] = {
            c: [] for c in ("dialogue_id", "system", "role", "model", "error")
        }
        self.numbers = {c: array(code) for c, code in self.NUMBERS.items()}
        self.flags = {"cached": bytearray(), "ok": bytearray()}
        self.turns: array[int] = array("q")
        self.turn_known = bytearray()

    def add(self, values: tuple[Any, ...]) -> None:
        d, s, role, turn, model, prompt, completion, latency, cached, ok, error = values
        for column, value in zip(self.text, (d, s, role, model, error), strict=True):
            self.text[column].append(value)
        for column, value in zip(self.numbers, (prompt, completion, latency), strict=True):
            self.numbers[column].append(value)
        self.flags["cached"].append(cached)
        self.flags["ok"].append(ok)
        self.turns.append(0 if turn is None else turn)
        self.turn_known.append(turn is not None)

    def _turn(self) -> Any:
        """As pandas infers it from the values: int64, float64 with NaN, or None objects."""
        known = np.frombuffer(self.turn_known, dtype=bool)
        turns = np.frombuffer(self.turns, dtype=np.int64)
        if known.all():
            return turns
        if not known.any():
            return np.full(len(known), None, dtype=object)
        return np.where(known, turns.astype(float), np.nan)

    def frame(self) -> pd.DataFrame:
        data: dict[str, Any] = {c: pd.Series(v, dtype=None) for c, v in self.text.items()}
        data |= {c: np.frombuffer(v, dtype=v.typecode) for c, v in self.numbers.items()}
        data |= {c: np.frombuffer(v, dtype=bool) for c, v in self.flags.items()}
        data["turn"] = self._turn()
        return pd.DataFrame({c: data[c] for c in CALL_COLUMNS})


def iter_call_values(store: RunStore, upto: int | None = None) -> Iterator[tuple[Any, ...]]:
    """Each call's values (CALL_COLUMNS' order) in the order stored, none after id `upto`;
    a damaged row is one DataError naming the store, the table and the row."""
    text = Interned()
    where, args = ("", ()) if upto is None else (" WHERE id <= ?", (upto,))
    sql = f"SELECT id, {', '.join(CALL_COLUMNS)} FROM llm_calls{where} ORDER BY id"
    return decode_rows(
        store.path, "llm_calls", store.query(sql, args), lambda r: r["id"],
        lambda r: _call_values(r, text),
    )  # fmt: skip


def calls_frame(store: RunStore, upto: int | None = None) -> pd.DataFrame:
    """Every LLM call (none after id `upto`) as a row (LLMCallRecord's fields), in the
    order stored."""
    columns = _CallColumns()
    for values in iter_call_values(store, upto):
        columns.add(values)
    if not columns.turn_known:
        return pd.DataFrame(columns=CALL_COLUMNS)
    return columns.frame()

"""The `dialogues` frame, one dialogue at a time, as the load's streaming pass reads them.

The pass keeps no Python object per dialogue: ids go into one byte buffer, repeated text
(system, target, status, bucket) into small code arrays, numbers into typed arrays; the
frame's str objects are made once, after the pass. An object kept across a long pass is
allocated among the pass's short-lived ones and keeps their memory pages from being given
back: at 100,000 dialogues the load held about 1 KB a dialogue for 0.3 KB of data.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from macrs_sim.analysis.metrics.outcomes import is_hit
from macrs_sim.protocol import DialogueResult

HIT_KS = (5, 10)
DIALOGUE_COLUMNS = [
    "dialogue_id", "system", "sample_id", "target_id", "bucket", "status", "success",
    "success_turn", "turns", "n_exchanges", "final_rank", "leaks", "error",
    *(f"hit@{k}" for k in HIT_KS),
]  # fmt: skip
_CODED = ("system", "target_id", "bucket", "status")
_FLOATS = ("success", "turns", *(f"hit@{k}" for k in HIT_KS))


def hit_rank(result: DialogueResult) -> int | None:
    """1-based position of the target in the fallback list, if there."""
    for pos, ref in enumerate(result.final_list, start=1):
        if ref.item_id == result.target_id:
            return pos
    return None


class Ids:
    """Strings unique to each row, kept as UTF-8 in one buffer until the pass is over."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.ends: array[int] = array("q")

    def add(self, value: str) -> None:
        self.data += value.encode("utf-8", "surrogatepass")
        self.ends.append(len(self.data))

    def column(self) -> np.ndarray[Any, Any]:
        data, out, start = bytes(self.data), np.empty(len(self.ends), dtype=object), 0
        for row, end in enumerate(self.ends):
            out[row] = data[start:end].decode("utf-8", "surrogatepass")
            start = end
        return out


class Coded:
    """A column of few distinct values: a code a row, one object a value."""

    def __init__(self) -> None:
        self.codes: array[int] = array("q")
        self.values: dict[Any, int] = {}

    def add(self, value: Any) -> None:
        self.codes.append(self.values.setdefault(value, len(self.values)))

    def column(self) -> np.ndarray[Any, Any]:
        values = np.empty(len(self.values), dtype=object)
        values[:] = list(self.values)
        return values[np.frombuffer(self.codes, dtype=np.int64)]


class _Optional:
    """Ints that may be None, typed as pandas infers them from the values: int64, float64
    with NaN where None, or None objects when every one is None."""

    def __init__(self) -> None:
        self.values: array[int] = array("q")
        self.known = bytearray()

    def add(self, value: int | None) -> None:
        self.values.append(0 if value is None else value)
        self.known.append(value is not None)

    def column(self) -> np.ndarray[Any, Any]:
        known = np.frombuffer(self.known, dtype=bool)
        values = np.frombuffer(self.values, dtype=np.int64)
        if known.all():
            return values.copy()
        if not known.any():
            return np.full(len(known), None, dtype=object)
        return np.where(known, values.astype(float), np.nan)


class LoadPass:
    """Columns of `dialogues`, one dialogue at a time (see the module's docstring)."""

    def __init__(self, buckets: Mapping[str, str | None]) -> None:
        self.buckets = buckets
        self.ids = {"dialogue_id": Ids(), "sample_id": Ids()}
        self.coded = {c: Coded() for c in _CODED}
        self.floats = {c: array("d") for c in _FLOATS}
        self.ints = {c: array("q") for c in ("n_exchanges", "leaks")}
        self.optional = {c: _Optional() for c in ("success_turn", "final_rank")}
        self.errors: dict[int, str] = {}  # by row: an error is rare
        self.rows = 0
        self.built = False
        self.systems: dict[str, None] = {}
        self.max_turns = 0
        self.upto = (0, 0)  # the last dialogue rowid and call id the load read

    def add(self, r: DialogueResult) -> None:
        """One dialogue's metrics as the paper counts them: an error is a failure (0, never
        a hit, max_turns + 1 turns); `status` tells errors apart for the completed-only view."""
        self.systems.setdefault(r.system)
        self.max_turns = max(self.max_turns, r.max_turns)
        self.ids["dialogue_id"].add(r.dialogue_id)
        self.ids["sample_id"].add(r.sample_id)
        coded = (r.system, r.target_id, self.buckets.get(r.sample_id), r.status)
        for column, value in zip(_CODED, coded, strict=True):
            self.coded[column].add(value)
        hits = (float(is_hit(r, k)) for k in HIT_KS)
        for column, number in zip(
            _FLOATS, (float(r.status == "success"), float(r.turns_taken), *hits), strict=True
        ):
            self.floats[column].append(number)
        self.ints["n_exchanges"].append(len(r.exchanges))
        self.ints["leaks"].append(r.leaks)
        self.optional["success_turn"].add(r.success_turn)
        self.optional["final_rank"].add(hit_rank(r))
        if r.error is not None:
            self.errors[self.rows] = r.error
        self.rows += 1

    def dialogues(self) -> pd.DataFrame:
        """The frame, once: building it lets the columns go."""
        if self.built:
            raise RuntimeError("LoadPass.dialogues() builds its frame once")
        self.built = True
        if not self.rows:
            return pd.DataFrame(columns=DIALOGUE_COLUMNS)
        frame = pd.DataFrame(index=pd.RangeIndex(self.rows))
        for name in DIALOGUE_COLUMNS:
            frame[name] = self._column(name)
        return frame

    def _column(self, name: str) -> Any:
        if name in self.ids:
            return self.ids.pop(name).column()
        if name in self.coded:
            return self.coded.pop(name).column()
        if name in self.floats:
            return np.frombuffer(self.floats.pop(name), dtype=np.float64).copy()
        if name in self.ints:
            return np.frombuffer(self.ints.pop(name), dtype=np.int64).copy()
        if name in self.optional:
            return self.optional.pop(name).column()
        errors = np.full(self.rows, None, dtype=object)
        for row, error in self.errors.items():
            errors[row] = error
        return errors

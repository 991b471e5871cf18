"""The calls frame built column by column (runs/frames.py) equals the one pandas infers from
the records, for every shape of the `turn` and `error` columns a store can hold."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from macrs_sim.analysis.runs.frames import CALL_COLUMNS, calls_frame
from macrs_sim.protocol import LLMCallRecord
from macrs_sim.store import RunStore


def _call(
    turn: int | None, error: str | None = None, system: str | None = "MACRS"
) -> LLMCallRecord:
    return LLMCallRecord(
        dialogue_id=None if system is None else f"{system}:s-1", system=system, role="ask",
        turn=turn, model="m", prompt_tokens=1000 + (turn or 0), completion_tokens=7,
        latency_s=0.25, cached=turn == 2, ok=error is None, error=error,
    )  # fmt: skip


CASES = {
    "every turn known": [_call(1), _call(2), _call(3)],
    "one turn unknown": [_call(1), _call(None, system=None), _call(2, "boom")],
    "no turn known": [_call(None, system=None), _call(None, "x", system=None)],
    "one call": [_call(4)],
}


@pytest.mark.parametrize("name", list(CASES))
def test_same_frame_as_from_records(tmp_path: Path, name: str) -> None:
    calls = CASES[name]
    with RunStore.create(tmp_path / "store.sqlite") as store:
        store.write_calls(calls)
        built = calls_frame(store)
    expected = pd.DataFrame([c.model_dump() for c in calls], columns=CALL_COLUMNS)
    pd.testing.assert_frame_equal(built, expected, check_dtype=True, check_exact=True)


def test_no_calls_is_an_empty_frame_with_the_columns(tmp_path: Path) -> None:
    with RunStore.create(tmp_path / "store.sqlite") as store:
        built = calls_frame(store)
    assert list(built.columns) == CALL_COLUMNS and built.empty

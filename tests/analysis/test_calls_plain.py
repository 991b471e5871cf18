"""The call tally's plain-row path (a store whose cells all hold their declared types) sums
exactly what the record path sums, relabelled, across runs; any odd cell takes the record
path, so a damaged row is the same one-line error."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from macrs_sim.analysis.metrics.call_tally import CallTally
from macrs_sim.analysis.runs.calls import _add_plain, _all_plain, _relabelled
from macrs_sim.analysis.runs.frames import iter_call_values
from macrs_sim.config import Price
from macrs_sim.errors import DataError
from macrs_sim.protocol import LLMCallRecord
from macrs_sim.store import RunStore
from tests.store.store_cells import set_call_cell

PRICES = {"big": Price(prompt=2.5, completion=10.0), "small": Price(prompt=0.15, completion=0.6)}
GROUPS = (["system"], ["system", "role"], ["system", "turn"])


def _store(path: Path, seed: int, n: int, missing_turns: bool = True) -> Path:
    rng = random.Random(seed)
    calls = []
    for _ in range(n):
        system = rng.choice(["MACRS", "single", None])
        calls.append(LLMCallRecord(
            dialogue_id=None if system is None else f"{system}:s-{rng.randrange(3)}",
            system=system, role=rng.choice(["ask", "planner", "user"]),
            turn=rng.choice([1, 2, 6, None] if missing_turns else [1, 2, 6]),
            model=rng.choice(["big", "small", "unpriced"]), prompt_tokens=rng.randrange(5000),
            completion_tokens=rng.randrange(300),
            latency_s=rng.random() * rng.choice([1e-3, 1.0, 40.0]),
            cached=rng.random() < 0.2, ok=rng.random() < 0.9,
            error=None if rng.random() < 0.9 else "timeout: 60 s",
        ))  # fmt: skip
    with RunStore.create(path) as store:
        store.write_calls(calls)
    return path


def _by_records(paths: list[Path], names: list[dict[str, str]], prices: object) -> CallTally:
    tally = CallTally(prices)  # type: ignore[arg-type]
    for path, relabel in zip(paths, names, strict=True):
        with RunStore.open(path) as store:
            for values in iter_call_values(store):
                tally.add(_relabelled(values, relabel))
    return tally


def _by_plain_rows(paths: list[Path], names: list[dict[str, str]], prices: object) -> CallTally:
    tally = CallTally(prices)  # type: ignore[arg-type]
    for path, relabel in zip(paths, names, strict=True):
        with RunStore.open(path) as store:
            assert _all_plain(store, None)
            _add_plain(tally, store, None, relabel)
    return tally


def _same(a: CallTally, b: CallTally) -> None:
    for by in GROUPS:
        assert a.table(by).to_csv(index=False) == b.table(by).to_csv(index=False)
    turns = ["system", "turn"]
    assert a.table(turns, turns_only=True).to_csv(index=False) == b.table(
        turns, turns_only=True
    ).to_csv(index=False)
    assert (a.n, a.turn_seen, a.turn_missing) == (b.n, b.turn_seen, b.turn_missing)


@pytest.mark.parametrize("prices", [PRICES, None])
@pytest.mark.parametrize("missing", [True, False])
def test_plain_rows_sum_as_records_do(tmp_path: Path, prices: object, missing: bool) -> None:
    """Two runs sharing a system name, relabelled, summed into one tally in run order (the
    Kahan sums carry on from one run to the next, as the records' path does)."""
    paths = [_store(tmp_path / f"r{i}.sqlite", i, 2500, missing) for i in range(2)]
    names = [{"MACRS": "MACRS (r0)"}, {"MACRS": "MACRS (r1)"}]
    plain, records = _by_plain_rows(paths, names, prices), _by_records(paths, names, prices)
    _same(plain, records)
    assert plain.n == 5000
    systems = list(plain.table(["system"])["system"])
    assert systems[:1] != ["MACRS"] and "MACRS (r1)" in systems and "(samples)" in systems


def test_calls_upto_a_bound(tmp_path: Path) -> None:
    path = _store(tmp_path / "r.sqlite", 7, 40)
    tally = CallTally(None)
    with RunStore.open(path) as store:
        _add_plain(tally, store, 25, {})
    assert tally.n == 25


@pytest.mark.parametrize(
    ("column", "value"),
    [("prompt_tokens", "12 tokens"), ("cached", 2), ("latency_s", "slow"), ("role", b"ask"),
     ("turn", 1.5)],
)  # fmt: skip
def test_an_odd_cell_takes_the_record_path(tmp_path: Path, column: str, value: object) -> None:
    """A text count, a flag of 2, a text latency, a blob role, a fractional turn: not plain,
    so the records read it (and say what is wrong in one line, or accept it as they did)."""
    path = _store(tmp_path / "r.sqlite", 3, 30)
    with sqlite3.connect(path) as conn:
        set_call_cell(conn, "llm_calls", column, value, "id = 7")
    with RunStore.open(path) as store:
        assert not _all_plain(store, None)
        assert _all_plain(store, 6)  # the rows before it are plain
        try:
            _by_records([path], [{}], None)
        except DataError as err:
            assert "damaged run store: table llm_calls, row 7" in str(err)

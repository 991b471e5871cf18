"""CallTally gives the cost and usage tables cost_table and usage_table give over a frame of
every call, to the last bit (float sums Kahan-compensated in row order, as pandas sums)."""

from __future__ import annotations

import random

import pandas as pd
import pytest

from macrs_sim.analysis.metrics.call_tally import Call, CallTally
from macrs_sim.analysis.metrics.cost import cost_table, frame_markdown
from macrs_sim.analysis.runs.frames import CALL_COLUMNS
from macrs_sim.config import Price

PRICES = {"big": Price(prompt=2.5, completion=10.0), "small": Price(prompt=0.15, completion=0.6)}
DIALOGUES = ["A:s-1", "A:s-2", "B:s-1"]


def _calls(seed: int, n: int, with_missing_turns: bool) -> list[Call]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        dialogue = rng.choice([*DIALOGUES, "ghost:s-9", None])
        system = None if dialogue is None else dialogue.split(":")[0]
        turn = rng.choice([1, 2, 3, 6, None] if with_missing_turns else [1, 2, 3, 6])
        out.append(Call(
            dialogue, system, rng.choice(["ask", "planner", "user"]), turn,
            rng.choice(["big", "small", "unpriced"]), rng.randrange(0, 5000),
            rng.randrange(0, 300), rng.random() * rng.choice([1e-3, 1.0, 40.0]),
            rng.random() < 0.2, rng.random() < 0.9,
        ))  # fmt: skip
    return out


def _frame(calls: list[Call]) -> pd.DataFrame:
    rows = [{**c.__dict__, "error": None} for c in calls]
    return pd.DataFrame(rows, columns=CALL_COLUMNS)


def _tally(calls: list[Call], prices: dict[str, Price] | None) -> CallTally:
    tally = CallTally(prices)
    for call in calls:
        tally.add(call)
    return tally


@pytest.mark.parametrize("prices", [PRICES, None])
@pytest.mark.parametrize("missing", [True, False])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cost_tables_identical(seed: int, missing: bool, prices: dict[str, Price] | None) -> None:
    calls = _calls(seed, 3000, missing)
    frame, tally = _frame(calls), _tally(calls, prices)
    for by in (["system"], ["system", "role"], ["system", "turn"]):
        expected = cost_table(frame, by, prices)
        assert tally.table(by).to_csv(index=False) == expected.to_csv(index=False)
        assert frame_markdown(tally.table(by)) == frame_markdown(expected)
    expected_turns = cost_table(frame[frame["turn"].notna()], ["system", "turn"], prices)
    got_turns = tally.table(["system", "turn"], turns_only=True)
    expected_turns["turn"] = expected_turns["turn"].astype(int)
    got_turns["turn"] = got_turns["turn"].astype(int)
    assert got_turns.to_csv(index=False) == expected_turns.to_csv(index=False)
    assert (tally.n, tally.prompt_tokens) == (len(frame), int(frame["prompt_tokens"].sum()))


def test_no_calls() -> None:
    table = _tally([], PRICES).table(["system"])
    expected = cost_table(_frame([]), ["system"], PRICES)
    assert table.empty and list(table.columns) == list(expected.columns)

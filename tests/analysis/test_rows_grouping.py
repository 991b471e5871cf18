"""`grouped_codes` and `distinct_turns` (metrics/rows.py): the grouping a loaded run's turns
already have (each dialogue's rows together, turns not decreasing), used only when it holds;
the usage table's turns counted by it, and act ratios counted over the columns (no groupby)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from macrs_sim.analysis.metrics.acts import act_ratios
from macrs_sim.analysis.metrics.rows import distinct_turns, grouped_codes
from macrs_sim.analysis.metrics.usage import LLMUsage, usage_table


def _rows(ids: list[object], turns: list[object]) -> pd.DataFrame:
    return pd.DataFrame({"dialogue_id": ids, "turn": turns, "act": ["ask"] * len(ids)})


# d1: turns 1, 2; d2: turn 1; d3: turn 1 twice (a repeated pair), then 2. The turn falls
# from d1's 2 to d2's 1 and from d2's 1 to d3's 1 stays: only a new dialogue may restart it.
GROUPED = _rows(["d1", "d1", "d2", "d3", "d3", "d3"], [1, 2, 1, 1, 1, 2])


def _pairs(rows: pd.DataFrame) -> int:
    return len(rows[["dialogue_id", "turn"]].drop_duplicates())


def test_grouped_rows_are_numbered_by_dialogue() -> None:
    codes = grouped_codes(GROUPED)
    assert codes is not None
    assert codes.tolist() == [0, 0, 1, 2, 2, 2]
    # A turn that falls where a new dialogue starts is still grouped.
    assert _codes(["a", "a", "b"], [1, 2, 1]) == [0, 0, 1]
    # One dialogue of one row.
    assert _codes(["x"], [7]) == [0]
    # Unsigned turns take the general path: np.diff of [2, 1] wraps around to 255, not -1.
    rows = pd.DataFrame({"dialogue_id": ["a", "a"], "turn": np.array([2, 1], dtype=np.uint8)})
    assert grouped_codes(rows) is None


def _codes(ids: list[object], turns: list[object]) -> list[int] | None:
    codes = grouped_codes(_rows(ids, turns))
    return None if codes is None else codes.tolist()


def test_rows_not_grouped_have_no_codes() -> None:
    # A dialogue in two blocks (A, B, A): numbering blocks would make A two dialogues.
    assert _codes(["A", "B", "A"], [1, 1, 2]) is None
    assert _codes(["A", "A", "B", "B", "A"], [1, 2, 1, 2, 3]) is None
    # A turn that falls inside one dialogue (rows not in turn order).
    assert _codes(["A", "A"], [2, 1]) is None
    assert _codes(["A", "B", "B", "B"], [1, 1, 3, 2]) is None
    # Float turns (as a NaN turn leaves them), even whole and in order.
    assert _codes(["A", "A"], [1.0, 2.0]) is None
    assert _codes(["A", "A"], [1.0, math.nan]) is None
    # A missing dialogue id, None or NaN, anywhere.
    assert _codes(["A", None], [1, 1]) is None
    assert _codes([math.nan, "A"], [1, 2]) is None
    assert _codes(["A", "A", None, None], [1, 2, 1, 2]) is None
    # Turns held as Python objects are not integers.
    rows = pd.DataFrame({"dialogue_id": ["A", "A"], "turn": pd.Series([1, 2], dtype=object)})
    assert grouped_codes(rows) is None


def test_empty_rows_have_no_codes() -> None:
    assert grouped_codes(GROUPED.iloc[:0]) is None
    assert grouped_codes(pd.DataFrame({"dialogue_id": [], "turn": []})) is None


def test_distinct_turns_of_grouped_rows_counts_each_pair_once() -> None:
    # (d1, 1), (d1, 2), (d2, 1), (d3, 1), (d3, 2): d3's repeated turn 1 counts once, and
    # d2's turn 1 after d1's is another pair although the turn number is the same.
    assert distinct_turns(GROUPED) == 5 == _pairs(GROUPED)
    same_turn = _rows(["a", "b", "c"], [1, 1, 1])
    assert distinct_turns(same_turn) == 3 == _pairs(same_turn)
    one = _rows(["a", "a", "a"], [4, 4, 4])
    assert distinct_turns(one) == 1 == _pairs(one)


def test_distinct_turns_of_other_rows_falls_back_to_the_pairs() -> None:
    # (A, 1), (B, 1), (A, 2): A's rows in two blocks, A's turn 1 repeated out of order.
    split = _rows(["A", "B", "A", "A"], [1, 1, 1, 2])
    assert grouped_codes(split) is None
    assert distinct_turns(split) == 3 == _pairs(split)
    # Rows of GROUPED reversed: turns fall inside each dialogue, still 5 pairs.
    backwards = GROUPED.iloc[::-1]
    assert grouped_codes(backwards) is None
    assert distinct_turns(backwards) == 5 == _pairs(backwards)
    # Float turns: (A, 1.0), (A, NaN) twice -> 2 (drop_duplicates keeps NaN as one value).
    floats = _rows(["A", "A", "A"], [1.0, math.nan, math.nan])
    assert distinct_turns(floats) == 2 == _pairs(floats)
    # A missing id: (A, 1), (None, 1) -> 2.
    missing = _rows(["A", None, None], [1, 1, 1])
    assert distinct_turns(missing) == 2 == _pairs(missing)


def test_distinct_turns_of_no_rows_is_zero() -> None:
    assert distinct_turns(GROUPED.iloc[:0]) == 0
    assert distinct_turns(pd.DataFrame({"dialogue_id": [], "turn": []})) == 0


# S: two responses at turn 1 (ask, ask), two at turn 2 (chat, a missing act), one without a
# turn number (counted nowhere); X is not asked for: its "greet" and its turn 3 count nowhere.
ACT_ROWS = pd.DataFrame(
    [("S", 1, "ask"), ("X", 1, "greet"), ("S", 2, "chat"), ("S", 1, "ask"), ("S", 2, None),
     ("S", math.nan, "recommend"), ("X", 3, "chat")],
    columns=["system", "turn", "act"],
)  # fmt: skip


def test_act_ratios_as_grouped_by_system_turn_and_act() -> None:
    got = act_ratios(ACT_ROWS, ["S", "U"])
    nan = math.nan
    expected = [
        ["S", 1, "ask", 2, 2, 1.0], ["S", 1, "chat", 0, 2, 0.0],
        ["S", 1, "recommend", 0, 2, 0.0], ["S", 2, "ask", 0, 2, 0.0],
        ["S", 2, "chat", 1, 2, 0.5], ["S", 2, "recommend", 0, 2, 0.0],
        # U has no row: every count and total 0, no ratio.
        ["U", 1, "ask", 0, 0, nan], ["U", 1, "chat", 0, 0, nan],
        ["U", 1, "recommend", 0, 0, nan], ["U", 2, "ask", 0, 0, nan],
        ["U", 2, "chat", 0, 0, nan], ["U", 2, "recommend", 0, 0, nan],
    ]  # fmt: skip
    want = pd.DataFrame(expected, columns=["system", "turn", "act", "count", "total", "ratio"])
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    # Acts picked: X's "greet" is 0 for S; the missing act still counts in S's totals.
    picked = act_ratios(ACT_ROWS, ["S"], acts=["recommend", "greet"])
    assert picked[["turn", "act", "count", "total"]].values.tolist() == [
        [1, "recommend", 0, 2], [1, "greet", 0, 2], [2, "recommend", 0, 2], [2, "greet", 0, 2],
    ]  # fmt: skip


def _usage(turns: pd.DataFrame) -> list[list[object]]:
    dialogues = pd.DataFrame(
        {"system": ["S", "S", "S", "X"], "dialogue_id": ["S:1", "S:2", "S:3", "X:1"]}
    )
    tools = pd.DataFrame(columns=["dialogue_id", "system", "role", "turn", "ok"])
    calls = {"S": LLMUsage(calls=9, in_turns=6, tokens_in_turns=330)}
    table = usage_table(dialogues, turns, calls, tools, ["S", "X", "V"])
    rows: list[list[object]] = table.values.tolist()
    return rows


def test_usage_table_from_tallied_calls_counts_distinct_turns() -> None:
    # S: 3 dialogues (S:3 without turns); turns (S:1, 1), (S:1, 2) twice, (S:2, 1): 3 turns,
    # not 4 rows: 6 / 3 = 2 calls and 330 / 3 = 110 tokens a turn, 9 / 3 = 3 a dialogue.
    # X: one dialogue, one turn, no calls tallied; V: nothing stored.
    rows = [("S:1", "S", 1), ("S:1", "S", 2), ("S:1", "S", 2), ("X:1", "X", 1), ("S:2", "S", 1)]
    turns = pd.DataFrame(rows, columns=["dialogue_id", "system", "turn"])
    nan = math.nan
    expected = [
        ["S", 3, 3, 2.0, 110.0, 3.0, 0.0, 0.0, 0, 0],
        ["X", 1, 1, 0.0, 0.0, 0.0, 0.0, 0.0, 0, 0],
        ["V", 0, 0, nan, nan, nan, nan, nan, 0, 0],
    ]
    got = _usage(turns)
    assert str(got) == str(expected)
    # The same rows out of order (S:1's rows split by S:2's): the general count, same table.
    assert str(_usage(turns.iloc[[1, 4, 0, 3, 2]])) == str(expected)

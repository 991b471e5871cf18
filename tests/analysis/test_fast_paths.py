"""Act sequences, transitions and turn entropies (metrics/transitions.py) on a grouped frame
(the fast path: the rows' own grouping) and on the same rows shuffled (the general path:
factorize + lexsort), against values worked out by hand.

S:s-1 ask, chat, recommend (turn 3 accepted) -> success; S:s-2 ask, ask, recommend -> end;
S:s-3 chat, recommend -> end; T:s-1 and T:s-2 recommend (accepted) -> success.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np
import pandas as pd
import pytest

from macrs_sim.analysis.metrics import transitions
from macrs_sim.analysis.metrics.rows import grouped_codes
from macrs_sim.analysis.metrics.transitions import (
    act_sequence_stats,
    act_sequences,
    sequence_counts,
    transition_frame,
    turn_entropy_frame,
)

ROWS: list[tuple[str, str, float, Any, bool]] = [
    ("S:s-1", "S", 1, "ask", False),
    ("S:s-1", "S", 2, "chat", False),
    ("S:s-1", "S", 3, "recommend", True),
    ("T:s-1", "T", 1, "recommend", True),
    ("S:s-2", "S", 1, "ask", False),
    ("S:s-2", "S", 2, "ask", False),
    ("S:s-2", "S", 3, "recommend", False),
    ("T:s-2", "T", 1, "recommend", True),
    ("S:s-3", "S", 1, "chat", False),
    ("S:s-3", "S", 2, "recommend", False),
]
# s2t3, s1t2, T2, s3t2, s1t3, s2t1, T1, s1t1, s3t1, s2t2: S's dialogues first appear as
# s-2, s-1, s-3, T's as s-2, s-1; S:s-1's accepted turn 3 is not its last row.
SHUFFLE = [6, 1, 7, 9, 2, 4, 3, 0, 8, 5]
COLUMNS = ["dialogue_id", "system", "turn", "act", "accepted"]
H_2_1 = math.log2(3) - 2 / 3  # entropy of counts (2, 1)
S1 = (("ask", "chat", "recommend"), "success")
S2 = (("ask", "ask", "recommend"), "end")
S3 = (("chat", "recommend"), "end")
T_ = (("recommend",), "success")


def _frame(rows: list[tuple[str, str, float, Any, bool]]) -> pd.DataFrame:
    return pd.DataFrame(rows, columns=COLUMNS)


GROUPED = _frame(ROWS)
SHUFFLED = GROUPED.iloc[SHUFFLE]


@pytest.fixture
def paths(monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """Records, per call, whether the fast path (grouped codes) was taken."""
    taken: list[bool] = []

    def spy(rows: pd.DataFrame) -> np.ndarray[Any, Any] | None:
        codes = grouped_codes(rows)
        taken.append(codes is not None)
        return codes

    monkeypatch.setattr(transitions, "grouped_codes", spy)
    return taken


def _lists(*runs: tuple[tuple[str, ...], str]) -> list[tuple[list[str], str]]:
    return [(list(acts), end) for acts, end in runs]


def test_act_sequences_grouped_and_shuffled(paths: list[bool]) -> None:
    assert act_sequences(GROUPED, "S") == _lists(S1, S2, S3)
    assert act_sequences(GROUPED, "T") == _lists(T_, T_)
    assert paths == [True, True]
    # Same dialogues, in the shuffled frame's order of first appearance.
    assert act_sequences(SHUFFLED, "S") == _lists(S2, S1, S3)
    assert act_sequences(SHUFFLED, "T") == _lists(T_, T_)
    assert paths[2:] == [False, True]  # T's shuffled rows are one a dialogue: still grouped
    assert act_sequences(GROUPED, "absent") == [] == act_sequences(SHUFFLED, "absent")


def test_sequence_counts_grouped_and_shuffled(paths: list[bool]) -> None:
    assert list(sequence_counts(GROUPED, "S").items()) == [(S1, 1), (S2, 1), (S3, 1)]
    assert list(sequence_counts(SHUFFLED, "S").items()) == [(S2, 1), (S1, 1), (S3, 1)]
    assert sequence_counts(GROUPED, "T") == Counter({T_: 2}) == sequence_counts(SHUFFLED, "T")
    assert paths == [True, False, True, True]


EDGES = [
    ("S", "START", "ask", 2, 2 / 3),
    ("S", "START", "chat", 1, 1 / 3),
    ("S", "ask", "ask", 1, 1 / 3),
    ("S", "ask", "chat", 1, 1 / 3),
    ("S", "ask", "recommend", 1, 1 / 3),
    ("S", "chat", "recommend", 2, 1.0),
    ("S", "recommend", "success", 1, 1 / 3),
    ("S", "recommend", "end", 2, 2 / 3),
    ("T", "START", "recommend", 2, 1.0),
    ("T", "recommend", "success", 2, 1.0),
]


@pytest.mark.parametrize("frame", [GROUPED, SHUFFLED], ids=["grouped", "shuffled"])
def test_transition_frame(frame: pd.DataFrame) -> None:
    got = transition_frame(frame)
    assert list(got.itertuples(index=False, name=None)) == EDGES
    assert got.dtypes.astype(str).tolist()[3:] == ["int64", "float64"]
    reordered = transition_frame(frame, ["T", "S"])
    assert list(reordered.itertuples(index=False, name=None)) == EDGES[8:] + EDGES[:8]


@pytest.mark.parametrize("frame", [GROUPED, SHUFFLED], ids=["grouped", "shuffled"])
def test_act_sequence_stats(frame: pd.DataFrame) -> None:
    stats = act_sequence_stats(frame).set_index("system")
    s, t = stats.loc["S"], stats.loc["T"]
    # S: transitions ask->chat, chat->recommend, ask->ask, ask->recommend, chat->recommend;
    # acts ask 3, chat 2, recommend 3 of 8; runs 3 + 2 + 2 = 7; ask's next acts 1/1/1 and
    # chat's always recommend: H = 3 * log2(3) / 5; turn entropies (2, 1), (1, 1, 1), (2).
    assert (s["dialogues"], s["transitions"]) == (3, 5)
    assert s["repeat_rate"] == pytest.approx(1 / 5, rel=1e-12)
    assert s["mean_distinct_acts"] == pytest.approx(7 / 3, rel=1e-12)
    assert s["mean_run_length"] == pytest.approx(8 / 7, rel=1e-12)
    act_h = 2 * (3 / 8) * math.log2(8 / 3) + (2 / 8) * math.log2(4)
    assert s["act_entropy"] == pytest.approx(act_h, rel=1e-12)
    assert s["mean_turn_entropy"] == pytest.approx((H_2_1 + math.log2(3)) / 3, rel=1e-12)
    assert s["transition_entropy"] == pytest.approx(3 * math.log2(3) / 5, rel=1e-12)
    # T: two one-turn dialogues: no act->act transition.
    assert (t["dialogues"], t["transitions"]) == (2, 0)
    assert math.isnan(t["repeat_rate"]) and math.isnan(t["transition_entropy"])
    assert (t["mean_distinct_acts"], t["mean_run_length"]) == (1.0, 1.0)
    assert (t["act_entropy"], t["mean_turn_entropy"]) == (0.0, 0.0)


def _entropies(frame: pd.DataFrame) -> list[tuple[str, int, int, float]]:
    got = turn_entropy_frame(frame)
    assert got.dtypes.astype(str).tolist() == ["str", "int64", "int64", "float64"]
    return list(got.itertuples(index=False, name=None))


ENTROPIES = [
    ("S", 1, 3, pytest.approx(H_2_1, rel=1e-12)),  # ask, ask, chat
    ("S", 2, 3, pytest.approx(math.log2(3), rel=1e-12)),  # chat, ask, recommend
    ("S", 3, 2, 0.0),  # recommend, recommend
    ("T", 1, 2, 0.0),
]


@pytest.mark.parametrize("frame", [GROUPED, SHUFFLED], ids=["grouped", "shuffled"])
def test_turn_entropy_frame(frame: pd.DataFrame) -> None:
    assert _entropies(frame) == ENTROPIES


# S:s-3 gains a turn 3 whose act is missing and a row without a turn number (as the old
# rows.groupby("turn", sort=True) read them: the NaN turn is no group; the NaN act counts,
# as the act "nan").
NAN_ROWS = [*ROWS, ("S:s-3", "S", math.nan, "ask", False), ("S:s-3", "S", 3, None, False)]


@pytest.mark.parametrize("order", [list(range(12)), [11, 10, *SHUFFLE]], ids=["as", "shuffled"])
def test_turn_entropy_frame_with_a_nan_turn_and_a_nan_act(order: list[int]) -> None:
    frame = _frame(NAN_ROWS).iloc[order]
    three = ("S", 3, 3, pytest.approx(H_2_1, rel=1e-12))  # recommend, recommend, nan
    assert _entropies(frame) == [*ENTROPIES[:2], three, ENTROPIES[3]]


def test_act_sequences_with_a_nan_turn_sort_it_last(paths: list[bool]) -> None:
    # Float turns: the general path; lexsort puts the NaN turn after turn 3 (as the old
    # code did), and that row (not accepted) decides the end marker.
    frame = _frame(NAN_ROWS)
    assert act_sequences(frame, "S")[2] == (["chat", "recommend", "nan", "ask"], "end")
    assert act_sequences(frame, "S")[:2] == _lists(S1, S2)
    assert paths == [False, False]

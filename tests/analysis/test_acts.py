"""Figure 4-6 tables against values worked out by hand from small hand-made frames."""

from __future__ import annotations

import math
from typing import Any

import pandas as pd
import pytest

from macrs_sim.analysis.metrics.acts import act_ratios, bucket_performance, cumulative_successes

NAN = math.nan

# S1: d1 ask/recommend/recommend, d2 recommend, d3 ask/chat, d4 ask then an error.
# S2: e1 recommend/recommend, e2 recommend/ask, e3 "greet" (an act of its own).
TURN_ACTS = {
    ("S1", "d1"): ["ask", "recommend", "recommend"],
    ("S1", "d2"): ["recommend"],
    ("S1", "d3"): ["ask", "chat"],
    ("S1", "d4"): ["ask"],
    ("S2", "e1"): ["recommend", "recommend"],
    ("S2", "e2"): ["recommend", "ask"],
    ("S2", "e3"): ["greet"],
}


@pytest.fixture
def turns() -> pd.DataFrame:
    rows = [
        {"dialogue_id": d, "system": s, "sample_id": d, "turn": t, "act": a, "accepted": False}
        for (s, d), acts in TURN_ACTS.items()
        for t, a in enumerate(acts, start=1)
    ]
    return pd.DataFrame(rows)


def _dlg(
    system: str, did: str, status: str, turn: int | None, bucket: str | None, hit: float
) -> Any:
    return {
        "dialogue_id": did,
        "system": system,
        "sample_id": did,
        "bucket": bucket,
        "status": status,
        "success": float(status == "success"),  # as load.py counts: an error is a failure
        "success_turn": turn,
        "turns": NAN,
        "hit@5": hit,
        "hit@10": hit,
    }


@pytest.fixture
def dialogues() -> pd.DataFrame:
    return pd.DataFrame(
        [
            _dlg("S1", "d1", "success", 3, "top 10%", 1.0),
            _dlg("S1", "d2", "success", 1, "10-20%", 1.0),
            _dlg("S1", "d3", "failure", None, "top 10%", 1.0),
            _dlg("S1", "d4", "error", None, "top 10%", 0.0),
            _dlg("S1", "d5", "failure", None, None, 0.0),
            _dlg("S2", "e1", "success", 2, "10-20%", 1.0),
            _dlg("S2", "e2", "failure", None, "10-20%", 0.0),
            _dlg("S2", "e3", "failure", None, None, 1.0),
        ]
    )


def _cells(frame: pd.DataFrame, keys: list[str], value: str) -> dict[tuple[Any, ...], Any]:
    return {tuple(row[keys]): row[value] for _, row in frame.iterrows()}


def test_act_ratios_shares_with_shrinking_denominators(turns: pd.DataFrame) -> None:
    out = act_ratios(turns, ["S1", "S2"])
    assert list(out.columns) == ["system", "turn", "act", "count", "total", "ratio"]
    assert len(out) == 2 * 3 * 4  # every (system, turn 1..3, act) has a row
    assert list(out["act"][:4]) == ["ask", "chat", "recommend", "greet"]
    totals = _cells(out[out["act"] == "ask"], ["system", "turn"], "total")
    assert totals == {
        ("S1", 1): 4,
        ("S1", 2): 2,
        ("S1", 3): 1,
        ("S2", 1): 3,
        ("S2", 2): 2,
        ("S2", 3): 0,
    }
    ratio = _cells(out, ["system", "turn", "act"], "ratio")
    expected = {
        ("S1", 1): [0.75, 0.0, 0.25, 0.0],
        ("S1", 2): [0.0, 0.5, 0.5, 0.0],
        ("S1", 3): [0.0, 0.0, 1.0, 0.0],
        ("S2", 1): [0.0, 0.0, 2 / 3, 1 / 3],
        ("S2", 2): [0.5, 0.0, 0.5, 0.0],
    }
    for (system, turn), shares in expected.items():
        got = [ratio[(system, turn, a)] for a in ["ask", "chat", "recommend", "greet"]]
        assert got == pytest.approx(shares)
    assert all(math.isnan(ratio[("S2", 3, a)]) for a in ["ask", "chat", "recommend", "greet"])
    assert _cells(out, ["system", "turn", "act"], "count")[("S1", 1, "ask")] == 3


def test_act_ratios_system_order_and_subset(turns: pd.DataFrame) -> None:
    out = act_ratios(turns, ["S2"])
    assert set(out["system"]) == {"S2"}
    assert sorted(set(out["turn"])) == [1, 2]  # S1's third turn is not S2's
    both = act_ratios(turns, ["S2", "S1"])
    assert list(dict.fromkeys(both["system"])) == ["S2", "S1"]


def test_act_ratios_paper_acts_always_present(turns: pd.DataFrame) -> None:
    out = act_ratios(turns, ["S1"])
    assert list(dict.fromkeys(out["act"])) == ["ask", "chat", "recommend"]


def test_act_ratios_chosen_acts_keep_full_total(turns: pd.DataFrame) -> None:
    out = act_ratios(turns, ["S2"], acts=["recommend"])
    assert list(out["act"]) == ["recommend", "recommend"]
    assert list(out["total"]) == [3, 2]
    assert list(out["ratio"]) == pytest.approx([2 / 3, 0.5])


def test_act_ratios_empty() -> None:
    empty = pd.DataFrame(columns=["dialogue_id", "system", "sample_id", "turn", "act"])
    out = act_ratios(empty, ["S1"])
    assert out.empty
    assert list(out.columns) == ["system", "turn", "act", "count", "total", "ratio"]


def test_cumulative_successes(dialogues: pd.DataFrame) -> None:
    out = cumulative_successes(dialogues, ["S1", "S2", "none"], 5)
    assert list(out.columns) == ["system", "turn", "successes", "dialogues", "rate"]
    s1, s2, none = (out[out["system"] == s] for s in ["S1", "S2", "none"])
    assert list(s1["turn"]) == [1, 2, 3, 4, 5]
    assert list(s1["successes"]) == [1, 1, 2, 2, 2]
    # All 5 S1 dialogues count: the error d4 as a failure, the unbucketed d5 as well.
    assert set(s1["dialogues"]) == {5} and set(s2["dialogues"]) == {3}
    assert list(s1["rate"]) == pytest.approx([0.2, 0.2, 0.4, 0.4, 0.4])
    assert list(s2["successes"]) == [0, 1, 1, 1, 1]
    assert list(s2["rate"]) == pytest.approx([0.0, 1 / 3, 1 / 3, 1 / 3, 1 / 3])
    assert list(none["successes"]) == [0] * 5
    assert none["rate"].isna().all()


def test_cumulative_successes_short_horizon(dialogues: pd.DataFrame) -> None:
    out = cumulative_successes(dialogues, ["S1"], 2)
    assert list(out["successes"]) == [1, 1]


def test_bucket_performance(dialogues: pd.DataFrame) -> None:
    buckets = ["top 10%", "10-20%", "20-30%"]
    out = bucket_performance(dialogues, ["S1", "S2"], buckets)
    assert list(out.columns) == ["system", "bucket", "n", "success_rate", "hit@10"]
    assert list(out["bucket"]) == buckets * 2
    n = _cells(out, ["system", "bucket"], "n")
    assert n == {
        ("S1", "top 10%"): 3,  # d1, d3 and the error d4 (a failure)
        ("S1", "10-20%"): 1,
        ("S1", "20-30%"): 0,
        ("S2", "top 10%"): 0,
        ("S2", "10-20%"): 2,  # e1, e2; the unbucketed e3 is ignored
        ("S2", "20-30%"): 0,
    }
    rows = out.set_index(["system", "bucket"])
    assert rows.loc[("S1", "top 10%"), "success_rate"] == pytest.approx(1 / 3)
    assert rows.loc[("S1", "top 10%"), "hit@10"] == pytest.approx(2 / 3)
    assert rows.loc[("S1", "10-20%"), "success_rate"] == 1.0
    assert rows.loc[("S2", "10-20%"), "success_rate"] == 0.5
    assert rows.loc[("S2", "10-20%"), "hit@10"] == 0.5
    empty = out[out["n"] == 0]
    assert empty["success_rate"].isna().all() and empty["hit@10"].isna().all()


def test_bucket_performance_order_follows_given_buckets(dialogues: pd.DataFrame) -> None:
    out = bucket_performance(dialogues, ["S1"], ["10-20%", "top 10%"])
    assert list(out["bucket"]) == ["10-20%", "top 10%"]
    assert list(out["n"]) == [1, 3]

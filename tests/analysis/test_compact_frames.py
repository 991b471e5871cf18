"""The act turns read by SQL into compact columns (runs/frames.py), and `rows_where`, which
copies nothing when every row is kept (metrics/rows.py): rows worked out by hand."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd

from macrs_sim.analysis.metrics.rows import rows_where
from macrs_sim.analysis.runs.frames import act_turns_frame
from macrs_sim.protocol import DialogueResult, DialogueStatus, Exchange, SystemTurn, UserTurn
from macrs_sim.store import RunStore


def _result(did: str, acts: tuple[str, ...], accepted_at: int | None) -> DialogueResult:
    system, sample = did.split(":")
    exchanges = tuple(
        Exchange(turn=t, system=SystemTurn(act=act, text="..."),
                 user=UserTurn(text="ok", accepted=t == accepted_at))
        for t, act in enumerate(acts, start=1)
    )  # fmt: skip
    status: DialogueStatus = "success" if accepted_at else ("failure" if acts else "error")
    return DialogueResult(
        dialogue_id=did, system=system, sample_id=sample, target_id="m1", status=status,
        success_turn=accepted_at, max_turns=5, opening=UserTurn(text="hi"),
        exchanges=exchanges, error=None if acts else "RuntimeError: boom",
    )  # fmt: skip


def _store(tmp_path: Path) -> Path:
    """Dialogue rowids 1..4, not in id order: B:s-2 (3 turns), A:s-1 (no turn: an error),
    A:s-3 (2 turns; its accepted turn 2 then made the text 'false'), B:s-9 (1 turn)."""
    path = tmp_path / "store.sqlite"
    with RunStore.create(path) as store:
        store.write_dialogue(_result("B:s-2", ("ask", "chat", "recommend"), 3), [])
        store.write_dialogue(_result("A:s-1", (), None), [])
        store.write_dialogue(_result("A:s-3", ("recommend", "recommend"), 2), [])
        store.write_dialogue(_result("B:s-9", ("chat",), None), [])
        assert store.last_rowids() == (4, 0)
    with sqlite3.connect(path) as conn:
        sql = "UPDATE turns SET accepted = 'false' WHERE dialogue_id = ? AND turn = 2"
        conn.execute(sql, ("A:s-3",))
    conn.close()
    return path


def test_act_turns_up_to_a_rowid_in_dialogue_then_turn_order(tmp_path: Path) -> None:
    with RunStore.open(_store(tmp_path)) as store:
        frame = act_turns_frame(store, upto=3)
    expected = pd.DataFrame({
        "dialogue_id": pd.Series(["B:s-2"] * 3 + ["A:s-3"] * 2, dtype="str"),
        "system": pd.Series(["B", "B", "B", "A", "A"], dtype="str"),
        "sample_id": pd.Series(["s-2"] * 3 + ["s-3"] * 2, dtype="str"),
        "turn": pd.Series([1, 2, 3, 1, 2], dtype="int64"),
        "act": pd.Series(["ask", "chat", "recommend", "recommend", "recommend"], dtype="str"),
        # A:s-3's turn 2 was accepted; its cell now the text 'false' reads False, as the load's
        # record reads it (Python's bool('false') would say True).
        "accepted": pd.Series([False, False, True, False, False], dtype="bool"),
    })  # fmt: skip
    pd.testing.assert_frame_equal(frame, expected, check_exact=True)


def test_act_turns_with_the_last_dialogue_and_with_none(tmp_path: Path) -> None:
    with RunStore.open(_store(tmp_path)) as store:
        every = act_turns_frame(store, upto=4)
        none = act_turns_frame(store, upto=0)
    assert every.iloc[5:].to_dict("list") == {
        "dialogue_id": ["B:s-9"], "system": ["B"], "sample_id": ["s-9"], "turn": [1],
        "act": ["chat"], "accepted": [False],
    }  # fmt: skip
    assert len(every) == 6 and every["system"].tolist() == ["B", "B", "B", "A", "A", "B"]
    names = ["dialogue_id", "system", "sample_id", "turn", "act", "accepted"]
    pd.testing.assert_frame_equal(
        none, pd.DataFrame({c: pd.Series([], dtype=object) for c in names})
    )


def test_act_turns_share_one_object_a_dialogue_and_a_value(tmp_path: Path) -> None:
    with RunStore.open(_store(tmp_path)) as store:
        frame = act_turns_frame(store, upto=3)
    ids, acts = frame["dialogue_id"].tolist(), frame["act"].tolist()
    assert ids[0] is ids[1] is ids[2] and ids[3] is ids[4]
    assert acts[2] is acts[3] is acts[4]


def _frame() -> pd.DataFrame:
    return pd.DataFrame({"system": ["A", "B", "A"], "turn": [1, 2, 3]}, index=[10, 20, 30])


def test_rows_where_every_row_kept_is_the_frame_itself() -> None:
    frame = _frame()
    assert rows_where(frame, frame["system"].isin(["A", "B"])) is frame
    empty = frame.iloc[:0]
    assert rows_where(empty, empty["system"] == "A") is empty


def test_rows_where_some_dropped_keeps_the_index_labels() -> None:
    frame = _frame()
    kept = rows_where(frame, frame["system"] == "A")
    assert kept is not frame
    assert kept.index.tolist() == [10, 30] and kept["turn"].tolist() == [1, 3]
    none = rows_where(frame, frame["system"] == "C")
    assert none.empty and list(none.columns) == ["system", "turn"]
    assert frame.index.tolist() == [10, 20, 30]  # the frame itself untouched

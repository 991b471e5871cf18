"""The act turns read by SQL into compact columns (runs/frames.py), and `rows_where`, which
copies nothing when every row is kept (metrics/rows.py): rows worked out by hand."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from macrs_sim.analysis.metrics.rows import rows_where
from macrs_sim.analysis.runs.frames import act_turns_frame
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.protocol import DialogueResult, DialogueStatus, Exchange, SystemTurn, UserTurn
from macrs_sim.store import RunStore
from tests.analysis.handmade_runs import Script, make_run, make_sample
from tests.store.store_cells import set_turn_cell


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
        set_turn_cell(conn, "accepted", "false", "A:s-3", 2)
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


def _new(text: str) -> str:
    """`text` as a str object of its own (not the one SQLite or a literal gives)."""
    return "".join(list(text))


def _loaded(pairs: list[tuple[str, str]]) -> pd.DataFrame:
    return pd.DataFrame(
        {"dialogue_id": [_new(d) for d, _ in pairs], "sample_id": [_new(s) for _, s in pairs]}
    )


def _plain(tmp_path: Path) -> pd.DataFrame:
    with RunStore.open(tmp_path / "store.sqlite") as store:
        return act_turns_frame(store, upto=4)


ROWIDS = [("B:s-2", "s-2"), ("A:s-1", "s-1"), ("A:s-3", "s-3"), ("B:s-9", "s-9")]


def test_act_turns_take_the_loaded_frames_id_objects(tmp_path: Path) -> None:
    loaded = _loaded(ROWIDS)  # A:s-1 (no turn) skipped; B:s-9 beyond upto=3 unused
    with RunStore.open(_store(tmp_path)) as store:
        plain, every = act_turns_frame(store, upto=3), act_turns_frame(store, 4, loaded)
        frame = act_turns_frame(store, upto=3, loaded=loaded)
    pd.testing.assert_frame_equal(frame, plain, check_exact=True)
    pd.testing.assert_frame_equal(every, _plain(tmp_path), check_exact=True)
    ids, sids = loaded["dialogue_id"].tolist(), loaded["sample_id"].tolist()
    at = [0, 0, 0, 2, 2]  # B:s-2's three turns, A:s-3's two
    assert all(d is ids[i] for d, i in zip(frame["dialogue_id"].tolist(), at, strict=True))
    assert all(s is sids[i] for s, i in zip(frame["sample_id"].tolist(), at, strict=True))
    assert every["dialogue_id"].tolist()[5] is ids[3]


@pytest.mark.parametrize(
    "pairs",
    [
        [p for p in ROWIDS if p[0] != "A:s-3"],  # an id missing
        [*ROWIDS[:2], ("A:s-3", "s-X"), ROWIDS[3]],  # another sample id
        [ROWIDS[2], *ROWIDS[:2], ROWIDS[3]],  # another order: A:s-3 before B:s-2
        [],  # nothing loaded
    ],
    ids=["missing", "sample", "order", "empty"],
)
def test_act_turns_keep_their_own_ids_when_the_loaded_frame_differs(
    tmp_path: Path, pairs: list[tuple[str, str]]
) -> None:
    loaded = _loaded(pairs)
    with RunStore.open(_store(tmp_path)) as store:
        frame = act_turns_frame(store, upto=4, loaded=loaded)
    pd.testing.assert_frame_equal(frame, _plain(tmp_path), check_exact=True)
    assert frame["sample_id"].tolist() == ["s-2"] * 3 + ["s-3"] * 2 + ["s-9"]
    objects = {id(v) for c in ("dialogue_id", "sample_id") for v in loaded[c].tolist()}
    cells = frame["dialogue_id"].tolist() + frame["sample_id"].tolist()
    assert not any(id(v) in objects for v in cells)


def test_a_loaded_runs_act_turns_share_its_dialogues_ids(tmp_path: Path) -> None:
    systems: list[dict[str, object]] = [
        {"name": "A", "kind": "macrs"},
        {"name": "B", "kind": "macrs"},
    ]
    samples = [make_sample("s-1", "m1"), make_sample("s-2", "m2")]
    scripts = [Script("B", "s-2", ("A", "C", "R+")), Script("A", "s-1", (), error=True),
               Script("A", "s-2", ("R", "R")), Script("B", "s-1", ("C",))]  # fmt: skip
    run = load_run(make_run(tmp_path, "shared", systems, samples, scripts))
    turns, dialogues = run.act_turns, run.dialogues
    assert turns["dialogue_id"].tolist() == ["B:s-2"] * 3 + ["A:s-2"] * 2 + ["B:s-1"]
    ids, sids = dialogues["dialogue_id"].tolist(), dialogues["sample_id"].tolist()
    row = {d: i for i, d in enumerate(ids)}  # each turn's dialogue row
    pairs = zip(turns["dialogue_id"].tolist(), turns["sample_id"].tolist(), strict=True)
    assert all(d is ids[row[d]] and s is sids[row[d]] for d, s in pairs)

"""The load's compact pass (runs/dialogue_pass.py) gives the `dialogues` frame the old
list-per-column pass gave (9e5ca61: pandas inferring each column from a list), dtypes
included, written out by hand: an optional int is int64 when every value is known, float64
with NaN when some are, None objects when none is; text is `str` (NaN where None)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from macrs_sim.analysis.runs.dialogue_pass import Coded, Ids, LoadPass
from macrs_sim.protocol import (
    DialogueResult,
    DialogueStatus,
    Exchange,
    ItemRef,
    SystemTurn,
    UserTurn,
)

STR, OBJ = "str", object


def _result(
    did: str, sid: str, target: str, status: DialogueStatus, *, turns: int = 0,
    success_turn: int | None = None, final: tuple[str, ...] = (), error: str | None = None,
    leaks: int = 0, system: str = "A", max_turns: int = 5,
) -> DialogueResult:  # fmt: skip
    exchanges = tuple(
        Exchange(turn=t, system=SystemTurn(act="ask", text="q"), user=UserTurn(text="a"))
        for t in range(1, turns + 1)
    )
    return DialogueResult(
        dialogue_id=did, system=system, sample_id=sid, target_id=target, status=status,
        max_turns=max_turns, success_turn=success_turn, opening=UserTurn(text="hi"),
        exchanges=exchanges, final_list=tuple(ItemRef(title=i, item_id=i) for i in final),
        error=error, leaks=leaks,
    )  # fmt: skip


def _dialogues(buckets: dict[str, str | None], results: list[DialogueResult]) -> pd.DataFrame:
    load = LoadPass(buckets)
    for r in results:
        load.add(r)
    return load.dialogues()


def _expected(columns: dict[str, tuple[list[object], object]]) -> pd.DataFrame:
    return pd.DataFrame({c: pd.Series(v, dtype=t) for c, (v, t) in columns.items()})


def test_success_turn_all_known_is_int64_final_rank_some_none_is_float() -> None:
    frame = _dialogues(
        {"s-1": "top 10%", "s-2": "bottom 50%"},
        [
            # a success whose fallback list also holds the target, 2nd
            _result("A:s-1", "s-1", "m1", "success", turns=1, success_turn=1, final=("m9", "m1")),
            _result("B:s-2", "s-2", "m2", "success", turns=3, success_turn=3, leaks=2, system="B"),
        ],
    )
    expected = _expected({
        "dialogue_id": (["A:s-1", "B:s-2"], STR), "system": (["A", "B"], STR),
        "sample_id": (["s-1", "s-2"], STR), "target_id": (["m1", "m2"], STR),
        "bucket": (["top 10%", "bottom 50%"], STR), "status": (["success", "success"], STR),
        "success": ([1.0, 1.0], "float64"), "success_turn": ([1, 3], "int64"),
        "turns": ([1.0, 3.0], "float64"), "n_exchanges": ([1, 3], "int64"),
        "final_rank": ([2.0, np.nan], "float64"), "leaks": ([0, 2], "int64"),
        "error": ([None, None], OBJ), "hit@5": ([1.0, 1.0], "float64"),
        "hit@10": ([1.0, 1.0], "float64"),
    })  # fmt: skip
    pd.testing.assert_frame_equal(frame, expected, check_exact=True)


def test_success_turn_some_none_is_float_final_rank_all_known_is_int64() -> None:
    frame = _dialogues(
        {"s-1": "top 10%", "s-2": "top 10%"},
        [
            _result("A:s-1", "s-1", "m1", "success", turns=2, success_turn=2, final=("m1",)),
            # failures: max_turns + 1 = 6 turns; the target 7th (hit@10 only), then 3rd (both)
            _result("A:s-2", "s-2", "m2", "failure", turns=5, final=("m9",) * 6 + ("m2",)),
            _result("B:s-1", "s-1", "m1", "failure", turns=4, final=("m8", "m9", "m1"), leaks=4,
                    system="B"),
        ],
    )  # fmt: skip
    expected = _expected({
        "dialogue_id": (["A:s-1", "A:s-2", "B:s-1"], STR), "system": (["A", "A", "B"], STR),
        "sample_id": (["s-1", "s-2", "s-1"], STR), "target_id": (["m1", "m2", "m1"], STR),
        "bucket": (["top 10%"] * 3, STR), "status": (["success", "failure", "failure"], STR),
        "success": ([1.0, 0.0, 0.0], "float64"), "success_turn": ([2.0, np.nan, np.nan], "float64"),
        "turns": ([2.0, 6.0, 6.0], "float64"), "n_exchanges": ([2, 5, 4], "int64"),
        "final_rank": ([1, 7, 3], "int64"), "leaks": ([0, 0, 4], "int64"),
        "error": ([None] * 3, OBJ), "hit@5": ([1.0, 0.0, 1.0], "float64"),
        "hit@10": ([1.0, 1.0, 1.0], "float64"),
    })  # fmt: skip
    pd.testing.assert_frame_equal(frame, expected, check_exact=True)


def test_none_known_is_objects_an_error_among_others_and_missing_buckets() -> None:
    # s-2's bucket is None in the mapping, s-3 is not in it: both None, NaN in a str column.
    frame = _dialogues(
        {"s-1": "top 10%", "s-2": None},
        [
            _result("A:s-1", "s-1", "m1", "failure", turns=5, final=("m9",)),
            # an error: never a hit, max_turns + 1 turns, even with the target first in a list
            _result("A:s-2", "s-2", "m2", "error", turns=1, error="RuntimeError: boom",
                    max_turns=3),
            _result("A:s-3", "s-3", "m3", "failure", turns=5),
        ],
    )  # fmt: skip
    expected = _expected({
        "dialogue_id": (["A:s-1", "A:s-2", "A:s-3"], STR), "system": (["A"] * 3, STR),
        "sample_id": (["s-1", "s-2", "s-3"], STR), "target_id": (["m1", "m2", "m3"], STR),
        "bucket": (["top 10%", None, None], STR), "status": (["failure", "error", "failure"], STR),
        "success": ([0.0, 0.0, 0.0], "float64"), "success_turn": ([None] * 3, OBJ),
        "turns": ([6.0, 4.0, 6.0], "float64"), "n_exchanges": ([5, 1, 5], "int64"),
        "final_rank": ([None] * 3, OBJ), "leaks": ([0, 0, 0], "int64"),
        "error": ([None, "RuntimeError: boom", None], STR), "hit@5": ([0.0] * 3, "float64"),
        "hit@10": ([0.0] * 3, "float64"),
    })  # fmt: skip
    pd.testing.assert_frame_equal(frame, expected, check_exact=True)
    assert frame["bucket"].isna().tolist() == [False, True, True]
    assert frame["error"].isna().tolist() == [True, False, True]


def test_an_error_with_the_target_in_its_list_has_a_rank_but_no_hit() -> None:
    frame = _dialogues({}, [_result("A:s-1", "s-1", "m1", "error", final=("m1",), error="x")])
    assert frame.loc[0, ["final_rank", "hit@5", "hit@10", "turns"]].tolist() == [1, 0.0, 0.0, 6.0]
    assert frame["bucket"].tolist() == [None] and frame["bucket"].dtype == object


IDS = ["é:ü", "A:😀", "", "a\x00b", "\ud800", "ab", "c"]


def test_ids_of_any_text_come_back_as_given() -> None:
    # Empty, NUL, an emoji, a lone surrogate (the buffer's surrogatepass); "ab" then "c" must
    # not read as "a" and "bc".
    pairs = zip(IDS, IDS[::-1], strict=True)
    frame = _dialogues({}, [_result(d, s, "m1", "failure") for d, s in pairs])
    assert frame["dialogue_id"].tolist() == IDS
    assert frame["sample_id"].tolist() == IDS[::-1]
    assert frame["dialogue_id"].dtype == STR and frame["sample_id"].dtype == STR


def test_a_pass_of_no_dialogues_is_the_empty_frame_with_the_columns() -> None:
    _dialogues({}, [_result("A:s-1", "s-1", "m1", "failure")])  # a first pass, then a new one
    frame = _dialogues({"s-1": "top 10%"}, [])
    names = ["dialogue_id", "system", "sample_id", "target_id", "bucket", "status", "success",
             "success_turn", "turns", "n_exchanges", "final_rank", "leaks", "error", "hit@5",
             "hit@10"]  # fmt: skip
    expected = pd.DataFrame({c: pd.Series([], dtype=object) for c in names})
    pd.testing.assert_frame_equal(frame, expected, check_index_type=True)


def test_ids_keep_order_and_text() -> None:
    ids = Ids()
    for value in IDS:
        ids.add(value)
    column = ids.column()
    assert column.dtype == object and column.tolist() == IDS
    assert Ids().column().tolist() == []


def test_coded_keeps_order_one_object_a_value_and_none() -> None:
    first, again = "".join(["sys", "A"]), "".join(["sys", "A"])
    assert first is not again
    coded = Coded()
    for value in (first, "B", again, None, "B", "None", None):
        coded.add(value)
    column = coded.column()
    assert column.dtype == object
    assert column.tolist() == ["sysA", "B", "sysA", None, "B", "None", None]
    assert coded.codes.tolist() == [0, 1, 0, 2, 1, 3, 2]
    assert column[0] is first and column[2] is first and column[1] is column[4]
    assert column[3] is None and column[6] is None
    assert Coded().column().tolist() == []


def test_the_frame_is_built_once() -> None:
    # Building lets the columns go: a second frame would be all None, so it is refused.
    pass_ = LoadPass({})
    pass_.add(_result("MACRS:s-1", "s-1", "m1", "failure"))
    assert pass_.dialogues()["dialogue_id"].tolist() == ["MACRS:s-1"]
    with pytest.raises(RuntimeError, match="once"):
        pass_.dialogues()

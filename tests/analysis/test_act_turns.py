"""A run's turn acts, read by SQL on first use, say what the load's checked records say,
even of a cell SQLite holds in another type (a store without STRICT takes 'false' in an
integer column: pydantic reads it False, Python's bool would say True)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from macrs_sim.analysis.runs.load import load_run
from macrs_sim.protocol import DialogueResult, Exchange, SystemTurn, UserTurn
from macrs_sim.store import RunStore
from tests.store.store_cells import set_turn_cell


def _run(path: Path) -> Path:
    exchanges = tuple(
        Exchange(
            turn=t,
            system=SystemTurn(act=act, text="..."),
            user=UserTurn(text="ok", accepted=t == 2),
        )  # fmt: skip
        for t, act in ((1, "ask"), (2, "recommend"))
    )
    result = DialogueResult(dialogue_id="A:s1", system="A", sample_id="s1", target_id="m2",
                            status="success", success_turn=2, max_turns=5,
                            opening=UserTurn(text="hi"), exchanges=exchanges)  # fmt: skip
    with RunStore.create(path / "store.sqlite") as store:
        store.write_dialogue(result, [])
    return path


def test_acts_as_stored(tmp_path: Path) -> None:
    turns = load_run(_run(tmp_path)).act_turns
    assert turns.to_dict("list") == {
        "dialogue_id": ["A:s1", "A:s1"], "system": ["A", "A"], "sample_id": ["s1", "s1"],
        "turn": [1, 2], "act": ["ask", "recommend"], "accepted": [False, True],
    }  # fmt: skip
    assert str(turns["turn"].dtype) == "int64" and str(turns["accepted"].dtype) == "bool"


@pytest.mark.parametrize(("cell", "read"), [("false", False), ("true", True), ("0", False)])
def test_a_text_cell_reads_as_the_record_reads_it(tmp_path: Path, cell: str, read: bool) -> None:
    path = _run(tmp_path)
    with sqlite3.connect(path / "store.sqlite") as conn:
        set_turn_cell(conn, "accepted", cell, None, 2)
    run = load_run(path)
    (result,) = run.iter_results()
    assert result.exchanges[1].user.accepted is read  # the load's record
    assert run.act_turns["accepted"].tolist() == [False, read]

"""What `report` reads is one snapshot, read before anything is written (issue 28).

- A damaged call in the second group of a split comparison fails before group 1 is written.
- A run still being written: dialogues and calls stored after `load_run` are in no table.
- Relabelled comparisons whose dialogue ids are not `system:sample` still find their case
  studies (chat after a reset stores "MACRS:s-1/2").
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pandas as pd
import pytest

from macrs_sim.analysis.report.full import ReportOptions, build_report
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.errors import DataError
from macrs_sim.protocol import LLMCallRecord
from macrs_sim.store import RunStore
from tests.analysis.handmade_runs import Script, make_result, make_run
from tests.analysis.test_compare_protocols import ONE, SAMPLES, SYSTEMS, run_dir, turns
from tests.store.store_cells import set_call_cell

OPTIONS = ReportOptions(n_resamples=50)


def test_damaged_call_in_a_later_group_writes_nothing(tmp_path: Path) -> None:
    a = run_dir(tmp_path, "a", tables=turns(5))
    b = run_dir(tmp_path, "b", ONE, max_turns=1, tables=turns(1))
    with RunStore.open(b / "store.sqlite") as store:
        store.write_calls([LLMCallRecord(dialogue_id="MACRS:s-1", system="MACRS", role="ask",
                                         turn=1, model="m")])  # fmt: skip
    with sqlite3.connect(b / "store.sqlite") as conn:
        set_call_cell(conn, "llm_calls", "prompt_tokens", "lots")
    runs = [load_run(a), load_run(b)]
    with pytest.raises(DataError, match="table llm_calls, row 1: prompt_tokens"):
        build_report(runs, tmp_path / "cmp", ReportOptions(n_resamples=50, split=True))
    assert not (tmp_path / "cmp").exists()


def _call(did: str, system: str, turn: int) -> LLMCallRecord:
    return LLMCallRecord(dialogue_id=did, system=system, role="ask", turn=turn, model="m",
                         prompt_tokens=100, completion_tokens=10)  # fmt: skip


def test_a_run_still_being_written_is_reported_as_loaded(tmp_path: Path) -> None:
    # 2 dialogues with 2 calls a turn (make_run): MACRS 2 turns, LLM 1 turn -> 6 calls.
    scripts = [Script("MACRS", "s-1", ("A", "R+")), Script("LLM", "s-1", ("R+",))]
    run_path = make_run(tmp_path, "live", SYSTEMS, SAMPLES, scripts, finished=False)
    run = load_run(run_path)
    late = make_result(Script("MACRS", "s-2", ("A", "A", "R+")), "m2")
    with RunStore.open(run_path / "store.sqlite") as store:  # the campaign goes on
        store.write_dialogue(late, [_call(late.dialogue_id, "MACRS", t) for t in (1, 2, 3)] * 3)
    build_report([run], tmp_path / "out", OPTIONS)
    cost = pd.read_csv(tmp_path / "out" / "tables" / "cost_by_system.csv")
    assert cost["calls"].tolist() == [4, 2]
    usage = pd.read_csv(tmp_path / "out" / "tables" / "calls_per_turn.csv")
    assert usage[["dialogues", "turns", "llm_calls_per_turn"]].values.tolist() == [
        [1, 2, 2.0], [1, 1, 2.0]
    ]  # fmt: skip
    # What streams (validity, case studies) stops where the load stopped too.
    assert [r.dialogue_id for r in run.iter_results()] == ["MACRS:s-1", "LLM:s-1"]
    assert len(run.read_calls()) == 6


def test_case_studies_of_relabelled_runs_with_odd_ids(tmp_path: Path) -> None:
    paths = []
    for name in ("a", "b"):
        path = make_run(tmp_path, name, SYSTEMS[:1], SAMPLES[:1], [])
        result = make_result(Script("MACRS", "s-1", ("A", "R+")), "m1")
        odd = result.model_copy(update={"dialogue_id": "MACRS:s-1/2"})
        with RunStore.open(path / "store.sqlite") as store:
            store.write_dialogue(odd, [])
        paths.append(path)
    runs = [load_run(p) for p in paths]
    options = ReportOptions(n_resamples=50, case_ids=("MACRS (b):s-1/2",))
    text = build_report(runs, tmp_path / "cmp", options).read_text()
    assert "## Case studies (Figure 7)" in text
    assert "### MACRS (b) · s-1 · SUCCESS at turn 2" in text.split("## Case studies", 1)[1]

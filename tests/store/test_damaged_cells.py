"""A store with one damaged cell or an unknown value: `report` and `view` print one line
naming the run, the table and the row, and exit 2 (no traceback)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from macrs_sim.cli import main
from macrs_sim.errors import DataError
from macrs_sim.protocol import ToolCallRecord
from macrs_sim.store import RunStore
from tests.analysis.handmade_runs import Script, make_run, make_sample

SYSTEMS: list[dict[str, object]] = [
    {"name": "MACRS", "kind": "macrs"},
    {"name": "LLM", "kind": "single_llm"},
]
SAMPLES = [make_sample("s-1", "m1"), make_sample("s-2", "m2")]
SCRIPTS = [Script("MACRS", "s-1", ("A", "R+")), Script("LLM", "s-1", ("R",), final=2)]
ALL_STATUSES = "known: running, finished, stopped_budget, incomplete"

# A turn or call row points at its dialogue by key (macrs_sim/store/format.py, format 2).
MACRS_S1 = "(SELECT id FROM dialogues WHERE dialogue_id = 'MACRS:s-1')"
LLM_S1 = "(SELECT id FROM dialogues WHERE dialogue_id = 'LLM:s-1')"

# (damage, table, row, why): each worked out from the hand-made run of `make_run`.
# The damage is done to format 2's tables; the line names the table as read (its view).
CASES = [
    (
        f"UPDATE turn_rows SET items_json = '[{{broken' WHERE dialogue = {MACRS_S1} AND turn = 2",
        "turns", "MACRS:s-1 turn 2",
        "Expecting property name enclosed in double quotes: line 1 column 3 (char 2)",
    ),
    (
        "UPDATE dialogues SET opening_json = 'nope' WHERE dialogue_id = 'LLM:s-1'",
        "dialogues", "LLM:s-1", "Expecting value: line 1 column 1 (char 0)",
    ),
    (
        "UPDATE dialogues SET final_list_json = '{}' WHERE dialogue_id = 'LLM:s-1'",
        "dialogues", "LLM:s-1", "final_list: Input should be a valid tuple",
    ),
    (
        "UPDATE dialogues SET status = 'maybe' WHERE dialogue_id = 'LLM:s-1'",
        "dialogues", "LLM:s-1", "status: Input should be 'success', 'failure' or 'error'",
    ),
    (
        "UPDATE samples SET json = '{\"x\": 1' WHERE sample_id = 's-2'",
        "samples", "s-2", "Invalid JSON: EOF while parsing an object at line 1 column 7",
    ),
    (
        "UPDATE call_rows SET prompt_tokens = 'many' WHERE id = 3",
        "llm_calls", "3",
        "prompt_tokens: Input should be a valid integer, unable to parse string as an integer",
    ),
    (  # read as the report streams the calls: SQLite cannot decode the cell
        "INSERT INTO labels (text) VALUES (CAST(x'ff' AS TEXT));"
        " UPDATE call_rows SET model = last_insert_rowid() WHERE id = 2",
        "llm_calls", "after 1", "column model holds text that is not UTF-8",
    ),
    (
        "UPDATE tool_rows SET input_json = '{' WHERE id = 1",
        "tool_calls", "1",
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    ),
    (
        "UPDATE turn_rows SET explain_json = printf('%.*c', 100000, '[') "
        f"WHERE dialogue = {MACRS_S1} AND turn = 2",
        "turns", "MACRS:s-1 turn 2",
        "maximum recursion depth exceeded while decoding a JSON array from a unicode string",
    ),
    (
        "UPDATE meta SET value = 'weird' WHERE key = 'status'",
        "meta", "status", f"unknown run status 'weird' ({ALL_STATUSES})",
    ),
    (
        "UPDATE meta SET value = '[oops' WHERE key = 'systems'",
        "meta", "systems", "not JSON (Expecting value: line 1 column 2 (char 1))",
    ),
    (
        "UPDATE meta SET value = '4x' WHERE key = 'expected_dialogues'",
        "meta", "expected_dialogues", "not a count of dialogues: '4x'",
    ),
    (
        # Not UTF-8, with an escape sequence: SQLite cannot hand the row over at all.
        "UPDATE turn_rows SET user_text = CAST(x'ff1b5d323b07' AS TEXT) "
        f"WHERE dialogue = {LLM_S1} AND turn = 1",
        "turns", "after MACRS:s-1 turn 2", "column user_text holds text that is not UTF-8",
    ),
]  # fmt: skip


def _damaged_run(tmp_path: Path, sql: str) -> Path:
    run = make_run(tmp_path, "r", SYSTEMS, SAMPLES, SCRIPTS)
    with RunStore.open(run / "store.sqlite") as store:
        call = ToolCallRecord(
            dialogue_id="LLM:s-1", system="LLM", role="recommender", turn=1, tool="sql_query",
            input={"sql": "SELECT 1"}, output_chars=3, latency_s=0.1,
        )  # fmt: skip
        store.write_calls([], tool_calls=[call])
    conn = sqlite3.connect(run / "store.sqlite")
    with conn:
        conn.executescript(sql)
        assert conn.total_changes >= 1
    conn.close()
    return run


@pytest.mark.parametrize(("sql", "table", "row", "why"), CASES)
@pytest.mark.parametrize("command", ["report", "view"])
def test_one_line_names_run_table_and_row(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    sql: str,
    table: str,
    row: str,
    why: str,
) -> None:
    run = _damaged_run(tmp_path, sql)
    args = [command, str(run)] + (["--out", str(tmp_path / "site")] if command == "view" else [])
    assert main(args) == 2
    err = capsys.readouterr().err
    store = run / "store.sqlite"
    assert err == f"error: {store}: damaged run store: table {table}, row {row}: {why}\n"
    written = {"report.md", "results.csv", "validity.csv", "tables", "figures"}
    assert not written & {p.name for p in run.iterdir()}, "nothing is written"
    assert not (tmp_path / "site").exists()


def test_a_flag_outside_0_1_fails_in_its_dialogue(tmp_path: Path) -> None:
    """Turn rows are checked as part of their dialogue: the dialogue is the row named."""
    sql = f"UPDATE turn_rows SET accepted = 7 WHERE dialogue = {MACRS_S1} AND turn = 1"
    run = _damaged_run(tmp_path, sql)
    with RunStore.open(run / "store.sqlite") as store, pytest.raises(DataError) as err:
        store.read_results()
    assert str(err.value) == (
        f"{run / 'store.sqlite'}: damaged run store: table dialogues, row MACRS:s-1: "
        "exchanges.0.user.accepted: Input should be a valid boolean, unable to interpret input"
    )


def test_a_sound_store_reads_whole(tmp_path: Path) -> None:
    run = _damaged_run(tmp_path, "UPDATE meta SET value = 'incomplete' WHERE key = 'status'")
    with RunStore.open(run / "store.sqlite") as store:
        assert [r.status for r in store.read_results()] == ["success", "failure"]
        assert [c.tool for c in store.read_tool_calls()] == ["sql_query"]
        assert len(store.read_calls()) == 2 * 2 + 1 * 2  # two calls per turn, three turns
        assert store.get_meta("status") == "incomplete"

"""Store format 2 (macrs_sim/store/format.py): a format 1 store, written here row by row as an older
macrs-sim wrote it, is upgraded on open with every row, id and order kept; its views show
format 1's rows exactly; a store that cannot be written is read as format 1."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from macrs_sim.errors import DataError
from macrs_sim.protocol import LLMCallRecord
from macrs_sim.store import RunStore, run_store
from macrs_sim.store import format as store_format
from macrs_sim.store.format import SCHEMA_V1, statements

OPENING = '{"text":"Hi","accepted":false,"leak_retries":0,"redacted":false,"ended":false}'
ITEMS = '[{"title":"Heat","item_id":"m1","score":1.0,"method":"exact"}]'
# Rowids 3 and 7, written b before a: the upgrade keeps rowids, hence the order written.
DIALOGUES = [
    (3, "S:b", "S", "b", "m1", "success", 1, 1, 5, None, 0, OPENING, ITEMS),
    (7, "S:a", "S", "a", "m2", "failure", None, 6, 5, None, 1, OPENING, "[]"),
]
TURNS = [
    ("S:b", 1, "recommend", "Heat?", ITEMS, '{"k":[1,{"x":null}]}', "Yes", 1, 0, 0, 0),
    ("S:a", 1, "ask", "Genre?", "[]", "{}", "Noir", 0, 2, 1, 0),
    ("S:a", 2, "chat", "Nice.", "[]", "{}", "Bye", 0, 0, 0, 1),
]
# id, dialogue_id, system, role, turn, model, prompt, completion, latency, cached, ok, error
CALLS = [
    (1, None, None, "sample_builder", None, "qwen", 10, 2, 0.5, 0, 1, None),
    (2, "S:b", "S", "planner", 1, "qwen", 120, 30, 0.25, 1, 1, None),
    (4, "S:a", "S", "ask", 1, "llama", 99, 9, 0.1, 0, 0, "bad json"),
    (5, "ghost", "S", "judge", None, "qwen", 1, 1, 0.0, 0, 1, None),  # no such dialogue
]
TOOLS = [(2, "S:a", "S", "recommender", 2, "sql", '{"q":"é"}', 12, 0.3, 1, None)]


def _v1_store(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")  # as RunStore left every store
    with conn:
        for sql in statements(SCHEMA_V1):
            conn.execute(sql)
        conn.execute("INSERT INTO meta VALUES ('schema_version', '1')")
        conn.executemany(f"INSERT INTO dialogues (rowid, {_DIALOGUE_COLS}) VALUES ({_q(13)})",
                         DIALOGUES)  # fmt: skip
        conn.executemany(f"INSERT INTO turns VALUES ({_q(11)})", TURNS)
        conn.executemany(f"INSERT INTO llm_calls VALUES ({_q(12)})", CALLS)
        conn.executemany(f"INSERT INTO tool_calls VALUES ({_q(11)})", TOOLS)
    conn.close()
    return path


_DIALOGUE_COLS = (
    "dialogue_id, system, sample_id, target_id, status, success_turn, turns_taken, max_turns,"
    " error, leaks, opening_json, final_list_json"
)


def _q(n: int) -> str:
    return ", ".join("?" * n)


def _rows(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(path)
    try:
        return [tuple(r) for r in conn.execute(sql)]
    finally:
        conn.close()


VIEWED = {
    "dialogues": f"SELECT rowid, {_DIALOGUE_COLS} FROM dialogues ORDER BY rowid",
    "turns": "SELECT * FROM turns ORDER BY dialogue_id, turn",
    "llm_calls": "SELECT * FROM llm_calls ORDER BY id",
    "tool_calls": "SELECT * FROM tool_calls ORDER BY id",
}


def test_an_old_store_is_upgraded_with_every_row_kept(tmp_path: Path) -> None:
    path = _v1_store(tmp_path / "store.sqlite")
    before = {name: _rows(path, sql) for name, sql in VIEWED.items()}
    with RunStore.open(path) as store:
        assert store.get_meta("schema_version") == "2"
        assert [r.dialogue_id for r in store.read_results()] == ["S:b", "S:a"]
        assert store.last_rowids() == (7, 5)
        assert [c.dialogue_id for c in store.read_calls()] == [None, "S:b", "S:a", "ghost"]
    after = {name: _rows(path, sql) for name, sql in VIEWED.items()}
    assert after == before
    assert before["llm_calls"] == CALLS and before["tool_calls"] == TOOLS
    # Each name once; a call names its stored dialogue by key, the ghost by text.
    assert _rows(path, "SELECT text FROM labels ORDER BY text") == [
        (t,) for t in ("S", "ask", "judge", "llama", "planner", "qwen", "recommender",
                       "sample_builder", "sql")
    ]  # fmt: skip
    assert _rows(path, "SELECT id, dialogue, other_dialogue FROM call_rows ORDER BY id") == [
        (1, None, None), (2, 3, None), (4, 7, None), (5, None, "ghost"),
    ]  # fmt: skip
    tables = {r[0] for r in _rows(path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert not {t for t in tables if str(t).startswith("v1_")}


def test_the_upgraded_store_takes_new_rows(tmp_path: Path) -> None:
    path = _v1_store(tmp_path / "store.sqlite")
    with RunStore.open(path) as store:
        call = LLMCallRecord(dialogue_id="S:a", system="S", role="new", turn=3, model="qwen")
        store.write_calls([call])
        assert store.read_calls()[-1] == call
        assert store.last_rowids() == (7, 6)  # ids go on after the old ones
        store.set_meta("x", "1")
        assert store.delete_error_dialogues() == 0


def test_a_store_that_cannot_be_written_is_read_as_format_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _v1_store(tmp_path / "store.sqlite")
    before = {name: _rows(path, sql) for name, sql in VIEWED.items()}
    connect = run_store._connect
    # Read-only by the connection, not file permissions (the tests may run as root).
    monkeypatch.setattr(run_store, "_connect", lambda p, mode: connect(p, "ro"))
    with RunStore.open(path) as store:
        assert store.get_meta("schema_version") == "1"
        assert [r.dialogue_id for r in store.read_results()] == ["S:b", "S:a"]
        assert [c.dialogue_id for c in store.read_calls()] == [None, "S:b", "S:a", "ghost"]
        assert [t.tool for t in store.read_tool_calls()] == ["sql"]
    assert {name: _rows(path, sql) for name, sql in VIEWED.items()} == before


def test_an_upgrade_cut_short_leaves_format_1_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _v1_store(tmp_path / "store.sqlite")
    before = {name: _rows(path, sql) for name, sql in VIEWED.items()}
    script = store_format._upgrade_script
    # The last statement (the format's number) fails: everything before it is rolled back.
    monkeypatch.setattr(
        store_format, "_upgrade_script", lambda c: [*script(c)[:-1], "UPDATE nowhere SET x = 1"]
    )
    with pytest.raises(DataError) as err:
        RunStore.open(path)
    # Not "once no other macrs-sim uses it": that is said only when the store is busy.
    assert str(err.value) == (
        f"{path}: run store format 1 could not be rewritten as format 2 (no such table: "
        "nowhere); nothing was changed"
    )
    assert _rows(path, "SELECT value FROM meta WHERE key = 'schema_version'") == [("1",)]
    assert {name: _rows(path, sql) for name, sql in VIEWED.items()} == before
    tables = {r[0] for r in _rows(path, "SELECT name FROM sqlite_master WHERE type='table'")}
    assert "labels" not in tables and "turn_rows" not in tables


def test_calls_name_their_dialogue_once(tmp_path: Path) -> None:
    from tests.store.test_run_store import _call, _result

    with RunStore.create(tmp_path / "store.sqlite") as store:
        store.write_dialogue(_result("d1"), [_call("d1"), _call("d1", role="ask")])
        store.write_calls([_call("elsewhere")])
        assert [c.dialogue_id for c in store.read_calls()] == ["d1", "d1", "elsewhere"]
    path = tmp_path / "store.sqlite"
    assert _rows(path, "SELECT dialogue, other_dialogue, role FROM call_rows ORDER BY id") == [
        (1, None, 2), (1, None, 4), (None, "elsewhere", 2),
    ]  # fmt: skip
    assert _rows(path, "SELECT id, text FROM labels ORDER BY id") == [
        (1, "macrs"), (2, "planner"), (3, "qwen"), (4, "ask"),
    ]  # fmt: skip


def _quick(monkeypatch: pytest.MonkeyPatch) -> None:
    """Connections that wait 0.1 s for a lock instead of SQLite's 5 s."""

    def connect(path: Path, mode: str) -> sqlite3.Connection:
        uri = f"{path.resolve().as_uri()}?mode={mode}"
        conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=0.1)
        conn.row_factory = sqlite3.Row
        return conn

    monkeypatch.setattr(run_store, "_connect", connect)


def test_a_store_in_use_is_not_mistaken_for_a_read_only_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _v1_store(tmp_path / "store.sqlite")
    _quick(monkeypatch)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process writing
    try:
        with pytest.raises(DataError, match="could not be rewritten as format 2 \\(database "
                           "is locked\\); nothing was changed"):  # fmt: skip
            RunStore.open(path)
    finally:
        other.execute("ROLLBACK")
        other.close()
    with RunStore.open(path) as store:  # free again: upgraded
        assert store.format == "2"


def test_a_researchers_view_reads_the_same_after_the_upgrade(tmp_path: Path) -> None:
    path = _v1_store(tmp_path / "store.sqlite")
    mine = "SELECT * FROM mine ORDER BY model"
    with sqlite3.connect(path) as conn:
        conn.execute(
            "CREATE VIEW mine AS SELECT model, COUNT(*) AS n, SUM(prompt_tokens) AS p "
            "FROM llm_calls GROUP BY model"
        )
    conn.close()
    before = _rows(path, mine)
    assert before == [("llama", 1, 99), ("qwen", 3, 131)]
    RunStore.open(path).close()
    assert _rows(path, mine) == before


def test_call_ids_go_on_from_format_1s_counter(tmp_path: Path) -> None:
    path = _v1_store(tmp_path / "store.sqlite")
    with sqlite3.connect(path) as conn:  # calls 6-9 were made and deleted by hand
        conn.execute("UPDATE sqlite_sequence SET seq = 9 WHERE name = 'llm_calls'")
        conn.execute("INSERT INTO sqlite_sequence VALUES ('tool_calls', 4)")
    conn.close()
    with RunStore.open(path) as store:
        store.write_calls([LLMCallRecord(dialogue_id=None, system=None, role="r", turn=None,
                                         model="m")])  # fmt: skip
        assert store.last_rowids() == (7, 10)
    assert _rows(path, "SELECT name, seq FROM sqlite_sequence WHERE name LIKE '%_rows'") == [
        ("call_rows", 10), ("tool_rows", 4),
    ]  # fmt: skip


@pytest.mark.parametrize("writable", [True, False])
def test_counts_and_calls_in_dialogue_order_on_either_format(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, writable: bool
) -> None:
    path = _v1_store(tmp_path / "store.sqlite")
    if not writable:
        connect = run_store._connect
        monkeypatch.setattr(run_store, "_connect", lambda p, mode: connect(p, "ro"))
    with RunStore.open(path) as store:
        assert store.format == ("2" if writable else "1")
        assert store.counts() == {"dialogues": 2, "turns": 3, "llm_calls": 4, "tool_calls": 1}
        # Calls of stored dialogues, S:b (rowid 3) before S:a (rowid 7): not 1 or the ghost.
        calls = store.calls_in_dialogue_order("llm_calls", ["dialogue_id", "role"])
        assert [tuple(r) for r in calls] == [(2, "S:b", "planner"), (4, "S:a", "ask")]
        tools = store.calls_in_dialogue_order("tool_calls", ["dialogue_id", "tool"])
        assert [tuple(r) for r in tools] == [(2, "S:a", "sql")]

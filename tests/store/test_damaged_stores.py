"""Run stores damaged or customised by hand, and stores that cannot be written (issue 40 §2).

Each store is the hand-made hostile run (tests/viewer/hostile_run.py: 4 dialogues), then
edited with the sqlite3 module as a researcher's shell would; `report` and `view` must end
in one `error:` line saying what is wrong (exit 2, no traceback), or read a sound store that
cannot be written as it is, leaving nothing beside it.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from macrs_sim.cli import main
from macrs_sim.errors import DataError
from macrs_sim.store import RunStore
from tests.store.store_v1 import as_format_1
from tests.viewer.hostile_run import make_hostile_run

LLM_CALLS = (
    "dialogue_id, system, role, model, prompt_tokens, completion_tokens, latency_s, cached, "
    "ok, error"
)


def _edit(store: Path, *sql: str) -> None:
    conn = sqlite3.connect(store, isolation_level=None)
    try:
        for statement in sql:
            conn.execute(statement)
    finally:
        conn.close()


def _one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err
    return err.removeprefix("error: ").rstrip("\n")


@pytest.mark.parametrize(
    ("sql", "problem"),
    [
        (
            ["DROP TABLE labels"],
            "table labels is missing; view llm_calls cannot be read (no such table: "
            "main.labels); view tool_calls cannot be read (no such table: main.labels)",
        ),
        (["DROP VIEW turns"], "view turns is missing"),
        (
            ["DROP VIEW llm_calls", "CREATE VIEW llm_calls AS SELECT id, turn FROM call_rows"],
            f"view llm_calls lacks column {LLM_CALLS}",
        ),
        (
            ["DROP VIEW tool_calls", "CREATE TABLE tool_calls (id INTEGER)"],
            "tool_calls is a table, not the view the store needs",
        ),
    ],
    ids=["no-labels", "no-turns-view", "llm-calls-of-other-columns", "tool-calls-a-table"],
)
@pytest.mark.parametrize("command", ["report", "view"])
def test_a_store_lacking_what_a_reader_relies_on_is_one_line(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    command: str,
    sql: list[str],
    problem: str,
) -> None:
    run = make_hostile_run(tmp_path)
    _edit(run / "store.sqlite", *sql)
    argv = [command, str(run)] + (["--out", str(tmp_path / "site")] if command == "view" else [])
    assert main(argv) == 2
    assert _one_error(capsys) == f"{run / 'store.sqlite'}: damaged run store: {problem}"
    assert not (run / "report.md").exists() and not (tmp_path / "site").exists()


def test_a_format_1_store_without_its_turns_says_so(tmp_path: Path) -> None:
    store = as_format_1(make_hostile_run(tmp_path) / "store.sqlite")
    _edit(store, "DROP TABLE turns")
    with pytest.raises(DataError) as err:
        RunStore.open(store)
    assert str(err.value) == f"{store}: damaged run store: table turns is missing"


def test_a_format_1_store_with_a_researchers_labels_table_is_named_not_busy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_hostile_run(tmp_path)
    store = as_format_1(run / "store.sqlite")
    _edit(store, "CREATE TABLE labels (dialogue_id TEXT, label TEXT)")
    assert main(["report", str(run)]) == 2
    assert _one_error(capsys) == (
        f"{store}: run store format 1 holds its own labels, a name format 2 needs: rename it "
        "(ALTER TABLE labels RENAME TO my_labels) and open the store again; nothing was changed"
    )
    with sqlite3.connect(store) as conn:  # format 1, as it was
        assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (
            "1",
        )
    conn.close()
    _edit(store, "ALTER TABLE labels RENAME TO my_labels")
    with RunStore.open(store) as opened:  # as the line says: then it is upgraded
        assert opened.format == "2" and opened.count_dialogues() == 4


def _cannot_write(monkeypatch: pytest.MonkeyPatch, folder: Path) -> None:
    """`folder` and what is in it as a user who may not write them sees them (the tests may
    run as root, for whom permission bits mean nothing)."""
    real = os.access

    def access(path: object, mode: int, *args: object, **kw: object) -> bool:
        inside = Path(str(path)).resolve().is_relative_to(folder.resolve())
        if mode & os.W_OK and inside:
            return False
        return real(path, mode, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", access)


def test_a_store_that_cannot_be_written_is_viewed_leaving_nothing_beside_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    run = make_hostile_run(tmp_path)
    before = sorted(p.name for p in run.iterdir())
    _cannot_write(monkeypatch, run)
    # What lies beside the store while it is open (SQLite removes its -wal and -shm when the
    # last connection closes, if it may: a user who cannot write the folder is left them).
    seen: list[list[str]] = []
    close = RunStore.close

    def closing(store: RunStore) -> None:
        seen.append(sorted(p.name for p in run.iterdir()))
        close(store)

    monkeypatch.setattr(RunStore, "close", closing)
    assert main(["view", str(run), "--out", str(tmp_path / "site")]) == 0
    assert "(4 dialogues" in capsys.readouterr().out
    assert before == ["scenario.resolved.toml", "store.sqlite"]
    assert seen and all(names == before for names in seen)
    assert sorted(p.name for p in run.iterdir()) == before


def test_a_read_only_format_1_store_is_read_as_format_1_and_left_as_it_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = as_format_1(make_hostile_run(tmp_path) / "store.sqlite")
    data = store.read_bytes()
    _cannot_write(monkeypatch, store.parent)
    with RunStore.open(store) as opened:
        assert opened.read_only and opened.format == "1"
        assert [r.dialogue_id for r in opened.read_results()] == [
            "MACRS:s-1", "single:s-1", "MACRS:s-2", "single:s-2",
        ]  # fmt: skip
        assert len(opened.read_calls()) == 5
    assert store.read_bytes() == data
    assert sorted(p.name for p in store.parent.iterdir()) == [
        "scenario.resolved.toml", "store.sqlite",
    ]  # fmt: skip


def test_writes_still_in_a_wal_are_read_not_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stopped campaign's -wal holds dialogues the file lacks: an immutable open would miss
    them, so such a store is read through SQLite's read-only mode instead."""
    run = make_hostile_run(tmp_path)
    keep = sqlite3.connect(run / "store.sqlite")  # holds the -wal open: not checkpointed
    keep.execute("PRAGMA wal_autocheckpoint=0")
    keep.execute("DELETE FROM dialogues WHERE dialogue_id = 'single:s-2'")
    keep.commit()
    assert (run / "store.sqlite-wal").stat().st_size > 0
    _cannot_write(monkeypatch, run)
    try:
        with RunStore.open(run / "store.sqlite") as opened:
            assert opened.read_only and opened.count_dialogues() == 3
    finally:
        keep.close()

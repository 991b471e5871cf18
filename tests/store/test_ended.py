"""A user who ended the dialogue (`UserTurn.ended`) is stored, read back, and a store made
before the column existed gains it on open, its turns read as never ended."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from macrs_sim.protocol import DialogueResult, Exchange, SystemTurn, UserTurn
from macrs_sim.store import RunStore
from macrs_sim.store.stream import exchange
from tests.store.store_v1 import as_format_1


def _result(ended: bool) -> DialogueResult:
    exchanges = (
        Exchange(turn=1, system=SystemTurn(act="ask", text="Which era?"),
                 user=UserTurn(text="The 90s.")),
        Exchange(turn=2, system=SystemTurn(act="chat", text="Nice."),
                 user=UserTurn(text="Bye.", ended=ended)),
    )  # fmt: skip
    return DialogueResult(dialogue_id="d1", system="s", sample_id="x", target_id="m2",
                          status="failure", max_turns=5, opening=UserTurn(text="Hi"),
                          exchanges=exchanges)  # fmt: skip


def test_ended_round_trips(tmp_path: Path) -> None:
    with RunStore.create(tmp_path / "s.sqlite") as store:
        store.write_dialogue(_result(ended=True), [])
        (back,) = store.read_results()
    assert back == _result(ended=True)
    assert [ex.user.ended for ex in back.exchanges] == [False, True]


def test_an_older_store_gains_the_column_and_reads_as_never_ended(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with RunStore.create(path) as store:
        store.write_dialogue(_result(ended=False), [])
    as_format_1(path, ended=False)  # the store as made before `ended` existed
    with RunStore.open(path) as store:
        (back,) = store.read_results()
        store.write_dialogue(_result(ended=True).model_copy(update={"dialogue_id": "d2"}), [])
        ended = [[ex.user.ended for ex in r.exchanges] for r in store.read_results()]
    assert back == _result(ended=False)
    assert ended == [[False, False], [False, True]]


def test_a_turn_row_without_the_column_reads_as_never_ended() -> None:
    """A store that cannot be written (a read-only copy) keeps its old `turns` table."""
    conn = sqlite3.connect(":memory:")
    conn.row_factory = sqlite3.Row
    row = conn.execute(
        "SELECT 1 AS turn, 'ask' AS act, 'Q' AS system_text, '[]' AS items_json,"
        " '{}' AS explain_json, 'A' AS user_text, 0 AS accepted, 0 AS leak_retries,"
        " 0 AS redacted"
    ).fetchone()
    got = Exchange.model_validate(exchange(row))
    assert (got.user.text, got.user.ended, got.system.act) == ("A", False, "ask")

"""RunStore: round trips, all-or-nothing writes, reopening, and refusing foreign files."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from macrs_sim.errors import DataError
from macrs_sim.protocol import (
    DialogueResult,
    DialogueStatus,
    Exchange,
    ItemRef,
    LLMCallRecord,
    Sample,
    SystemTurn,
    UserTurn,
)
from macrs_sim.store import RunStore


def _exchange(turn: int, accepted: bool = False) -> Exchange:
    return Exchange(
        turn=turn,
        system=SystemTurn(
            act="recommend",
            text=f"Try these (turn {turn})",
            items=(
                ItemRef(title="Heat", item_id="m1", score=0.87, method="fuzzy"),
                ItemRef(title="Unknown Film"),
            ),
            explain={
                "candidates": [{"act": "ask", "text": "Genre?"}, {"act": "chat", "text": "Hi"}],
                "profile": {"likes": ["crime", "noir"], "weights": {"crime": 0.5}},
                "reasoning": None,
            },
        ),
        user=UserTurn(text="Maybe", accepted=accepted, leak_retries=2, redacted=True),
    )


def _result(did: str, system: str = "macrs", status: DialogueStatus = "failure") -> DialogueResult:
    success = status == "success"
    return DialogueResult(
        dialogue_id=did,
        system=system,
        sample_id=f"s-{did}",
        target_id="m1",
        status=status,
        max_turns=5,
        success_turn=2 if success else None,
        opening=UserTurn(text="I want a movie", leak_retries=1),
        exchanges=(_exchange(1), _exchange(2, accepted=success)) if status != "error" else (),
        final_list=(ItemRef(title="Heat", item_id="m1", score=1.0, method="exact"),),
        error="timeout" if status == "error" else None,
        leaks=1,
    )


def _call(did: str | None, role: str = "planner", turn: int | None = 1) -> LLMCallRecord:
    return LLMCallRecord(
        dialogue_id=did,
        system="macrs" if did else None,
        role=role,
        turn=turn,
        model="qwen",
        prompt_tokens=120,
        completion_tokens=30,
        latency_s=0.25,
        cached=bool(turn),
        ok=did != "d2",
        error=None if did != "d2" else "bad json",
    )


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    return RunStore.create(tmp_path / "run" / "store.sqlite")


def test_dialogue_round_trip_is_equal(store: RunStore) -> None:
    results = [
        _result("d1", status="success"),
        _result("d2", system="chatgpt"),
        _result("d3", status="error"),
    ]
    for r in results:
        store.write_dialogue(r, [_call(r.dialogue_id)])
    assert store.read_results() == results
    assert store.read_results("chatgpt") == [results[1]]
    assert store.read_results("nobody") == []
    assert store.counts() == {"dialogues": 3, "turns": 4, "llm_calls": 3, "tool_calls": 0}


def test_calls_round_trip(store: RunStore) -> None:
    dialogue_calls = [_call("d2", role="user"), _call("d2", turn=None)]
    store.write_calls([_call(None, role="sample_builder", turn=None)])
    store.write_dialogue(_result("d2"), dialogue_calls)
    assert store.read_calls() == [_call(None, role="sample_builder", turn=None), *dialogue_calls]


def test_duplicate_dialogue_writes_nothing(store: RunStore) -> None:
    store.write_dialogue(_result("d1"), [_call("d1")])
    before = store.counts()
    with pytest.raises(ValueError, match="d1"):
        store.write_dialogue(_result("d1", status="success"), [_call("d1"), _call("d1")])
    assert store.counts() == before
    assert store.read_results() == [_result("d1")]


def test_failure_mid_dialogue_rolls_back_dialogue_row(store: RunStore) -> None:
    # The dialogue row goes in first; the repeated turn number fails after it.
    bad = _result("d9").model_copy(update={"exchanges": (_exchange(1), _exchange(1))})
    with pytest.raises(ValueError, match="d9"):
        store.write_dialogue(bad, [_call("d9")])
    assert store.counts() == {"dialogues": 0, "turns": 0, "llm_calls": 0, "tool_calls": 0}
    assert store.finished_dialogue_ids() == set()


def test_finished_ids_and_reopen(tmp_path: Path) -> None:
    path = tmp_path / "store.sqlite"
    with RunStore.create(path) as store:
        store.write_dialogue(_result("d1"), [])
        store.write_dialogue(_result("d2", status="error"), [])
        store.set_meta("scenario_name", "demo")
    with RunStore.open(path) as store:
        assert store.finished_dialogue_ids() == {"d1", "d2"}
        assert store.get_meta("scenario_name") == "demo"
        assert store.read_results() == [_result("d1"), _result("d2", status="error")]
    with sqlite3.connect(path) as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_closed_store_refuses_use(tmp_path: Path) -> None:
    with RunStore.create(tmp_path / "s.sqlite") as store:
        pass
    with pytest.raises(sqlite3.ProgrammingError):
        store.counts()


def test_create_refuses_existing_file(tmp_path: Path) -> None:
    RunStore.create(tmp_path / "s.sqlite").close()
    with pytest.raises(DataError, match="already exists"):
        RunStore.create(tmp_path / "s.sqlite")


def _foreign_files(tmp_path: Path) -> dict[str, Path]:
    text = tmp_path / "notes.sqlite"
    text.write_text("just some text, long enough to not be a database header " * 4)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    old = tmp_path / "old.sqlite"
    RunStore.create(old).close()
    with sqlite3.connect(old) as conn:
        conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    empty = tmp_path / "empty.sqlite"
    empty.touch()
    return {"missing": tmp_path / "nope.sqlite", "text": text, "other": other, "old": old,
            "empty": empty, "dir": tmp_path}  # fmt: skip


@pytest.mark.parametrize("kind", ["missing", "text", "other", "old", "empty", "dir"])
def test_open_refuses_non_store(tmp_path: Path, kind: str) -> None:
    path = _foreign_files(tmp_path)[kind]
    with pytest.raises(DataError) as info:
        RunStore.open(path)
    message = str(info.value)
    if kind == "old":
        assert message == (
            f"{path}: run store format 0, this macrs-sim reads formats 1 and 2: "
            "it was made by an incompatible version of macrs-sim"
        )
    else:
        assert message.startswith(f"{path}: not a macrs-sim run store (")
    assert "\n" not in message
    assert kind != "missing" or not path.exists()  # open never creates a file


def test_meta(store: RunStore) -> None:
    assert store.get_meta("schema_version") == "2"
    assert store.get_meta("scenario_name") is None
    store.set_meta("scenario_name", "a")
    store.set_meta("scenario_name", "b")
    assert store.get_meta("scenario_name") == "b"


def test_events(store: RunStore) -> None:
    store.log_event("start", {"systems": ["macrs"], "n": 3})
    store.log_event("stop", {"reason": "done", "pair": (1, 2)})
    store.log_event("start", {"systems": []})
    events = store.read_events()
    assert [(e.kind, e.payload) for e in events] == [
        ("start", {"systems": ["macrs"], "n": 3}),
        ("stop", {"reason": "done", "pair": [1, 2]}),
        ("start", {"systems": []}),
    ]
    assert events[0].ts <= events[1].ts <= events[2].ts
    assert [e.payload for e in store.read_events("stop")] == [{"reason": "done", "pair": [1, 2]}]


def test_samples_round_trip(store: RunStore) -> None:
    samples = [
        Sample(sample_id=sid, user_id="u", history=("m2", "m3"), target_id="m1",
               target_profile=("crime",), opening="hi", bucket="long")
        for sid in ("z", "a", "m")
    ]  # fmt: skip
    store.write_samples(samples)
    assert store.read_samples() == samples
    with pytest.raises(ValueError):
        store.write_samples([samples[0].model_copy(update={"sample_id": "new"}), samples[1]])
    assert store.read_samples() == samples


def test_delete_error_dialogues_detaches_their_calls_in_one_go(store: RunStore) -> None:
    store.write_dialogue(_result("d1", status="success"), [_call("d1")])
    store.write_dialogue(_result("d3", status="error"), [_call("d3"), _call("d3", turn=None)])
    store.write_dialogue(_result("d4", status="error"), [])
    assert store.count_errors() == 2
    assert store.delete_error_dialogues() == 2
    assert store.finished_dialogue_ids() == {"d1"} and store.count_errors() == 0
    # The calls stay (they were paid for), tied to no dialogue; the turns went with them.
    assert [c.dialogue_id for c in store.read_calls()] == ["d1", None, None]
    assert store.counts() == {"dialogues": 1, "turns": 2, "llm_calls": 3, "tool_calls": 0}
    assert store.delete_error_dialogues() == 0


def test_write_prepared_replaces_samples_and_adds_error_dialogues(store: RunStore) -> None:
    drawn = [Sample(sample_id=sid, user_id="u", history=("m2",), target_id="m1") for sid in "ab"]
    store.write_prepared(
        drawn, [_call(None, role="opening", turn=0)], [_result("x:b", "x", "error")]
    )
    ready = drawn[1].model_copy(update={"opening": "hello", "target_profile": ("crime",)})
    store.write_prepared([ready], [])
    assert store.read_samples() == [drawn[0], ready]  # replaced where it was
    assert store.finished_dialogue_ids() == {"x:b"}
    with pytest.raises(ValueError):  # all or nothing: a dialogue already there
        store.write_prepared([drawn[0]], [_call(None)], [_result("x:b", "x", "error")])
    assert len(store.read_calls()) == 1


def test_in_flight_usage_is_settled_once_as_calls(store: RunStore) -> None:
    usage = '{"qwen": [100, 20], "gpt": [0, 0]}'
    store.write_dialogue(_result("d1"), [], {"in_flight": usage})
    assert store.get_meta("in_flight") == usage  # written with the dialogue
    assert store.settle_in_flight("in_flight") == 120
    calls = store.read_calls()
    assert [(c.model, c.prompt_tokens, c.completion_tokens, c.dialogue_id) for c in calls] == [
        ("qwen", 100, 20, None)
    ]
    assert calls[0].role == "in_flight_when_stopped" and not calls[0].cached
    assert store.settle_in_flight("in_flight") == 0 and len(store.read_calls()) == 1
    assert store.uncached_usage() == [("qwen", 100, 20)]

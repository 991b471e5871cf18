"""RunStore's tool calls: stored with their dialogue, detached with it, and old stores."""

from __future__ import annotations

from pathlib import Path

import pytest

from macrs_sim.protocol import ToolCallRecord
from macrs_sim.store import SCHEMA_VERSION, RunStore, run_store
from tests.store.store_v1 import as_format_1
from tests.store.test_run_store import _call, _result


def _tool(did: str | None, tool: str = "hard_filter", turn: int | None = 1) -> ToolCallRecord:
    return ToolCallRecord(
        dialogue_id=did,
        system="ira" if did else None,
        role="interecagent.tools",
        turn=turn,
        tool=tool,
        # Hostile on purpose: nesting, unicode, a quote, a null.
        input={"genres": ["Comedy ", "Sci-Fi"], "title": 'Amélie "2001"', "year_min": None},
        output_chars=123,
        latency_s=0.004,
        ok=tool != "sql",
        error="no such column: rating" if tool == "sql" else None,
    )


@pytest.fixture
def store(tmp_path: Path) -> RunStore:
    return RunStore.create(tmp_path / "run" / "store.sqlite")


def test_tool_calls_round_trip_with_their_dialogue(store: RunStore) -> None:
    tools = [_tool("d1"), _tool("d1", "sql", turn=2), _tool("d1", "rank", turn=6)]
    store.write_dialogue(_result("d1"), [_call("d1")], tool_calls=tools)
    store.write_calls([], tool_calls=[_tool(None, turn=None)])
    assert store.read_tool_calls() == [*tools, _tool(None, turn=None)]
    assert store.counts() == {"dialogues": 1, "turns": 2, "llm_calls": 1, "tool_calls": 4}


def test_a_refused_dialogue_writes_none_of_its_tool_calls(store: RunStore) -> None:
    store.write_dialogue(_result("d1"), [], tool_calls=[_tool("d1")])
    with pytest.raises(ValueError, match="d1"):
        store.write_dialogue(_result("d1"), [], tool_calls=[_tool("d1"), _tool("d1", "rank")])
    assert store.read_tool_calls() == [_tool("d1")]


def test_deleting_error_dialogues_detaches_their_tool_calls(store: RunStore) -> None:
    store.write_dialogue(_result("d1", status="success"), [], tool_calls=[_tool("d1")])
    store.write_dialogue(_result("d3", status="error"), [], tool_calls=[_tool("d3", "sql")])
    assert store.delete_error_dialogues() == 1
    assert [(t.dialogue_id, t.tool) for t in store.read_tool_calls()] == [
        ("d1", "hard_filter"),
        (None, "sql"),
    ]


def _old_store(path: Path) -> Path:
    """A store as macrs-sim wrote it before the tool_calls table existed."""
    RunStore.create(path).close()
    return as_format_1(path, tool_calls=False)


def test_opening_an_old_store_adds_the_table(tmp_path: Path) -> None:
    path = _old_store(tmp_path / "store.sqlite")
    with RunStore.open(path) as store:
        assert store.get_meta("schema_version") == SCHEMA_VERSION == "2"
        assert store.read_tool_calls() == []
        store.write_dialogue(_result("d1"), [], tool_calls=[_tool("d1")])
    with RunStore.open(path) as store:
        assert store.read_tool_calls() == [_tool("d1")]
        assert store.counts()["tool_calls"] == 1


def test_an_old_store_that_cannot_be_written_reads_without_tool_calls(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "store.sqlite"
    with RunStore.create(path) as store:
        store.write_dialogue(_result("d1"), [_call("d1")])
    as_format_1(path, tool_calls=False)
    connect = run_store._connect
    # Read-only by the connection, not file permissions (the tests may run as root).
    monkeypatch.setattr(run_store, "_connect", lambda p, mode: connect(p, "ro"))
    with RunStore.open(path) as store:
        assert store.format == "1"  # read as it is: the patch above reached RunStore.open
        assert store.read_tool_calls() == []
        assert store.counts() == {"dialogues": 1, "turns": 2, "llm_calls": 1, "tool_calls": 0}
        assert store.read_results() == [_result("d1")]

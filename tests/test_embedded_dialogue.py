"""One real MACRS dialogue on the embedded model (llama.cpp, Qwen2.5-Coder-0.5B Q4), the LLM
user included: slow, runs in CI. The run is the backend matrix's in-process MACRS row (one
turn; tests/campaign/embedded_rows.py), run once for both tests."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from macrs_sim.store import STORE_FILE, RunStore
from tests.campaign.embedded_rows import EMBEDDED_MODEL_NAME, embedded_row, system_by_id

pytestmark = pytest.mark.embedded


async def test_one_macrs_dialogue_on_the_embedded_model(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # One turn: every MACRS role but the strategy reflector (which needs a rejected
    # recommendation before it) answers in it, and each turn costs ~80 s on 2 cores.
    row = await embedded_row(system_by_id("macrs"), tmp_path_factory)
    (dialogue,) = row.results
    with RunStore.open(row.run_dir / STORE_FILE) as store:
        (sample,) = store.read_samples()
    calls = row.calls
    # The model answered every role: a dialogue that breaks is recorded with its cause instead.
    assert dialogue.status in ("success", "failure"), dialogue.error
    assert len(dialogue.exchanges) == 1
    assert all(ex.system.text.strip() and ex.user.text.strip() for ex in dialogue.exchanges)
    assert sample.opening.strip() and sample.target_profile
    if dialogue.status == "failure":
        assert 1 <= len(dialogue.final_list) <= 3
    assert all(c.model == EMBEDDED_MODEL_NAME for c in calls)
    assert all(c.completion_tokens > 0 for c in calls if c.ok)
    expected = {"target_profile", "opening", "macrs.ask", "macrs.chat", "macrs.recommend"}
    expected |= {"macrs.planner", "macrs.info_reflector", "user"}
    assert {c.role for c in calls} >= expected
    # Issue 26: the behaviour checks ran on the real model's turns. The opening and each
    # reply are user turns; each exchange has one system turn.
    (row_csv,) = [r for r in _rows(row.run_dir / "validity.csv") if r["system"] == "MACRS"]
    n = len(dialogue.exchanges)
    assert (int(row_csv["user_refusal_turns"]), int(row_csv["system_refusal_turns"])) == (n + 1, n)
    assert int(row_csv["user_echo_turns"]) == n
    for column in ("user_echo_share", "system_echo_share", "user_profile_dump_share"):
        assert 0.0 <= float(row_csv[column]) <= 1.0


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))

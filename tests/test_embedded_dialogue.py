"""One real campaign on the embedded model (llama.cpp, Qwen2.5-Coder-0.5B Q4): slow, runs in CI."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from macrs_sim.campaign.runner import run_campaign_async
from macrs_sim.config import parse_scenario
from macrs_sim.store import RunStore

pytestmark = pytest.mark.embedded


async def test_one_macrs_dialogue_on_the_embedded_model(tmp_path: Path) -> None:
    scenario = parse_scenario(
        {
            "name": "embedded-smoke",
            "model": {"backend": "embedded", "max_tokens": 256},  # 64 cut JSON replies
            "data": {"n_samples": 1},
            # One turn: every MACRS role but the strategy reflector (which needs a rejected
            # recommendation before it) answers in it, and each turn costs ~80 s on 2 cores.
            "protocol": {"max_turns": 1, "final_list_k": 5},
            "systems": [{"name": "MACRS", "kind": "macrs"}],
        }
    )
    result = await run_campaign_async(scenario, output_dir=tmp_path, progress=False)
    with RunStore.open(result.store_path) as store:
        (dialogue,) = store.read_results()
        calls = store.read_calls()
        (sample,) = store.read_samples()
    # The model answered every role: a dialogue that breaks is recorded with its cause instead.
    assert dialogue.status in ("success", "failure"), dialogue.error
    assert len(dialogue.exchanges) == 1
    assert all(ex.system.text.strip() and ex.user.text.strip() for ex in dialogue.exchanges)
    assert sample.opening.strip() and sample.target_profile
    if dialogue.status == "failure":
        assert 1 <= len(dialogue.final_list) <= 5
    assert all(c.model == "qwen2.5-coder-0.5b-instruct-q4" for c in calls)
    assert all(c.completion_tokens > 0 for c in calls if c.ok)
    expected = {"target_profile", "opening", "macrs.ask", "macrs.planner", "user"}
    assert {c.role for c in calls} >= expected
    # Issue 26: the behaviour checks ran on the real model's turns. The opening and each
    # reply are user turns; each exchange has one system turn.
    (row,) = [r for r in _rows(result.store_path.parent / "validity.csv") if r["system"] == "MACRS"]
    n = len(dialogue.exchanges)
    assert (int(row["user_refusal_turns"]), int(row["system_refusal_turns"])) == (n + 1, n)
    assert int(row["user_echo_turns"]) == n
    for column in ("user_echo_share", "system_echo_share", "user_profile_dump_share"):
        assert 0.0 <= float(row[column]) <= 1.0


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader(f))

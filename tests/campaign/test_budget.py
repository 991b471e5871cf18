"""A budget stops new dialogues; the run is marked stopped_budget and a higher budget resumes it.

Scripted calls count words as tokens: preparing 3 samples costs ~700 tokens, a
MACRS dialogue ~2,000 and a single-LLM one ~800, so 3,000 tokens stop the run early.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from macrs_sim import cli
from macrs_sim.campaign.runner import CampaignResult, run_campaign_async
from macrs_sim.config import Scenario, parse_scenario, scenario_to_toml
from macrs_sim.store import RunStore

PRICES = {"scripted": {"prompt": 1.0, "completion": 1.0}}  # $1 per million tokens


def scenario(**campaign: Any) -> Scenario:
    return parse_scenario(
        {
            "name": "b",
            "model": {"backend": "scripted", "latency_s": 0.002},
            "data": {"n_samples": 3},
            "protocol": {"max_turns": 2},
            "campaign": {"concurrency": 2, "prices": PRICES, **campaign},
            "systems": [
                {"name": "MACRS", "kind": "macrs"},
                {"name": "single", "kind": "single_llm"},
            ],
        }
    )


async def run(sc: Scenario, out: Path) -> CampaignResult:
    return await run_campaign_async(sc, output_dir=out, progress=False, report=False)


def status(result: CampaignResult) -> str | None:
    with RunStore.open(result.store_path) as store:
        assert store.counts()["dialogues"] == result.stored
        return store.get_meta("status")


@pytest.mark.parametrize("limit", [{"budget_tokens": 3000}, {"budget_usd": 0.003}])
async def test_a_budget_stops_the_run_and_a_higher_one_continues_it(
    tmp_path: Path, limit: dict[str, float]
) -> None:
    stopped = await run(scenario(**limit), tmp_path)
    assert stopped.status == "stopped_budget" and status(stopped) == "stopped_budget"
    # Those in flight when the budget was reached were finished and stored, no more.
    assert 1 <= stopped.stored <= 4 and stopped.expected == 6
    assert stopped.spend.tokens >= 3000 and stopped.spend.usd == pytest.approx(
        stopped.spend.tokens / 1e6
    )
    same = await run(scenario(**limit), tmp_path)  # same budget: already spent, nothing new
    assert same.resumed and same.stored == stopped.stored and same.status == "stopped_budget"
    assert same.spend.tokens == stopped.spend.tokens  # earlier sessions count
    more = await run(scenario(budget_tokens=10**6), tmp_path)
    assert more.run_dir == stopped.run_dir and more.already_done == stopped.stored
    assert more.status == "finished" and more.stored == 6 and status(more) == "finished"


async def test_without_a_budget_spending_is_still_reported(tmp_path: Path) -> None:
    result = await run(scenario(), tmp_path)
    assert result.status == "finished"
    with RunStore.open(result.store_path) as store:
        calls = store.read_calls()
    assert result.spend.tokens == sum(c.prompt_tokens + c.completion_tokens for c in calls)


def test_the_cli_says_the_budget_was_reached_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from macrs_sim.campaign import runner

    real = runner.run_campaign_async

    async def without_report(sc: Scenario, **kwargs: Any) -> CampaignResult:
        return await real(sc, **kwargs, report=False)  # the figures take seconds

    monkeypatch.setattr(runner, "run_campaign_async", without_report)
    path = tmp_path / "s.toml"
    path.write_text(scenario_to_toml(scenario(budget_tokens=3000)))
    argv = ["run", str(path), "--output-dir", str(tmp_path / "runs"), "--no-progress"]
    assert cli.main(argv) == 0
    lines = [ln for ln in capsys.readouterr().out.splitlines() if "budget reached" in ln]
    assert len(lines) == 1
    assert lines[0].startswith("budget reached: spent ")
    assert "of a budget of 3,000 tokens;" in lines[0] and " of 6 dialogues stored;" in lines[0]
    assert "run the same command again to continue" in lines[0]

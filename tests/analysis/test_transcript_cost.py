"""Case-study transcripts and cost tables from hand-made runs."""

from pathlib import Path

import pytest

from macrs_sim.analysis.metrics.cost import cost_table, render_cost_markdown
from macrs_sim.analysis.report.transcript import pick_case_studies, render_transcript
from macrs_sim.analysis.runs.load import load_run
from macrs_sim.protocol import SystemTurn
from tests.analysis.handmade_runs import Script, make_result, make_run, make_sample

SYSTEMS = [{"name": "MACRS", "kind": "macrs"}, {"name": "LLM", "kind": "single_llm"}]
SAMPLES = [make_sample("s-1", "m1"), make_sample("s-2", "m2")]


def test_transcript_marks_acts_acceptance_and_fallback_list() -> None:
    r = make_result(Script("MACRS", "s-2", ("A", "R"), final=2), "m2", max_turns=2)
    text = render_transcript(r, make_sample("s-2", "m2"))
    assert text.splitlines()[:3] == ["### MACRS · s-2 · FAIL", "", "Target: m2"]
    assert "Target profile (all the simulated user knows): kw" in text
    assert "**Turn 1 · ask**" in text and "**Turn 2 · recommend**" in text
    assert "Recommended: Film m9 (m9, exact 1.00) — ❌ not accepted" in text
    assert "Fallback top-10 list (turn 3):" in text
    assert "2. Film m2 (m2, exact 1.00) ← target" in text


def test_transcript_explain_shows_candidates_planner_profile_suggestions() -> None:
    r = make_result(Script("MACRS", "s-1", ("R+",)), "m1")
    explain = {
        "candidates": {
            "ask": {"text": "Which era?"},
            "recommend": {"text": "Try X", "item_title": "X"},
        },
        "planner": {"step1": "user is vague", "choice": "recommend"},
        "profile": {"current_demand": [{"key": "genre", "value": "noir"}]},
        "suggestions": {"ask": "ask about the era"},
        "experiences": ["do not recommend too early"],
    }
    ex = r.exchanges[0]
    turn = SystemTurn(
        act=ex.system.act, text=ex.system.text, items=ex.system.items, explain=explain
    )
    r = r.model_copy(update={"exchanges": (ex.model_copy(update={"system": turn}),)})
    text = render_transcript(r, explain=True)
    assert "### MACRS · s-1 · SUCCESS at turn 1" in text
    assert "  - candidate *recommend* [X]: Try X" in text
    assert "  - planner chose *recommend* (step1: user is vague)" in text
    assert '  - user profile: {"current_demand": [{"key": "genre", "value": "noir"}]}' in text
    assert "  - suggestion for ask: ask about the era" in text
    assert "  - planner experience: do not recommend too early" in text
    assert "how the system decided" not in render_transcript(r)


def test_case_studies_prefer_a_sample_where_outcomes_differ(tmp_path: Path) -> None:
    scripts = [
        Script("MACRS", "s-1", ("R+",)),
        Script("LLM", "s-1", ("R+",)),
        Script("MACRS", "s-2", ("A", "R+")),
        Script("LLM", "s-2", ("R", "R")),
    ]
    run = load_run(make_run(tmp_path, "r", SYSTEMS, SAMPLES, scripts))
    picked = pick_case_studies(run.results, run.system_names)
    assert [r.dialogue_id for r in picked] == ["MACRS:s-2", "LLM:s-2"]
    same = pick_case_studies(run.results[:2], run.system_names)
    assert [r.dialogue_id for r in same] == ["MACRS:s-1", "LLM:s-1"]


def test_cost_tables(tmp_path: Path) -> None:
    scripts = [Script("MACRS", "s-1", ("A", "R+")), Script("LLM", "s-1", ("R+",))]
    run = load_run(make_run(tmp_path, "r", SYSTEMS, SAMPLES, scripts, calls_per_turn=2))
    per_system = cost_table(run.calls, ["system"]).set_index("system")
    # MACRS: 2 turns x 2 calls x (100 + 10) tokens, 0.5 s each
    assert per_system.loc["MACRS", ["calls", "tokens", "latency_s"]].tolist() == [4, 440, 2.0]
    assert per_system.loc["LLM", ["calls", "prompt_tokens", "completion_tokens"]].tolist() == [
        2,
        200,
        20,
    ]
    roles = cost_table(run.calls, ["system", "role"])
    assert roles.values.tolist()[0][:4] == ["MACRS", "ask", 2, 0]
    md = render_cost_markdown(run.calls)
    assert "| MACRS | 4 | 0 | 0 | 400 | 40 | 440 | 2.000 | 0.500 |" in md
    assert "| MACRS | 2 | 2 | 0 | 0 | 200 | 20 | 220 | 1.000 | 0.500 |" in md  # turn 2


def test_cost_tables_price_uncached_calls_when_the_scenario_has_prices(tmp_path: Path) -> None:
    from macrs_sim.analysis.metrics.cost import run_prices

    scripts = [Script("MACRS", "s-1", ("A", "R+")), Script("LLM", "s-1", ("R+",))]
    run = load_run(make_run(tmp_path, "r", SYSTEMS, SAMPLES, scripts, calls_per_turn=2))
    assert "cost_usd" not in cost_table(run.calls, ["system"]).columns  # unpriced run
    prices = run_prices([{"campaign": {"prices": {"hand": {"prompt": 1.0, "completion": 10.0}}}}])
    calls = run.calls.copy()
    calls.loc[0, "cached"] = True  # a cached call costs nothing
    per_system = cost_table(calls, ["system"], prices).set_index("system")
    # Each call: 100 x $1/M + 10 x $10/M = $0.0002; MACRS 4 calls, one of them cached.
    assert per_system["cost_usd"].tolist() == pytest.approx([0.0006, 0.0004])
    md = render_cost_markdown(calls, prices=prices)
    assert "| system | calls | errors | cached |" in md and "| cost_usd |" in md
    assert "| 0.0006 |" in md and "total $0.0010" in md
    assert run_prices([{"name": "no prices"}]) is None

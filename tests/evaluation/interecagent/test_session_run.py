"""`eval interecagent session SCENARIO.toml` runs the scenario as InteRecAgent's paper does:
at most 5 items a turn (its Candidate Fetching Tool's default, Figure C2), said first, unless
the scenario sets its own limit; then the table of the run it made.

Hand count: the scripted InteRecAgent fetches 3 items a turn (its `fetch_k`), under the
limit of 5, so every turn keeps its 3 (the default limit, 1, would have cut each to 1).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch", reason="needs the recsys extra: pip install 'macrs-sim[recsys]'")

from macrs_sim.analysis.runs.load import load_run  # noqa: E402
from macrs_sim.cli import main  # noqa: E402
from macrs_sim.config import parse_scenario  # noqa: E402
from macrs_sim.evaluation.interecagent.session import paper_protocol, paper_sampling  # noqa: E402

SCENARIO = """name = "sess_run"
[model]
backend = "scripted"
[data]
n_samples = 2
[protocol]
max_turns = 2
[simulator]
kind = "agenda"
[[systems]]
name = "IRA"
kind = "interecagent"
long_term_memory = false
ranker = "popularity"
demo_retrieval = "tokens"
"""


def test_the_session_run_shows_the_papers_items_a_turn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    argv = ["eval", "interecagent", "session", str(scenario), "--k", "2",
            "--output-dir", str(tmp_path / "runs"), "--no-progress"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "max_items_per_turn = 5 (InteRecAgent's paper)"
    assert out[1] == 'data.target = "last" (InteRecAgent\'s paper)'
    (run_dir,) = (tmp_path / "runs").glob("sess_run-*")
    assert out[2] == f"run directory: {run_dir}"
    assert out[3] == "sess_run: session-wise Hit@k and AT@k (a failure counts k + 1)"
    assert out[-1] == "max_items_per_turn = 5 (the run's; InteRecAgent's paper)"
    run = load_run(run_dir)
    assert run.scenario["protocol"]["max_items_per_turn"] == 5
    assert run.scenario["data"]["target"] == "last"
    assert [len(ids) for ids in run.turns["item_ids"]] == [3, 3, 3, 3]  # 2 dialogues x 2 turns


def test_a_scenarios_own_limit_is_kept_and_said() -> None:
    base: dict[str, object] = {"name": "x", "systems": [{"name": "IRA", "kind": "interecagent"}]}
    scenario, line = paper_protocol(parse_scenario(base))
    assert (scenario.protocol.max_items_per_turn, line) == (
        5, "max_items_per_turn = 5 (InteRecAgent's paper)",
    )  # fmt: skip
    own = parse_scenario(base | {"protocol": {"max_items_per_turn": 2, "max_turns": 3}})
    scenario, line = paper_protocol(own)
    assert scenario == own
    assert line == "max_items_per_turn = 2 (the scenario's; InteRecAgent's paper: 5)"
    # Everything else of the protocol is the scenario's.
    changed, _ = paper_protocol(parse_scenario(base | {"protocol": {"max_turns": 3}}))
    assert (changed.protocol.max_turns, changed.protocol.max_items_per_turn) == (3, 5)


def test_the_papers_target_is_the_users_last_item_unless_the_scenario_says() -> None:
    base: dict[str, object] = {"name": "x", "systems": [{"name": "IRA", "kind": "interecagent"}]}
    scenario, line = paper_sampling(parse_scenario(base))
    assert (scenario.data.target, line) == ("last", 'data.target = "last" (InteRecAgent\'s paper)')
    own = parse_scenario(base | {"data": {"target": "after_history"}})
    assert paper_sampling(own) == (
        own,
        'data.target = "after_history" (the scenario\'s; InteRecAgent\'s paper: "last")',
    )


def test_a_k_past_the_scenarios_turns_is_refused_before_running(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    scenario = tmp_path / "s.toml"
    scenario.write_text(SCENARIO, encoding="utf-8")
    argv = ["eval", "interecagent", "session", str(scenario), "--k", "3",
            "--output-dir", str(tmp_path / "runs")]  # fmt: skip
    assert main(argv) == 2
    assert capsys.readouterr().err == (
        "error: --k 3: the run's dialogues stopped after 2 turns, so Hit@k needs k <= 2\n"
    )
    assert not (tmp_path / "runs").exists()

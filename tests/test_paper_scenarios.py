"""The shipped paper scenarios: valid, honest about the paper's setting, and their MovieLens
variants differ from them only in [data] (and the name that names the run folders)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from macrs_sim.campaign.setup import resolve_scenario
from macrs_sim.config import load_scenario

SCENARIOS = Path(__file__).resolve().parent.parent / "scenarios"
PAPER = ("paper_table1", "paper_popularity", "paper_suggestions_judge")


@pytest.mark.parametrize("stem", PAPER)
def test_movielens_variant_differs_only_in_data(stem: str) -> None:
    base = tomllib.loads((SCENARIOS / f"{stem}.toml").read_text("utf-8"))
    variant = tomllib.loads((SCENARIOS / f"{stem}_movielens.toml").read_text("utf-8"))
    assert variant.pop("name") == f"{stem}_movielens" and base.pop("name") == stem
    base_data, variant_data = base.pop("data"), variant.pop("data")
    assert variant == base  # model, protocol, simulator, campaign, systems, judge
    assert base_data["dataset"] == "demo"
    assert variant_data == {**base_data, "dataset": "data/ml-25m.sqlite"}


@pytest.mark.parametrize("stem", PAPER)
def test_paper_scenarios_load_and_say_what_to_change(stem: str) -> None:
    path = SCENARIOS / f"{stem}.toml"
    scenario = load_scenario(path)
    assert scenario.simulator.profile_people  # §4.1: the profile names people
    text = path.read_text("utf-8")
    for needed in (
        "[data]",
        "macrs-sim data prepare movielens ml-25m.zip",
        f"scenarios/{stem}_movielens.toml",
        "[model]",
        "gpt-3.5-turbo-0613",
        "Llama-2-70b-chat-hf",
    ):
        assert needed in text, needed
    assert load_scenario(SCENARIOS / f"{stem}_movielens.toml").data.dataset == (
        "data/ml-25m.sqlite"
    )


def test_recmind_scenario_compares_every_planner_with_macrs_on_one_sample_set() -> None:
    scenario = resolve_scenario(load_scenario(SCENARIOS / "recmind_vs_macrs.toml"))
    kinds = [(s.kind, getattr(s, "planner", None)) for s in scenario.systems]
    assert kinds == [
        ("macrs", None), ("single_llm", None), ("recmind", "cot"), ("recmind", "tot-bfs"),
        ("recmind", "tot-dfs"), ("recmind", "self-inspiring"),
    ]  # fmt: skip
    assert scenario.data.sample_set is None  # one drawn sample set, shared by every system


def test_every_scenario_file_loads_and_its_systems_resolve() -> None:
    from macrs_sim.agents.registry import SystemOptions
    from macrs_sim.campaign.setup import resolve_scenario

    files = sorted(SCENARIOS.glob("*.toml"))
    assert len(files) >= 11
    for path in files:
        # Each [[systems]] entry becomes its kind's typed options: a field no kind knows fails.
        systems = resolve_scenario(load_scenario(path)).systems
        assert all(isinstance(s, SystemOptions) for s in systems), path.name


def test_interecagent_session_is_the_papers_protocol() -> None:
    scenario = load_scenario(SCENARIOS / "interecagent_session.toml")
    assert scenario.simulator.instruction == "interecagent"
    assert scenario.protocol.max_turns == 5  # Hit@5, AT@5
    agents = [s for s in scenario.systems if s.kind == "interecagent"]
    assert [s.own_fields() for s in agents] == [
        {"long_term_memory": False},
        {"long_term_memory": False, "plan_first": False},
        {"long_term_memory": False, "demonstrations": False},
        {"long_term_memory": False, "reflection": False},
    ]  # session-wise (§4.1) and the ablations of Figure 5
    text = (SCENARIOS / "interecagent_session.toml").read_text("utf-8")
    # The paper's own protocol: run through `eval interecagent session` (5 items a turn).
    assert "macrs-sim eval interecagent session scenarios/interecagent_session.toml" in text


@pytest.mark.textmodel  # InteRecAgent's toolkit loads the sentence-transformers model
async def test_interecagent_vs_macrs_report_shows_all_four(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The shipped scenario on the scripted model, shrunk (3 users, 2 turns, tiny SASRecs):
    Table 1 and the figures' tables have an InteRecAgent row beside MACRS's."""
    from macrs_sim.analysis.runs.load import load_run
    from macrs_sim.campaign.runner import run_campaign_async
    from macrs_sim.config import ScriptedModel

    pytest.importorskip("torch")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    shipped = load_scenario(SCENARIOS / "interecagent_vs_macrs.toml")
    assert [(s.name, s.kind) for s in shipped.systems] == [
        ("MACRS", "macrs"), ("single-LLM", "single_llm"), ("InteRecAgent", "interecagent"),
        ("SASRec", "sasrec"),
    ]  # fmt: skip
    tiny = {"epochs": "2", "dim": "8"}
    systems = [
        s.model_copy(update={"params": tiny}) if s.kind == "sasrec" else
        s.model_copy(update={"ranker_params": {"position": "false", **tiny}})
        if s.kind == "interecagent" else s
        for s in shipped.systems
    ]  # fmt: skip
    scenario = shipped.model_copy(update={
        "model": ScriptedModel(), "systems": systems,
        "data": shipped.data.model_copy(update={"n_samples": 3}),
        "protocol": shipped.protocol.model_copy(update={"max_turns": 2}),
    })  # fmt: skip
    result = await run_campaign_async(scenario, output_dir=tmp_path, progress=False)
    assert result.status == "finished" and result.stored == 12
    report = result.report_path.read_text("utf-8")
    table1 = report.split("## Results (Table 1)", 1)[1].split("##", 1)[0]
    for row in ("| MACRS | full |", "| single-LLM |", "| InteRecAgent | interecagent |",
                "| SASRec | sasrec |"):  # fmt: skip
        assert row in table1, row
    tables = result.run_dir / "tables"
    for name in ("act_ratios.csv", "cumulative_successes.csv", "popularity.csv"):
        assert "InteRecAgent" in (tables / name).read_text("utf-8"), name
    for fig in ("fig4_act_ratios.png", "fig5_cumulative_successes.png", "fig6_popularity.png"):
        assert (result.run_dir / "figures" / fig).stat().st_size > 10_000
    run = load_run(result.run_dir)
    acts = set(run.turns.loc[run.turns.system == "InteRecAgent", "act"])
    assert acts <= {"recommend", "ask", "chat"} and "recommend" in acts

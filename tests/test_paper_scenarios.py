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

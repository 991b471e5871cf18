"""Scenarios and scripted rules for chat tests: every expected text is known by hand."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from macrs_sim.agents.macrs.schemas import RecommendOutput
from macrs_sim.campaign.scripted import default_scripted_rules
from macrs_sim.config import Scenario, parse_scenario
from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.scripted import Rule, ScriptedRequest

OPENING = "I want a mind-bending film."
# MACRS on the scripted backend: the planner asks on turn 1 and recommends on turn 2.
ASK_TEXT = "What kind of movie are you in the mood for?"


def write_catalog(tmp_path: Path, catalog: Catalog) -> Path:
    path = tmp_path / "catalog.jsonl"
    path.write_text("".join(i.model_dump_json() + "\n" for i in catalog), encoding="utf-8")
    return path


def scenario_data(tmp_path: Path, catalog_path: Path, **protocol: Any) -> dict[str, Any]:
    return {
        "name": "t",
        "model": {"backend": "scripted"},
        "data": {"catalog": str(catalog_path)},
        "protocol": {"max_turns": 3, "final_list_k": 5, **protocol},
        "campaign": {"output_dir": str(tmp_path / "runs")},
        "systems": [
            {"name": "MACRS", "kind": "macrs"},
            {"name": "single-LLM", "kind": "single_llm"},
        ],
    }


def scripted_scenario(tmp_path: Path, catalog: Catalog, **protocol: Any) -> Scenario:
    return parse_scenario(scenario_data(tmp_path, write_catalog(tmp_path, catalog), **protocol))


def rules_recommending(catalog: Catalog, title: str) -> dict[str, Rule]:
    """The default rules, with every MACRS recommendation being `title`."""
    rules = default_scripted_rules([i.display_title for i in catalog])

    def recommend(req: ScriptedRequest) -> RecommendOutput:
        return RecommendOutput(item_title=title, response=f"This one: {title}.")

    rules["macrs.recommend"] = recommend
    return rules

"""Demonstrations that write the hard condition as SQL (issue 38 §1): in the seed set, the
bundled set and what the scripted generator plans, and rewritten for another catalog."""

from __future__ import annotations

from macrs_sim.agents.interecagent.demo_catalog import in_catalog
from macrs_sim.agents.interecagent.demos import (
    Demonstration,
    load_demonstrations,
    load_seed_demonstrations,
)
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.data.domain import PRODUCTS
from macrs_sim.evaluation.interecagent.demo_scripted import scripted_demo_plan
from macrs_sim.tools.schema import domain_schema


def _conditions(demos: list[Demonstration]) -> list[str]:
    return [
        s.input["condition"] for d in demos for s in d.plan
        if s.tool == "hard_filter" and isinstance(s.input, dict) and "condition" in s.input
    ]  # fmt: skip


def test_seeds_and_bundled_demonstrations_use_sql() -> None:
    seeds = _conditions(load_seed_demonstrations())
    assert len(seeds) == 6
    assert "(genres LIKE '%TYPE1%' OR genres LIKE '%TYPE2%') AND genres NOT LIKE '%TYPE3%'" in seeds
    bundled = _conditions(load_demonstrations())
    assert len(bundled) == 8
    assert "director = (SELECT director FROM items WHERE title = 'ITEM') AND title <> 'ITEM'" in (
        bundled
    )


def test_the_scripted_generator_plans_sql() -> None:
    plan = scripted_demo_plan("Recommend me some TYPE movies after DATE.")
    assert plan[0] == PlanStep(
        tool="hard_filter", input={"condition": "genres LIKE '%TYPE%' AND year > DATE"}
    )


def test_another_catalog_gets_its_columns_or_loses_the_demonstration() -> None:
    schema = domain_schema(PRODUCTS, (), "year > 2000")
    demos = [
        Demonstration(intent="TYPE after DATE", plan=(PlanStep(
            tool="hard_filter", input={"condition": "genres LIKE '%TYPE%' AND year > DATE"}),)),
        Demonstration(intent="By ITEM's director", plan=(PlanStep(
            tool="hard_filter", input={"condition": "director = 'X'"}),)),
    ]  # fmt: skip
    kept = in_catalog(demos, schema)
    assert [d.intent for d in kept] == ["TYPE after DATE"]
    assert kept[0].plan[0].input == {"condition": "categories LIKE '%TYPE%' AND year > DATE"}

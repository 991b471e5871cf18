"""hard_filter with a model-written SQL condition over the items table (paper §3.1, RecAI's
SQL retrieval tool): it reads the bus, refuses anything but one read-only condition, and is
bounded in rows and time. Films and popularity order in conftest."""

from __future__ import annotations

import pytest

from macrs_sim.agents.interecagent.executor import BusExecutor, BusSettings
from macrs_sim.agents.interecagent.memory import ProfileMemory
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.agents.interecagent.scripted import scripted_plan
from macrs_sim.llm.context import CallContext
from macrs_sim.tools import ToolResources
from macrs_sim.tools.hard import HardFilterTool


def _steps(*pairs: tuple[str, object]) -> list[PlanStep]:
    return [PlanStep.model_validate({"tool": t, "input": i}) for t, i in pairs]


@pytest.mark.parametrize(
    ("condition", "kept"),
    [
        ("director LIKE '%mann%'", ["3"]),  # LIKE ignores case: Michael Mann's Heat
        ("WHERE cast LIKE '%Pacino%'", ["3"]),  # a leading WHERE, the bare `cast` column
        ("keywords LIKE '%ghost%' OR keywords LIKE '%heist%'", ["3", "6"]),
        # "released after Paris in Love" (2001), as a subquery: 7 (2005), 5 (2010)
        ("year > (SELECT year FROM items WHERE title = 'Paris in Love')", ["7", "5"]),
        ("SELECT * FROM items WHERE genres LIKE '%Thriller%'", ["3", "4"]),  # RecAI's form
        ("title = 'it''s; -- not a comment'", []),  # ';' and '--' inside a string are text
    ],
)  # fmt: skip
async def test_a_written_condition_narrows_the_bus(
    executor: BusExecutor, in_dialogue: CallContext, condition: str, kept: list[str]
) -> None:
    bus = executor.new_bus()
    tracker = await executor.run_plan(_steps(("hard_filter", {"condition": condition})), bus)
    assert tracker.records[0].ok, tracker.records[0].error
    assert bus.items == kept


async def test_the_condition_reads_earlier_steps_candidates(
    executor: BusExecutor, in_dialogue: CallContext
) -> None:
    # store: both films named Heat (3, 4); then the text input goes to the condition.
    bus = executor.new_bus()
    plan = _steps(("store_candidates", {"items": ["Heat"]}), ("hard_filter", "year < 1990"))
    tracker = await executor.run_plan(plan, bus)
    assert bus.items == ["4"]
    assert [(r.candidates_before, r.candidates_after) for r in tracker.records] == [(8, 2), (2, 1)]


@pytest.mark.parametrize(
    ("condition", "error"),
    [
        ("1; DROP TABLE items", "refused: one condition only (';' would start a second statement)"),
        ("DROP TABLE items", "refused: the condition may only read items (found DROP)"),
        ("item_id IN (DELETE FROM items RETURNING item_id)", "refused: the condition may only "
         "read items (found DELETE)"),
        ("1=1) OR (1=1", "refused: unbalanced parentheses in the condition"),
        ("year > 1990 -- and the rest", "refused: comments are not allowed in the condition"),
        ("title = 'open", "refused: unclosed quote or parenthesis in the condition"),
        ("item_id IN (SELECT item_id FROM interactions)", "refused: only SELECT queries"),
        ("no_such_column = 1", "SQL error: no such column: no_such_column"),
    ],
)  # fmt: skip
async def test_hostile_conditions_are_refused_and_the_bus_kept(
    executor: BusExecutor, in_dialogue: CallContext, condition: str, error: str
) -> None:
    bus = executor.new_bus()
    tracker = await executor.run_plan(_steps(("hard_filter", {"condition": condition})), bus)
    rec = tracker.records[0]
    assert not rec.ok and rec.error is not None and rec.error.startswith(error)
    assert rec.output.startswith("Error: " + error)
    assert len(bus) == 8  # nothing was filtered


async def test_a_huge_result_is_cut_with_a_note(
    resources: ToolResources, in_dialogue: CallContext
) -> None:
    executor = BusExecutor(resources, ProfileMemory(), settings=BusSettings(hard_limit=2))
    bus = executor.new_bus()
    tracker = await executor.run_plan(_steps(("hard_filter", {"condition": "1 = 1"})), bus)
    # A random 2 of the 8 (RecAI's SQL tool; tests/agents/interecagent/test_bus_paper.py).
    assert len(bus) == 2
    assert tracker.records[0].note == "8 items met the conditions: kept a random 2"


async def test_a_runaway_condition_hits_the_time_limit(
    executor: BusExecutor, resources: ToolResources, in_dialogue: CallContext
) -> None:
    executor.hard = HardFilterTool(resources.database, sql_condition=True, time_limit_s=0.2)
    endless = (
        "item_id IN (WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
        "SELECT x FROM c)"
    )
    bus = executor.new_bus()
    tracker = await executor.run_plan(_steps(("hard_filter", {"condition": endless})), bus)
    assert tracker.records[0].error == (
        "the query ran past the time limit of 0.2 s and was stopped"
    )
    assert len(bus) == 8


def test_the_scripted_planner_writes_a_sql_condition() -> None:
    plan = scripted_plan("Any Comedy or Children's films from the 1990s?",
                         ["Children's", "Comedy", "Drama"], k=2)  # fmt: skip
    assert plan == [
        PlanStep(tool="hard_filter", input={"condition": (
            "genres LIKE '%Children''s%' AND genres LIKE '%Comedy%' AND year BETWEEN 1990 AND 1999"
        )}),
        PlanStep(tool="rank_candidates", input={"by": "preference"}),
        PlanStep(tool="fetch_candidates", input={"k": 2}),
    ]  # fmt: skip
    assert scripted_plan("Thanks!", ["Comedy"]) == []  # chit-chat: no tool

"""The bus as the paper and RecAI run it (issue 38 §1): a random 1,000 of a large match, the
query's order kept, popularity with nothing liked, similarity from the soft step's scores,
an empty bus when a soft condition meets none of it, and 5 items a fetch. See conftest for
the films and their popularity order (1, 3, 7, 6, 2, 5, 4, 8)."""

from __future__ import annotations

from macrs_sim.agents.interecagent.executor import BusExecutor, BusSettings
from macrs_sim.agents.interecagent.memory import ProfileMemory
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.llm.context import CallContext
from macrs_sim.tools import ToolResources

POPULAR = ["1", "3", "7", "6", "2", "5", "4", "8"]


def _steps(*pairs: tuple[str, object]) -> list[PlanStep]:
    return [PlanStep.model_validate({"tool": t, "input": i}) for t, i in pairs]


def _executor(resources: ToolResources, history: list[str], **settings: object) -> BusExecutor:
    return BusExecutor(resources, ProfileMemory(history), settings=BusSettings(**settings))  # type: ignore[arg-type]


async def test_a_large_match_keeps_a_random_sample_in_bus_order(
    resources: ToolResources, in_dialogue: CallContext
) -> None:
    kept = []
    for seed in range(6):
        executor = _executor(resources, [], hard_limit=3, seed=seed)
        bus = executor.new_bus()
        tracker = await executor.run_plan(_steps(("hard_filter", {"condition": "1 = 1"})), bus)
        assert tracker.records[0].note == "8 items met the conditions: kept a random 3"
        assert len(bus) == 3 and bus.items == [i for i in POPULAR if i in bus.items]
        kept.append(tuple(bus.items))
    assert len(set(kept)) > 1  # not the 3 most popular every time


async def test_a_query_with_order_by_keeps_its_first_items(
    resources: ToolResources, in_dialogue: CallContext
) -> None:
    executor = _executor(resources, [], hard_limit=2)
    bus = executor.new_bus()
    query = "SELECT item_id FROM items WHERE year IS NOT NULL ORDER BY year"
    tracker = await executor.run_plan(_steps(("hard_filter", {"condition": query})), bus)
    assert bus.items == ["1", "4"]  # 1979, 1986
    assert tracker.records[0].note == (
        "7 items met the conditions: kept the first 2 in the query's order"
    )


async def test_nothing_liked_yet_ranks_by_popularity(
    resources: ToolResources, in_dialogue: CallContext
) -> None:
    executor = _executor(resources, [])
    bus = executor.new_bus()
    tracker = await executor.run_plan(_steps(("rank_candidates", {"by": "preference"})), bus)
    assert bus.items == POPULAR  # not the preference model's 4, 7, 2, ...
    assert tracker.records[0].note == "nothing liked yet: ranked by popularity"


async def test_similarity_ranks_by_the_soft_steps_scores(
    resources: ToolResources, in_dialogue: CallContext
) -> None:
    # Seeds 1 and 4: 3 scores 0.2 + 0.8 = 1.0, 7 scores 0.9. Preference (8 liked): 7 .7, 3 .5.
    executor = _executor(resources, ["8"], soft_fraction=0.5)
    bus = executor.new_bus()
    plan = _steps(("soft_filter", {"items": ["1", "4"]}),
                  ("rank_candidates", {"by": "preference"}),
                  ("rank_candidates", {"by": "similarity"}))  # fmt: skip
    tracker = await executor.run_plan(plan, bus)
    assert all(r.ok for r in tracker.records), [r.error for r in tracker.records]
    assert bus.items == ["3", "7"]
    assert bus.similarity == {"3": 1.0, "7": 0.9}


async def test_similarity_without_a_soft_step_ranks_by_popularity(
    resources: ToolResources, in_dialogue: CallContext
) -> None:
    executor = _executor(resources, ["8"])
    bus = executor.new_bus()
    tracker = await executor.run_plan(_steps(("rank_candidates", {"by": "similarity"})), bus)
    assert bus.items == POPULAR[:-1]  # 8 is in the history
    assert tracker.records[0].note == (
        "no similarity scores (no soft retrieval ran): ranked by popularity"
    )


async def test_a_soft_condition_that_meets_none_of_the_bus_empties_it(
    resources: ToolResources, in_dialogue: CallContext
) -> None:
    # Horror leaves 6; the neighbours of 1 are 7 and 3.
    executor = _executor(resources, [], soft_fraction=0.25)
    bus = executor.new_bus()
    plan = _steps(("hard_filter", {"genres": ["Horror"]}), ("soft_filter", {"items": ["1"]}))
    tracker = await executor.run_plan(plan, bus)
    assert bus.items == []
    assert tracker.records[1].note == (
        "no overlap with the bus: it is now empty; the seed items are not candidates: "
        "Star Voyage (1979)"
    )


async def test_the_seeds_left_out_are_named(
    resources: ToolResources, in_dialogue: CallContext
) -> None:
    executor = _executor(resources, [], soft_fraction=0.25)
    bus = executor.new_bus()
    tracker = await executor.run_plan(
        _steps(("soft_filter", {"items": ["Star Voyage", "Heat (1995)"]})), bus
    )
    assert bus.items == ["7", "4"]
    assert tracker.records[0].note == (
        "the seed items are not candidates: Star Voyage (1979); Heat (1995)"
    )


async def test_a_fetch_shows_5_and_never_more_than_the_turns_limit(
    resources: ToolResources, in_dialogue: CallContext
) -> None:
    executor = _executor(resources, [])
    tracker = await executor.run_plan(_steps(("fetch_candidates", {})), executor.new_bus())
    assert tracker.shown == POPULAR[:5]
    capped = _executor(resources, [], max_items=1)
    tracker = await capped.run_plan(_steps(("fetch_candidates", {"k": 3})), capped.new_bus())
    assert tracker.shown == ["1"]

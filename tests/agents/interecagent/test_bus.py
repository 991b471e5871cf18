"""The candidate bus funnel and the tracker, with counts worked out by hand (see conftest)."""

from __future__ import annotations

from macrs_sim.agents.interecagent.executor import BusExecutor
from macrs_sim.agents.interecagent.schemas import PlanStep
from macrs_sim.llm.context import CallContext
from macrs_sim.tools import ToolCallLog


def _steps(*pairs: tuple[str, object]) -> list[PlanStep]:
    return [PlanStep.model_validate({"tool": t, "input": i}) for t, i in pairs]


async def test_funnel_hard_then_rank_then_fetch(
    executor: BusExecutor, log: ToolCallLog, in_dialogue: CallContext
) -> None:
    bus = executor.new_bus()
    assert bus.items == ["1", "3", "7", "6", "2", "5", "4", "8"]
    plan = _steps(
        ("hard_filter", {"exclude_genres": ["Comedy"]}),  # drops 7, 2, 5 -> 1, 3, 6, 4, 8
        ("rank_candidates", {"by": "preference"}),  # drops 1 (history); 4 .9, 3 .5, 6 .3, 8 .2
        ("fetch_candidates", {"k": 2}),
    )
    tracker = await executor.run_plan(plan, bus)
    counts = [(r.tool, r.candidates_before, r.candidates_after, r.ok) for r in tracker.records]
    assert counts == [
        ("hard_filter", 8, 5, True),
        ("rank_candidates", 5, 4, True),
        ("fetch_candidates", 4, 4, True),
    ]
    assert bus.items == ["4", "3", "6", "8"]
    assert tracker.shown == ["4", "3"]
    assert tracker.last_output == "1. Heat (1986)\n2. Heat (1995)"
    assert tracker.records[0].output.startswith("5 candidates: Star Voyage (1979); Heat (1995)")
    recs = log.pop("d1")
    assert [r.tool for r in recs] == ["filter_items", "rank_items", "fetch_candidates"]
    assert {(r.system, r.role, r.turn) for r in recs} == {("ira", "interecagent.tools", 2)}
    # The step's input as written, not the argument lists the executor built from the bus.
    assert [r.input for r in recs] == [
        {"exclude_genres": ["Comedy"]},
        {"by": "preference"},
        {"k": 2},
    ]


async def test_soft_filter_keeps_neighbours_in_similarity_order(
    executor: BusExecutor, in_dialogue: CallContext
) -> None:
    # k = ceil(0.25 * 8) = 2; neighbours of 1: 7 (0.9), 3 (0.2); of 3: 4 (0.8), 7 (0.3), 1 (0.2).
    # Totals without the seeds: 7 1.2, 4 0.8 -> top 2: 7, 4. After a Comedy filter (7, 2, 5)
    # the seeds 1 and 3 give the same top 2, of which only 7 is on the bus.
    bus = executor.new_bus()
    plan = _steps(("soft_filter", {"items": ["Star Voyage", "Heat (1995)"]}))
    tracker = await executor.run_plan(plan, bus)
    assert bus.items == ["7", "4"]
    bus2 = executor.new_bus()
    plan2 = _steps(("hard_filter", {"genres": ["Comedy"]}), ("soft_filter", {"items": "1; 3"}))
    tracker = await executor.run_plan(plan2, bus2)
    assert [(r.candidates_before, r.candidates_after) for r in tracker.records] == [(8, 3), (3, 1)]
    assert bus2.items == ["7"]


async def test_store_then_popularity_picks_the_remake_pair(
    executor: BusExecutor, in_dialogue: CallContext
) -> None:
    bus = executor.new_bus()
    plan = _steps(
        ("store_candidates", "Heat"),  # a bare title names both films
        ("rank_candidates", {"by": "popularity"}),
        ("fetch_candidates", "1"),
    )
    tracker = await executor.run_plan(plan, bus)
    assert [r.candidates_after for r in tracker.records] == [2, 2, 2]
    assert tracker.shown == ["3"]


async def test_bad_steps_are_recorded_and_leave_the_bus(
    executor: BusExecutor, log: ToolCallLog, in_dialogue: CallContext
) -> None:
    bus = executor.new_bus()
    plan = _steps(
        ("teleport", {}),
        ("hard_filter", {"genres": ["Western"]}),
        ("fetch_candidates", {"k": 99}),
        ("query_info", {"sql": "DELETE FROM items"}),
        ("soft_filter", {}),
        ("query_info", "SELECT title FROM items WHERE item_id = '8'"),
    )
    tracker = await executor.run_plan(plan, bus)
    oks = [(r.tool, r.ok, r.candidates_after) for r in tracker.records]
    assert oks == [
        ("teleport", False, 8), ("hard_filter", False, 8), ("fetch_candidates", False, 8),
        ("query_info", False, 8), ("soft_filter", False, 8), ("query_info", True, 8),
    ]  # fmt: skip
    assert (
        tracker.records[0].error is not None
        and "unknown tool 'teleport'" in tracker.records[0].error
    )
    assert "unknown genre 'Western'" in (tracker.records[1].error or "")
    assert (
        tracker.records[2].error == "invalid arguments: k: Input should be less than or equal to 20"
    )
    assert tracker.records[4].error == "soft_filter needs `items` (liked items) or a `description`"
    assert "Quiet Rooms" in tracker.last_output and tracker.shown == []
    tools = [(r.tool, r.ok) for r in log.pop("d1")]
    assert tools == [
        ("teleport", False), ("filter_items", False), ("fetch_candidates", False),
        ("sql_query", False), ("soft_filter", False), ("sql_query", True),
    ]  # fmt: skip


async def test_ranking_drops_dislikes_and_shown(
    executor: BusExecutor, in_dialogue: CallContext
) -> None:
    executor.memory.dislike.append("Galaxy Kids")
    executor.memory.shown.append("4")
    bus = executor.new_bus()
    plan = _steps(("rank_candidates", {}), ("fetch_candidates", {"k": 3}))
    tracker = await executor.run_plan(plan, bus)
    # Drops 1 (history), 7 (disliked), 4 (shown): 2 .6, 3 .5, 5 .4, 6 .3, 8 .2
    assert bus.items == ["2", "3", "5", "6", "8"]
    assert tracker.shown == ["2", "3", "5"]


async def test_unknown_genres_beside_known_conditions_are_dropped(
    executor: BusExecutor, in_dialogue: CallContext
) -> None:
    bus = executor.new_bus()
    step = ("hard_filter", {"genres": ["comedy", "Dev Patel"], "exclude_genres": ["none"]})
    tracker = await executor.run_plan(_steps(step), bus)
    assert bus.items == ["7", "2", "5"]
    assert tracker.records[0].note == "ignored unknown genre(s): 'Dev Patel', 'none'"

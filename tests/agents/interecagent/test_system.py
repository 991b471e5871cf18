"""One turn of InteRecAgent on the scripted backend: plans, execution, calls, grounding."""

from __future__ import annotations

from macrs_sim.agents.interecagent.schemas import PlanOutput, PlanStep, ReactStep
from macrs_sim.llm.base import message_text
from macrs_sim.protocol import ItemRef
from macrs_sim.tools import ToolCallLog, ToolResources
from tests.agents.interecagent.helpers import make_system, opening, roles

COMEDY = "I want a Comedy movie."
# Comedy: 7, 2, 5; ranked by preference 7 (.7), 2 (.6), 5 (.4).
SHOWN = ["7", "2", "5"]


async def test_plan_first_is_two_calls_and_grounds_items(resources: ToolResources) -> None:
    system, client = make_system(resources, reflection=False)
    turn = await system.respond(opening(COMEDY))
    assert roles(client) == ["interecagent.planner", "interecagent.reply"]
    assert turn.act == "recommend"
    assert turn.items[0] == ItemRef(
        title="Galaxy Kids (2005)", item_id="7", score=1.0, method="exact"
    )
    assert [i.item_id for i in turn.items] == SHOWN
    assert (
        turn.text
        == "You might enjoy Galaxy Kids (2005); Paris in Love (2001); Laugh Factory (2010)."
    )
    attempt = turn.explain["attempts"][0]
    assert [(t["tool"], t["candidates_after"]) for t in attempt["tools"]] == [
        ("hard_filter", 3), ("rank_candidates", 3), ("fetch_candidates", 3),
    ]  # fmt: skip
    assert turn.explain["llm_calls"] == 2 and turn.explain["replanned"] is False
    assert turn.explain["candidates"] == 3 and system.memory.shown == SHOWN


async def test_react_is_one_call_per_tool_plus_one(resources: ToolResources) -> None:
    system, client = make_system(resources, reflection=False, plan_first=False)
    turn = await system.respond(opening(COMEDY))
    assert roles(client) == ["interecagent.react"] * 4  # 3 tools + finish
    assert [i.item_id for i in turn.items] == SHOWN
    assert turn.text == "Here are my picks for you." and turn.explain["mode"] == "react"
    second, client2 = make_system(resources, reflection=False, plan_first=False)
    await second.respond(opening("Anything tonight?"))  # no genre: rank, fetch, finish
    assert len(client2.calls) == 3


async def test_repaired_plan_costs_one_more_call(resources: ToolResources) -> None:
    replies = iter(
        ["sure, here is my plan", '{"plan": [{"tool": "fetch_candidates", "input": "2"}]}']
    )
    system, client = make_system(
        resources, reflection=False, rules={"interecagent.planner": lambda r: next(replies)}
    )
    turn = await system.respond(opening("Anything."))
    assert roles(client) == ["interecagent.planner"] * 2 + ["interecagent.reply"]
    assert [i.item_id for i in turn.items] == ["3", "7"]  # the bus's first two but seen 1
    assert turn.explain["attempts"][0]["plan_error"] is None


async def test_unrepairable_plan_is_recorded_and_the_system_asks(resources: ToolResources) -> None:
    system, client = make_system(
        resources, reflection=False, rules={"interecagent.planner": lambda r: "no idea"}
    )
    turn = await system.respond(opening("Hello"))
    assert roles(client) == ["interecagent.planner"] * 3 + ["interecagent.reply"]
    attempt = turn.explain["attempts"][0]
    assert attempt["plan"] == [] and attempt["tools"] == []
    assert attempt["plan_error"].startswith("PlanOutput (interecagent.planner): no valid reply")
    assert (turn.act, turn.items) == ("ask", ())
    assert turn.text == "What kind of movie are you in the mood for?"


async def test_aliases_are_renamed_and_a_fetch_appended(resources: ToolResources) -> None:
    plan = PlanOutput(plan=[PlanStep(tool="Filter Items", input={"genres": ["horror"]})])
    system, _ = make_system(
        resources, reflection=False, rules={"interecagent.planner": lambda r: plan}
    )
    turn = await system.respond(opening("Something scary."))
    attempt = turn.explain["attempts"][0]
    assert attempt["repairs"] == [
        "renamed tool 'Filter Items' to 'hard_filter'",
        "appended fetch_candidates: the plan changed the bus but showed nothing",
    ]
    assert [i.item_id for i in turn.items] == ["6"]


async def test_steps_run_in_plan_order(resources: ToolResources, log: ToolCallLog) -> None:
    plan = PlanOutput(plan=[
        PlanStep(tool="hard_filter", input={"genres": ["Horror"]}),
        PlanStep(tool="fetch_candidates", input={"k": 1}),
        PlanStep(tool="store_candidates", input={"items": ["Paris in Love"]}),
        PlanStep(tool="fetch_candidates", input={"k": 1}),
    ])  # fmt: skip
    system, _ = make_system(
        resources, reflection=False, log=log, rules={"interecagent.planner": lambda r: plan}
    )
    turn = await system.respond(opening("Horror, then romance."))
    assert [r.tool for r in log.pop("d1")] == [
        "filter_items", "fetch_candidates", "store_candidates", "fetch_candidates",
    ]  # fmt: skip
    assert [i.item_id for i in turn.items] == ["2"]  # the last fetch is what is shown


async def test_positive_critic_does_not_replan(resources: ToolResources) -> None:
    system, client = make_system(resources)
    turn = await system.respond(opening(COMEDY))
    assert roles(client) == ["interecagent.planner", "interecagent.reply", "interecagent.critic"]
    assert turn.explain["replanned"] is False and len(turn.explain["attempts"]) == 1
    assert turn.explain["attempts"][0]["verdict"] == {"correct": True, "critique": ""}
    critic_prompt = message_text(client.calls[2].messages[-1])
    assert (
        """1. hard_filter {"condition": "genres LIKE '%Comedy%'"} -> ok; candidates 8 -> 3"""
        in critic_prompt
    )


async def test_final_list_ranks_without_a_model_call(resources: ToolResources) -> None:
    system, client = make_system(resources)
    state = opening(COMEDY)
    refs = await system.final_list(state, 3, given=[ItemRef(title="Heat", item_id="4")])
    # Preference without 1 (seen) and 4 (given): 7 .7, 2 .6, 3 .5.
    assert [r.item_id for r in refs] == ["7", "2", "3"] and client.calls == []


async def test_demonstrations_switch(resources: ToolResources) -> None:
    on, _ = make_system(resources, reflection=False)
    turn = await on.respond(opening("Which of Heat and Up is more popular?"))
    assert turn.explain["attempts"][0]["demonstrations"] == [
        "Which of ITEM and ITEM is more popular?",
        "Which of ITEM and ITEM is closer to DESCRIPTION?",
        "Show me the most popular movies of DATE.",
    ]
    off, _ = make_system(resources, reflection=False, demonstrations=False)
    turn = await off.respond(opening("Which of Heat and Up is more popular?"))
    assert turn.explain["attempts"][0]["demonstrations"] == [
        "I want some TYPE movies.",
        "Recommend me TYPE movies released after DATE.",
        "Any good TYPE films from before DATE?",
    ]
    assert turn.explain["demonstration_retrieval"] == "fixed"


async def test_react_stops_when_the_model_repeats_a_step(resources: ToolResources) -> None:
    same = ReactStep(tool="rank_candidates", input={"by": "popularity"})
    system, client = make_system(
        resources, reflection=False, plan_first=False, rules={"interecagent.react": lambda r: same}
    )
    turn = await system.respond(opening("Popular films?"))
    assert roles(client) == ["interecagent.react"] * 2 + ["interecagent.reply"]
    attempt = turn.explain["attempts"][0]
    assert attempt["repairs"] == ["stopped: step 2 repeated step 1"]
    assert [t["tool"] for t in attempt["tools"]] == ["rank_candidates"] and turn.items == ()

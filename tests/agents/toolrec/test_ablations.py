"""The paper's §4.3.1 ablations (Fig. 4) as ToolRec options, on the fixture films.

History ["1"] (Star Voyage: Sci-Fi, Adventure, 1979, dir. Ann Kepler). The fixed ranker's
order of the unseen films: 4 7 2 3 5 6 8. The stand-in genre tool puts 7 (Sci-Fi) first;
no other film shares the 1970s or the director, so those tools keep the ranker's order.
"""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from macrs_sim.agents.toolrec.actions import PlanOutput
from macrs_sim.agents.toolrec.options import ToolRecOptions
from macrs_sim.agents.toolrec.variants import split_evenly
from macrs_sim.config import describe_validation_error
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedRequest
from macrs_sim.protocol import DialogueState, UserTurn
from macrs_sim.tools import ToolCallLog
from tests.agents.toolrec.helpers import loop, roles, system
from tests.agents.toolrec.test_loop import ranks


def test_the_options_default_to_the_full_method_and_refuse_unknown_variants() -> None:
    options = ToolRecOptions()
    assert (options.variant, options.candidates) == ("toolrec", 30)
    with pytest.raises(ValidationError) as err:
        ToolRecOptions.model_validate({"variant": "w/ cot"})
    assert describe_validation_error("toolrec", err.value) == (
        "toolrec: variant: Input should be 'toolrec', 'single', 'multi' or 'plan'"
    )
    with pytest.raises(ValidationError) as err:
        ToolRecOptions.model_validate({"candidates": 0})
    assert describe_validation_error("toolrec", err.value) == (
        "toolrec: candidates: Input should be greater than or equal to 1"
    )


def test_thirty_candidates_split_evenly_over_the_sources() -> None:
    # ML-1M: SASRec, genre, release year -> 10 each; the demo: 4 sources.
    assert split_evenly(30, 3) == [10, 10, 10]
    assert split_evenly(30, 4) == [8, 8, 7, 7]
    assert split_evenly(30, 1) == [30]
    assert split_evenly(2, 4) == [1, 1, 0, 0]


async def test_w_single_ranks_the_plain_rankers_candidates_in_one_call() -> None:
    log = ToolCallLog()
    made, fake = loop(variant="single", candidates=6, log=log)
    result = await made.run(["1"], "(none)")
    assert [r.action for r in result.rounds] == ["retrieve[none, 6]", "rank[none, 6]"]
    assert result.rounds[0].items == ("4", "7", "2", "3", "5", "6")
    assert result.final == ("4", "7", "2", "3", "5", "6")
    assert (result.stop, result.llm_calls, roles(fake)) == ("finish", 1, ["toolrec.rank"])
    assert message_text(fake.calls[0].messages[1]) == (
        "The user's watch history (oldest first):\n"
        "- 1: Star Voyage (1979) | Sci-Fi, Adventure | dir. Ann Kepler\n\n"
        "What the user said in this conversation:\n(none)\n\n"
        "Candidate movies:\n"
        "Here are the top 6 movie IDs and names from the recommender system:\n"
        "1. 4: Heat (1986) | Action, Thriller | dir. Dick Richards\n"
        "2. 7: Galaxy Kids (2005) | Animation, Comedy, Sci-Fi | dir. Leo Bright\n"
        "3. 2: Paris in Love (2001) | Comedy, Romance | dir. Marie Dubois\n"
        "4. 3: Heat (1995) | Crime, Thriller | dir. Michael Mann\n"
        "5. 5: Laugh Factory  (2010) | Comedy | dir. Sam Joke\n"
        "6. 6: Haunted Manor (1999) | Horror | dir. Vera Dark\n\n"
        "Please rank the above 6 recommended movies by measuring the possibilities that the "
        "user would like to watch next most according to the given movie history records, "
        "and output top 6 movies except user's historical movies.\n"
        'Reply with only a JSON object: {"items": ["<movie ID>", ...]}'
    )
    assert [(c.tool, c.role) for c in log.pop("d1")] == [
        ("retrieve", "toolrec.tools"), ("rank", "toolrec.rank")
    ]  # fmt: skip


async def test_w_multi_takes_each_sources_share_of_new_items_and_ranks_the_union() -> None:
    made, fake = loop(variant="multi", candidates=6, rules={"toolrec.rank": ranks(["3", "7"])})
    result = await made.run(["1"], "(none)")
    # 6 over none, genre, decade, director: 2 2 1 1. The genre tool's 7 is taken already.
    assert [(r.action, r.items) for r in result.rounds[:4]] == [
        ("retrieve[none, 2]", ("4", "7")), ("retrieve[genre, 2]", ("2", "3")),
        ("retrieve[decade, 1]", ("5",)), ("retrieve[director, 1]", ("6",)),
    ]  # fmt: skip
    # The model ranked two of its top 6; the rest keep the pool's order.
    assert result.rounds[4].action == "rank[none, 6]"
    assert result.final == ("3", "7", "4", "2", "5", "6")
    prompt = message_text(fake.calls[0].messages[1])
    assert (
        "Here are the top 2 movie IDs and names from the recommender system with genre type:\n"
        "1. 2: Paris in Love (2001)"
    ) in prompt
    assert "Please rank the above 6 recommended movies" in prompt


async def test_w_multi_tops_up_from_the_plain_ranker_and_stays_short_when_all_is_taken() -> None:
    made, _ = loop(variant="multi", candidates=10)
    result = await made.run(["1"], "(none)")
    assert [(r.action, len(r.items)) for r in result.rounds] == [
        ("retrieve[none, 3]", 3), ("retrieve[genre, 3]", 3), ("retrieve[decade, 2]", 1),
        ("retrieve[director, 2]", 0), ("retrieve[none, 3]", 0), ("rank[none, 7]", 7),
    ]  # fmt: skip
    assert set(result.final) == {"2", "3", "4", "5", "6", "7", "8"}


async def test_w_single_sends_back_ids_the_memory_refuses() -> None:
    # "1" is in the history, "99" in no list.
    rules = {"toolrec.rank": ranks(["1", "99"], ["2"])}
    made, fake = loop(variant="single", candidates=3, rules=rules)
    result = await made.run(["1"], "(none)")
    assert result.rounds[-1].invalid == ("1", "99") and result.rounds[-1].reprompts == 1
    assert result.final == ("2", "4", "7") and result.llm_calls == 2
    assert message_text(fake.calls[1].messages[-1]).startswith(
        "These are not movie IDs from the candidate list (or the user has watched them): '1'; '99'."
    )


def planner(*plan: str):  # type: ignore[no-untyped-def]
    def rule(req: ScriptedRequest) -> BaseModel:
        return PlanOutput(plan=list(plan))

    return rule


async def test_w_plan_writes_every_step_at_once_then_runs_it_without_thoughts() -> None:
    made, fake = loop(variant="plan")
    result = await made.run(["1"], "(none)")
    assert [r.action for r in result.rounds] == [
        "retrieve[genre, 10]", "retrieve[decade, 5]", "rank[genre, 10]", "finish"
    ]  # fmt: skip
    assert all(r.thought == "" for r in result.rounds)
    assert result.final == ("7", "4", "2", "3", "5", "6", "8") and result.stop == "finish"
    # The plan, its rank, and the final ranking of every retrieved item (as the authors').
    assert result.llm_calls == 3 and roles(fake) == ["toolrec.plan"] + ["toolrec.rank"] * 2
    assert message_text(fake.calls[0].messages[1]) == (
        "The user's watch history (oldest first):\n"
        "- 1: Star Voyage (1979) | Sci-Fi, Adventure | dir. Ann Kepler\n\n"
        "What the user said in this conversation:\n(none)\n\n"
        "Task: Top 10 movies.\nPlan:"
    )
    system_text = message_text(fake.calls[0].messages[0])
    assert "conditioned on one attribute (genre, decade, director)" in system_text
    assert "The plan has at most 8 actions and ends with finish." in system_text


async def test_w_plan_follows_a_bad_plan_strictly() -> None:
    rules = {"toolrec.plan": planner("rank[genre, 3]", "search[x, 2]", "retrieve[genre, 2]")}
    made, fake = loop(variant="plan", rules=rules)
    result = await made.run(["1"], "(none)")
    # No finish: the plan runs out; the empty-list rank and the unknown tool are recorded;
    # the final ranking still runs (it keeps the scripted order).
    assert [r.tool for r in result.rounds] == ["rank", "invalid", "retrieve"]
    assert result.rounds[0].error == "the candidate list is empty; retrieve items first"
    assert (result.stop, result.final, result.llm_calls) == ("plan_end", ("7", "4"), 2)
    assert roles(fake) == ["toolrec.plan", "toolrec.rank"]


async def test_w_plan_runs_at_most_max_rounds_actions() -> None:
    rules = {"toolrec.plan": planner(*["retrieve[genre, 1]"] * 5, "finish")}
    made, _ = loop(variant="plan", rules=rules, max_rounds=3)
    result = await made.run(["1"], "(none)")
    assert len(result.rounds) == 3 and result.stop == "round_limit"
    assert result.final == ("7", "4", "2")


async def test_w_plan_without_a_readable_plan_is_a_model_error() -> None:
    made, fake = loop(variant="plan", rules={"toolrec.plan": lambda req: "no"}, retries=1)
    result = await made.run(["1"], "(none)")
    assert result.stop == "model_error" and result.final == () and len(fake.calls) == 2


async def test_an_ablation_serves_as_a_system_under_test() -> None:
    made, fake = system(variant="single", candidates=4)
    turn = await made.respond(DialogueState(dialogue_id="d1", opening=UserTurn(text="Hi")))
    assert [i.item_id for i in turn.items] == ["4"] and turn.explain["llm_calls"] == 1
    assert "What the user said in this conversation:\nUser: Hi" in (
        message_text(fake.calls[0].messages[1])
    )

"""The surrogate-user loop on the scripted backend over the fixture films.

History ["1"] (Star Voyage: Sci-Fi, Adventure, 1979). The stand-in retriever's genre list:
7 (Galaxy Kids, Sci-Fi) first, then the ranker's order 4 2 3 5 6 8.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from macrs_sim.agents.toolrec.actions import RankOutput, SimulationStep
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedRequest
from macrs_sim.tools import ToolCallLog
from tests.agents.toolrec.helpers import loop, roles


def steps(*actions: str):  # type: ignore[no-untyped-def]
    """A surrogate user that plays `actions` in order (it counts its scratchpad's actions)."""

    def rule(req: ScriptedRequest) -> BaseModel:
        done = len(re.findall(r"^Action \d+:", message_text(req.messages[-1]), re.M))
        return SimulationStep(thought=f"t{done + 1}", action=actions[min(done, len(actions) - 1)])

    return rule


def ranks(*answers: list[str]):  # type: ignore[no-untyped-def]
    """A rank tool that answers `answers[n]` on its n-th attempt of one call."""

    def rule(req: ScriptedRequest) -> BaseModel:
        attempt = (len(req.messages) - 2) // 2
        return RankOutput(items=answers[min(attempt, len(answers) - 1)])

    return rule


async def test_the_scripted_plan_retrieves_complements_ranks_and_finishes() -> None:
    log = ToolCallLog()
    made, fake = loop(log=log)
    result = await made.run(["1"], "(none)")
    assert [r.action for r in result.rounds] == [
        "retrieve[genre, 10]", "retrieve[decade, 5]", "rank[genre, 10]", "finish"
    ]  # fmt: skip
    assert result.rounds[0].items == ("7", "4", "2", "3", "5", "6", "8")
    # Every unseen film is on the list already: the year retrieval adds nothing new.
    assert result.rounds[1].items == ()
    assert result.final == ("7", "4", "2", "3", "5", "6", "8") and result.stop == "finish"
    # Finish: the final ranking of every retrieved item (the scripted rank keeps the order).
    assert result.llm_calls == 6
    assert roles(fake) == ["toolrec.simulate"] * 3 + ["toolrec.rank", "toolrec.simulate",
                                                       "toolrec.rank"]  # fmt: skip
    assert [(s.round, s.mark) for s in result.sets] == [
        (1, "retrieve[genre, 10]"), (2, "retrieve[decade, 5]"), (3, "rank[genre, 10]"),
        (4, "finish"),
    ]  # fmt: skip
    calls = log.pop("d1")
    assert [(c.tool, c.role, c.ok, c.turn) for c in calls] == [
        ("retrieve", "toolrec.tools", True, 1), ("retrieve", "toolrec.tools", True, 1),
        ("rank", "toolrec.rank", True, 1), ("rank", "toolrec.rank", True, 1),
    ]  # fmt: skip
    assert calls[0].input == {"attribute": "genre", "k": 10}


async def test_observations_feed_the_next_round() -> None:
    made, fake = loop(rules={"toolrec.simulate": steps("retrieve[genre, 2]", "finish")})
    await made.run(["1"], "User: something with aliens")
    second = message_text(fake.calls[1].messages[-1])
    assert "What the user said in this conversation:\nUser: something with aliens" in second
    assert (
        "Thought 1: t1\nAction 1: retrieve[genre, 2]\nObservation 1: Here are the top 2 movie "
        "IDs and names from the recommender system with genre type:\n"
        "1. 7: Galaxy Kids (2005) | Animation, Comedy, Sci-Fi | dir. Leo Bright\n"
        "2. 4: Heat (1986) | Action, Thriller | dir. Dick Richards"
    ) in second
    assert "Current candidate list (2 movies, with the tools that found them):\n1. 7: " in second
    assert "Actions left: 7." in second


async def test_invalid_rank_items_are_caught_and_the_tool_reprompted() -> None:
    rules = {
        "toolrec.simulate": steps("retrieve[genre, 3]", "rank[actors, 2]", "finish"),
        "toolrec.rank": ranks(["99", "Heat", "4"], ["2", "4"]),
    }
    made, fake = loop(rules=rules)
    result = await made.run(["1"], "(none)")
    rank = result.rounds[1]
    assert rank.invalid == ("99", "Heat") and rank.reprompts == 1
    assert rank.items == ("2", "4")
    retry = fake.calls[3]
    assert retry.context.role == "toolrec.rank" and len(retry.messages) == 4
    assert message_text(retry.messages[-1]).startswith(
        "These are not movie IDs of the catalog (or the user has watched them): '99'; 'Heat'."
    )
    # The final ranking (the same two attempts) ranks 2 and 4; 7, retrieved and dropped by
    # the rank, follows in its place.
    assert result.final == ("2", "4", "7") and result.llm_calls == 7


async def test_a_rank_tool_that_keeps_failing_leaves_the_order_as_it_was() -> None:
    rules = {
        "toolrec.simulate": steps("retrieve[genre, 3]", "rank[genre, 2]", "finish"),
        # "1" is in the history: refused like an unknown id.
        "toolrec.rank": ranks(["1"]),
    }
    made, _ = loop(rules=rules, mismatch_retries=2)
    result = await made.run(["1"], "(none)")
    rank = result.rounds[1]
    assert rank.invalid == ("1", "1", "1") and rank.reprompts == 2
    assert rank.items == ("7", "4")
    # The final ranking fails the same way: every retrieved item in its order.
    assert result.final == ("7", "4", "2")


async def test_an_unreadable_action_is_sent_back_and_the_loop_goes_on() -> None:
    made, fake = loop(rules={"toolrec.simulate": steps("search[genre, 3]", "finish")})
    result = await made.run(["1"], "(none)")
    assert [r.tool for r in result.rounds] == ["invalid", "finish"]
    assert (
        result.rounds[0].error == "unknown tool 'search'; the tools are retrieve, rank and finish"
    )
    assert "Observation 1: Error: unknown tool 'search'" in message_text(fake.calls[1].messages[-1])


async def test_an_unknown_retrieval_attribute_is_an_error_observation_and_a_failed_call() -> None:
    log = ToolCallLog()
    made, _ = loop(rules={"toolrec.simulate": steps("retrieve[actor, 3]", "finish")}, log=log)
    result = await made.run(["1"], "(none)")
    assert result.rounds[0].error == "unknown attribute 'actor'; known: genre, decade, director"
    (call,) = log.pop("d1")
    assert (call.tool, call.ok) == ("retrieve", False)


async def test_rank_on_an_empty_list_is_refused_without_a_model_call() -> None:
    made, fake = loop(rules={"toolrec.simulate": steps("rank[genre, 3]", "finish")})
    result = await made.run(["1"], "(none)")
    assert result.rounds[0].error == "the candidate list is empty; retrieve items first"
    assert roles(fake) == ["toolrec.simulate", "toolrec.simulate"]


async def test_finish_is_honoured_at_once() -> None:
    made, fake = loop(rules={"toolrec.simulate": steps("finish")})
    result = await made.run(["1"], "(none)")
    assert (len(result.rounds), result.stop, result.final, result.llm_calls) == (
        1, "finish", (), 1
    )  # fmt: skip


async def test_the_round_limit_ends_the_loop_with_the_current_list() -> None:
    made, fake = loop(rules={"toolrec.simulate": steps("retrieve[genre, 2]")}, max_rounds=3)
    result = await made.run(["1"], "(none)")
    assert len(result.rounds) == 3 and result.stop == "round_limit"
    assert result.final == ("7", "4", "2", "3", "5", "6")
    assert roles(fake) == ["toolrec.simulate"] * 3 + ["toolrec.rank"]  # the final ranking


async def test_a_model_that_never_answers_in_json_ends_the_loop() -> None:
    made, fake = loop(rules={"toolrec.simulate": lambda req: "no json here"}, retries=1)
    result = await made.run(["1"], "(none)")
    assert result.stop == "model_error" and result.rounds[0].tool == "model_error"
    assert "no valid reply after 2 attempt(s)" in (result.rounds[0].error or "")
    assert len(fake.calls) == 2

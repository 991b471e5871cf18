"""ToolRec as §3 and the authors' code (ToolRec-Code) have it: the final list ranked from
every tool result, a rank tool checked against the item pool, the plain-backbone retrieval
and the action and item forms the authors' prompts produce.

History ["1"]; the stand-in's genre list is 7 4 2 3 5 6 8, the plain ranker's 4 7 2 3 5 6 8.
"""

from __future__ import annotations

import pytest
from pydantic import BaseModel

from macrs_sim.agents.toolrec.actions import FinishAction, RankOutput, ToolAction, parse_action
from macrs_sim.agents.toolrec.memory import ToolMemory
from macrs_sim.agents.toolrec.scripted import rank as scripted_rank
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedRequest
from tests.agents.toolrec.helpers import films, loop, roles
from tests.agents.toolrec.test_loop import steps


def final_first(*first: str):  # type: ignore[no-untyped-def]
    """The rank tool: the final ranking puts `first` on top; an attribute rank keeps order."""

    def rule(req: ScriptedRequest) -> BaseModel:
        out = scripted_rank(req)
        if "according to the user history, and output top" in message_text(req.messages[1]):
            out.items = [*first, *(i for i in out.items if i not in first)]
        return out

    return rule


async def test_finish_ranks_every_retrieved_item_to_the_final_list() -> None:
    """A rank kept 2 of 3; the third (2) still reaches the final ranking, which puts it first."""
    rules = {"toolrec.simulate": steps("retrieve[genre, 3]", "rank[genre, 2]", "finish"),
             "toolrec.rank": final_first("2")}  # fmt: skip
    made, fake = loop(rules=rules)
    result = await made.run(["1"], "(none)")
    assert result.rounds[1].items == ("7", "4")
    assert result.final == ("2", "7", "4") and result.rounds[2].items == ("2", "7", "4")
    assert roles(fake) == ["toolrec.simulate", "toolrec.simulate", "toolrec.rank",
                           "toolrec.simulate", "toolrec.rank"]  # fmt: skip
    shown = message_text(fake.calls[-1].messages[1])
    assert "Candidate movies:\n1. 7: Galaxy Kids (2005)" in shown
    assert "\n3. 2: Paris in Love" in shown
    assert "output top 10 movies except user's historical movies" in shown
    assert result.sets[-1].mark == "finish" and result.llm_calls == 5


async def test_the_round_limit_also_ends_with_the_final_ranking() -> None:
    rules = {"toolrec.simulate": steps("retrieve[genre, 2]"), "toolrec.rank": final_first("2")}
    made, fake = loop(rules=rules, max_rounds=2)
    result = await made.run(["1"], "(none)")
    assert result.stop == "round_limit" and result.final == ("2", "7", "4", "3")
    assert roles(fake)[-1] == "toolrec.rank"


async def test_the_rank_tool_takes_any_unseen_catalog_item() -> None:
    """§3.4: items are checked against the item pool directory, not the current list."""
    rules = {"toolrec.simulate": steps("retrieve[genre, 2]", "rank[genre, 2]", "finish"),
             "toolrec.rank": lambda req: RankOutput(items=["3", "7"])}  # fmt: skip
    made, _ = loop(rules=rules)
    result = await made.run(["1"], "(none)")
    rank = result.rounds[1]  # 3 (Heat, 1995) was never retrieved: the model brought it in
    assert rank.items == ("3", "7") and rank.invalid == () and rank.reprompts == 0


async def test_retrieve_none_is_the_plain_backbone() -> None:
    made, _ = loop(rules={"toolrec.simulate": steps("Retrieve[None, 3]", "finish")})
    result = await made.run(["1"], "(none)")
    assert result.rounds[0].error is None and result.rounds[0].items == ("4", "7", "2")


@pytest.mark.parametrize(
    ("text", "action"),
    [("Retrieve[None, 5]", ToolAction(tool="retrieve", attribute="none", k=5)),
     ("Action 3: rank[genre, 5]", ToolAction(tool="rank", attribute="genre", k=5)),
     ("Rerank[None, 10]", ToolAction(tool="rank", attribute="none", k=10)),
     ("```Retrieve[genre, 5]```", ToolAction(tool="retrieve", attribute="genre", k=5)),
     ("Finish[list]", FinishAction()), ("Finish[10]", FinishAction()),
     ("Finish[m1, m2]", FinishAction()), ("Action 4: finish", FinishAction())],
)  # fmt: skip
def test_the_authors_action_forms_are_read(text: str, action: object) -> None:
    assert parse_action(text, 50) == action


@pytest.mark.parametrize("ref", ["<4>", "4, Heat, 9.5", "4 Heat (1986)", "ID 4, Heat", "`4`"])
def test_the_authors_item_forms_name_the_item(ref: str) -> None:
    memory = ToolMemory(films(), ["1"])
    assert memory.resolve(ref) == "4"
    assert memory.resolve("Heat (1986)") == "4" and memory.resolve("<99>") is None


async def test_the_history_shows_the_users_ratings_where_known() -> None:
    """The authors' history lines end "{score} stars."; an unrated item shows none."""
    made, fake = loop(rules={"toolrec.simulate": steps("finish")})
    await made.run(["1", "3"], "(none)", {"1": 4.0, "7": 2.0})
    shown = message_text(fake.calls[0].messages[-1])
    assert (
        "The user's watch history (oldest first):\n"
        "- 1: Star Voyage (1979) | Sci-Fi, Adventure | dir. Ann Kepler | 4 stars\n"
        "- 3: Heat (1995) | "
    ) in shown
    assert "2 stars" not in shown and shown.count("stars") == 1

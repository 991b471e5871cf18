"""ToolRec as a system under test: turns, the fallback list, grounding, explain, tool log."""

from __future__ import annotations

from macrs_sim.llm.base import message_text
from macrs_sim.protocol import DialogueState, Exchange, ItemRef, SystemTurn, UserTurn
from macrs_sim.tools import ToolCallLog
from tests.agents.toolrec.helpers import system
from tests.agents.toolrec.test_loop import steps

OPENING = DialogueState(dialogue_id="d1", opening=UserTurn(text="Something with aliens?"))


def after(turn: SystemTurn, reply: str) -> DialogueState:
    return OPENING.model_copy(
        update={"exchanges": (Exchange(turn=1, system=turn, user=UserTurn(text=reply)),)}
    )


async def test_each_turn_recommends_the_loops_best_item_not_shown_before() -> None:
    log = ToolCallLog()
    made, fake = system(log=log)
    first = await made.respond(OPENING)
    # The scripted loop's final list: 7 4 2 3 5 6 8 (history: 1).
    assert first.act == "recommend" and first.text == "You might enjoy Galaxy Kids (2005)."
    assert first.items == (ItemRef(title="Galaxy Kids (2005)", item_id="7", score=1.0,
                                   method="exact"),)  # fmt: skip
    loop = first.explain["loop"]
    assert [r["tool"] for r in loop["rounds"]] == ["retrieve", "retrieve", "rank", "finish"]
    assert loop["stop"] == "finish" and first.explain["llm_calls"] == 6  # the final ranking
    assert "What the user said in this conversation:\nUser: Something with aliens?" in (
        message_text(fake.calls[0].messages[-1])
    )
    second = await made.respond(after(first, "Not that one."))
    assert [i.item_id for i in second.items] == ["4"]
    assert "Assistant: You might enjoy Galaxy Kids (2005).\nUser: Not that one." in (
        message_text(fake.calls[6].messages[-1])
    )
    assert {c.turn for c in log.pop("d1")} == {1, 2}


async def test_the_fallback_list_skips_shown_and_given_items_without_a_model_call() -> None:
    made, fake = system()
    first = await made.respond(OPENING)
    calls = len(fake.calls)
    state = after(first, "No.")
    assert [r.item_id for r in await made.final_list(state, 3)] == ["4", "2", "3"]
    given = [ItemRef(title="Heat (1986)", item_id="4")]
    assert [r.item_id for r in await made.final_list(state, 3, given)] == ["2", "3", "5"]
    assert len(fake.calls) == calls


async def test_a_short_loop_list_is_topped_up_by_the_plain_ranker() -> None:
    made, _ = system(rules={"toolrec.simulate": steps("retrieve[genre, 1]", "finish")})
    turn = await made.respond(OPENING)
    assert [i.item_id for i in turn.items] == ["7"] and turn.explain["from_loop"] == 1
    # The loop's list is [7]; then the ranker's order without the history: 4 7 2 3 ...
    assert [r.item_id for r in await made.final_list(after(turn, "No."), 3)] == ["4", "2", "3"]


async def test_a_loop_that_finishes_empty_still_recommends_from_the_plain_ranker() -> None:
    made, _ = system(rules={"toolrec.simulate": steps("finish")})
    turn = await made.respond(OPENING)
    assert [i.item_id for i in turn.items] == ["4"] and turn.explain["from_loop"] == 0


async def test_the_fallback_list_runs_the_loop_when_no_turn_did() -> None:
    made, fake = system(recommend_k=2)
    refs = await made.final_list(OPENING, 2)
    assert [r.item_id for r in refs] == ["7", "4"] and len(fake.calls) == 6

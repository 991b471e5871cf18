"""MACRS per paper §3: memory contents per role, reflection triggers and lifetimes, ablations."""

from __future__ import annotations

import pytest

from macrs_sim.agents.macrs import prompts as p
from macrs_sim.agents.macrs.messages import RespondRequest
from macrs_sim.agents.macrs.schemas import (
    DemandPair,
    PlannerOutput,
    RecommendOutput,
    StrategyOutput,
    UserProfile,
)
from macrs_sim.agents.macrs.system import MACRSOptions, MACRSRecommender
from macrs_sim.llm.scripted import ScriptedChatCompletionClient, ScriptedRequest
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState, Exchange, ItemRef, SystemTurn, UserTurn

PLAN = {1: "recommend", 2: "ask", 3: "recommend", 4: "chat"}


def profile_for(turn: int) -> UserProfile:
    return UserProfile(current_demand=[DemandPair(attribute="turn", value=str(turn))])


def make_client() -> ScriptedChatCompletionClient:
    def turn(req: ScriptedRequest) -> int:
        assert req.context.turn is not None
        return req.context.turn

    return ScriptedChatCompletionClient(
        {
            "macrs.ask": lambda r: f"ask-{turn(r)}",
            "macrs.chat": lambda r: f"chat-{turn(r)}",
            "macrs.recommend": lambda r: RecommendOutput(
                item_title="Heat (1995)", response=f"rec-{turn(r)}"
            ),
            "macrs.planner": lambda r: PlannerOutput(
                step1="a",
                step2="b",
                step3="c",
                choice=PLAN[turn(r)],  # type: ignore[arg-type]
            ),
            "macrs.info_reflector": lambda r: profile_for(turn(r)),
            "macrs.strategy_reflector": lambda r: StrategyOutput(
                error_summary=f"err{turn(r)}",
                suggestion_ask=f"ask-s{turn(r)}",
                suggestion_chat=f"chat-s{turn(r)}",
                suggestion_recommend=f"rec-s{turn(r)}",
                experience=f"exp{turn(r)}",
            ),
        }
    )


def calls(client: ScriptedChatCompletionClient, role: str, turn: int) -> list[ScriptedRequest]:
    """`role`'s calls of `turn`: MACRS's own roles are "macrs.<role>", final_list is shared."""
    full = role if role == "final_list" else f"macrs.{role}"
    return [c for c in client.calls if c.context.role == full and c.context.turn == turn]


def user_text(req: ScriptedRequest) -> str:
    content = req.messages[-1].content
    assert isinstance(content, str)
    return content


async def play(system: MACRSRecommender, turns: int) -> tuple[DialogueState, list[SystemTurn]]:
    state = DialogueState(dialogue_id="d1", opening=UserTurn(text="I want a heist film."))
    out = []
    for t in range(1, turns + 1):
        st = await system.respond(state)
        out.append(st)
        ex = Exchange(turn=t, system=st, user=UserTurn(text=f"feedback-{t}"))
        state = state.model_copy(update={"exchanges": (*state.exchanges, ex)})
    await system.close()
    return state, out


def new_system(client: ScriptedChatCompletionClient, **opts: bool) -> MACRSRecommender:
    return MACRSRecommender(
        "MACRS", client, PromptLibrary(), dialogue_id="d1", options=MACRSOptions(**opts)
    )


async def test_turn_one_memory_and_choice(prompts: PromptLibrary) -> None:
    client = make_client()
    _, turns = await play(new_system(client), 1)
    (ir,) = calls(client, "info_reflector", 1)
    assert "System response: (none)\nUser feedback: I want a heist film." in user_text(ir)
    (ask,) = calls(client, "ask", 1)
    state = DialogueState(dialogue_id="d1", opening=UserTurn(text="I want a heist film."))
    expected = RespondRequest(turn=1, dialogue_history=state.utterances(), profile=profile_for(1))
    assert list(ask.messages) == p.responder_messages(prompts.get("responder_ask"), expected)
    assert not calls(client, "strategy_reflector", 1)
    (planner,) = calls(client, "planner", 1)
    assert "Dialogue act history: (none)" in user_text(planner)
    assert "Corrective experiences: (none)" in user_text(planner)
    assert turns[0].act == "recommend" and turns[0].text == "rec-1"
    assert turns[0].items[0].title == "Heat (1995)"
    assert turns[0].explain["candidates"]["ask"]["text"] == "ask-1"


async def test_strategy_reflection_after_failure_lives_one_turn() -> None:
    client = make_client()
    _, turns = await play(new_system(client), 4)
    # Turn 2 follows the failed recommendation of turn 1: SR over the trajectory [turn 1].
    (sr2,) = calls(client, "strategy_reflector", 2)
    assert "Turn 1\nCurrent demand: turn: 1\n" in user_text(sr2)
    assert "System (recommend): rec-1\nUser: feedback-1" in user_text(sr2)
    assert "Suggestion for this turn: ask-s2" in user_text(calls(client, "ask", 2)[0])
    assert "Suggestion for this turn: rec-s2" in user_text(calls(client, "recommend", 2)[0])
    assert "Corrective experiences: exp2" in user_text(calls(client, "planner", 2)[0])
    assert turns[1].explain["strategy_reflection"]["error_summary"] == "err2"
    # Turn 3 follows an ask: no SR, and turn 2's suggestions are gone (§4.2: one turn only).
    assert not calls(client, "strategy_reflector", 3)
    assert "Suggestion for this turn: (none)" in user_text(calls(client, "ask", 3)[0])
    assert "Corrective experiences: (none)" in user_text(calls(client, "planner", 3)[0])
    assert "Dialogue act history: recommend, ask" in user_text(calls(client, "planner", 3)[0])
    assert turns[2].explain["strategy_reflection"] is None
    # Turn 4 follows the failure of turn 3: the trajectory starts after the failure of turn 1.
    (sr4,) = calls(client, "strategy_reflector", 4)
    assert "Turn 1" not in user_text(sr4)
    assert "Turn 2\nCurrent demand: turn: 2\n" in user_text(sr4)
    assert "Turn 3\nCurrent demand: turn: 3\n" in user_text(sr4)


async def test_information_reflection_feeds_previous_profile() -> None:
    client = make_client()
    await play(new_system(client), 2)
    (ir2,) = calls(client, "info_reflector", 2)
    assert user_text(ir2).startswith("Past user profile:\nCurrent demand: turn: 1\n")
    assert "System response: rec-1\nUser feedback: feedback-1" in user_text(ir2)


@pytest.mark.parametrize(
    ("ir", "sr", "ir_calls", "sr_calls"),
    [(True, True, 3, 1), (False, True, 0, 1), (True, False, 3, 0), (False, False, 0, 0)],
)
async def test_ablation_switches(ir: bool, sr: bool, ir_calls: int, sr_calls: int) -> None:
    client = make_client()
    await play(new_system(client, information_reflection=ir, strategy_reflection=sr), 3)
    roles = [c.context.role for c in client.calls]
    assert roles.count("macrs.info_reflector") == ir_calls
    assert roles.count("macrs.strategy_reflector") == sr_calls
    ask3 = user_text(calls(client, "ask", 3)[0])
    if not ir:
        assert "Current demand: (none)\nBrowsing history: (none)" in ask3
    if not sr:
        assert "Suggestion for this turn: (none)" in user_text(calls(client, "ask", 2)[0])


async def test_final_list_reflects_last_feedback_then_lists() -> None:
    from macrs_sim.agents.macrs.schemas import FinalListOutput

    client = make_client()
    client.rules["final_list"] = lambda r: FinalListOutput(titles=["A", "B", "C"])
    system = new_system(client)
    state, _ = await play(system, 1)
    items = await system.final_list(state, k=2)
    assert [i.title for i in items] == ["A", "B"]
    assert calls(client, "info_reflector", 2) and calls(client, "final_list", 2)
    # Turn 1's recommendation failed, but no strategy reflection: the list has no next turn
    # whose responders or planner would read its suggestions and experiences.
    assert not calls(client, "strategy_reflector", 2)
    # The follow-up request names what was given and reuses the reflection already made.
    await system.final_list(state, k=1, given=[ItemRef(title="A"), ItemRef(title="B")])
    await system.close()
    assert len(calls(client, "info_reflector", 2)) == 1
    follow_up = user_text(calls(client, "final_list", 2)[1])
    assert "You have already recommended these movies: A; B\nRecommend 1 more" in follow_up
    assert "Current demand: turn: 2" in follow_up  # the profile from the one reflection


async def test_blank_recommendation_is_a_schema_failure_that_is_repaired() -> None:
    replies = iter(['{"item_title": "  ", "response": "I have just the film!"}'])
    client = make_client()
    client.rules["macrs.recommend"] = lambda r: next(
        replies, '{"item_title": "Heat (1995)", "response": "Try Heat."}'
    )
    _, turns = await play(new_system(client), 1)
    first, repair = calls(client, "recommend", 1)
    assert "item_title: Value error, item_title must name the recommended movie" in user_text(
        repair
    )
    assert (turns[0].act, turns[0].text) == ("recommend", "Try Heat.")
    assert [i.title for i in turns[0].items] == ["Heat (1995)"]


async def test_planner_choice_is_parsed_repaired_or_recorded_as_error(catalog: object) -> None:
    from macrs_sim.campaign.dialogue import run_dialogue
    from macrs_sim.config import ProtocolConfig
    from macrs_sim.data.catalog import Catalog
    from macrs_sim.data.grounding import Grounder
    from macrs_sim.protocol import Sample
    from macrs_sim.simulators.llm_user import LLMUserSimulator

    assert isinstance(catalog, Catalog)
    replies = iter(['{"step1": "a", "step2": "b", "step3": "c", "choice": "dance"}'])

    def planner(r: ScriptedRequest) -> str:
        # First reply breaks the schema (unknown act), the repair attempt is valid.
        return next(
            replies, '```json\n{"step1": "a", "step2": "b", "step3": "c", "choice": "chat"}\n```'
        )

    client = make_client()
    client.rules["macrs.planner"] = planner
    state, turns = await play(new_system(client), 1)
    assert turns[0].act == "chat" and turns[0].text == "chat-1"
    assert len(calls(client, "planner", 1)) == 2
    assert "not valid JSON for the schema" in user_text(calls(client, "planner", 1)[1])

    broken = make_client()
    broken.rules["macrs.planner"] = lambda r: '{"choice": "dance"}'
    sample = Sample(sample_id="s", user_id="u", history=("m1",), target_id="m2", opening="hi")
    sim = LLMUserSimulator(
        sample, catalog, broken, PromptLibrary(), dialogue_id="d1", system_name="MACRS"
    )
    result = await run_dialogue(
        new_system(broken),
        sim,
        Grounder(catalog),
        dialogue_id="d1",
        sample=sample,
        protocol=ProtocolConfig(max_turns=2, max_structured_retries=1),
    )
    assert result.status == "error" and result.exchanges == ()
    assert result.error is not None and result.error.startswith(
        "StructuredOutputError: PlannerOutput"
    )

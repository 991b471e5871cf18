"""Reflection: every attempt judged, up to 1 + reflection_limit attempts (RecAI's limit 3),
and a rejected attempt's profile updates undone before the next one (the paper's revert)."""

from __future__ import annotations

from macrs_sim.agents.interecagent.schemas import CriticOutput, PlanOutput, PlanStep, ProfileUpdate
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedRequest
from macrs_sim.tools import ToolResources
from tests.agents.interecagent.helpers import make_system, opening, roles

ONE_ATTEMPT = ["interecagent.planner", "interecagent.reply", "interecagent.critic"]


def _planner(seen: list[str]):  # type: ignore[no-untyped-def]
    """Attempt n likes "Film n" and ranks by popularity from the second attempt on."""

    def planner(req: ScriptedRequest) -> PlanOutput:
        seen.append(message_text(req.messages[-1]))
        n = len(seen)
        by = "popularity" if n > 1 else "preference"
        return PlanOutput(
            profile=ProfileUpdate(like=[f"Film {n}"], expect=[f"wish {n}"]),
            plan=[PlanStep(tool="rank_candidates", input={"by": by})],
        )

    return planner


async def test_rejected_attempts_are_reverted_until_one_is_accepted(
    resources: ToolResources,
) -> None:
    verdicts = iter([
        CriticOutput(correct=False, critique="Rank by popularity."),
        CriticOutput(correct=False, critique="Still wrong."),
        CriticOutput(correct=True),
    ])  # fmt: skip
    seen: list[str] = []
    system, client = make_system(
        resources,
        rules={"interecagent.planner": _planner(seen),
               "interecagent.critic": lambda r: next(verdicts)},
        fetch_k=3,
    )  # fmt: skip
    turn = await system.respond(opening("Popular films?"))
    assert roles(client) == ONE_ATTEMPT * 3
    # Only the accepted attempt's profile updates remain; each re-plan saw the profile as
    # it was before the turn (no "Film 1" in the second planner prompt).
    assert system.memory.like == ["Film 3"] and system.memory.expect == ["wish 3"]
    assert "like: (none)" in seen[1] and "like: (none)" in seen[2]
    assert seen[2].endswith("Critique: Still wrong.\nWrite a better plan.")
    attempts = turn.explain["attempts"]
    assert [a["reverted"] for a in attempts] == [True, True, False]
    assert [a["critique_in"] for a in attempts] == [None, "Rank by popularity.", "Still wrong."]
    # Preference without 1 (seen): 4, 7, 2; popularity: 3 (25), 7 (20), 6 (15).
    assert attempts[0]["shown"] == ["4", "7", "2"]
    assert [i.item_id for i in turn.items] == ["3", "7", "6"]
    assert turn.explain["llm_calls"] == 9 and system.memory.shown == ["3", "7", "6"]


async def test_the_limit_keeps_the_last_attempt(resources: ToolResources) -> None:
    bad = CriticOutput(correct=False, critique="No.")
    seen: list[str] = []
    system, client = make_system(
        resources,
        rules={"interecagent.planner": _planner(seen), "interecagent.critic": lambda r: bad},
    )
    turn = await system.respond(opening("Popular films?"))
    assert roles(client) == ONE_ATTEMPT * 4  # 1 + reflection_limit (3), each judged
    assert [a["reverted"] for a in turn.explain["attempts"]] == [True, True, True, False]
    assert system.memory.like == ["Film 4"]  # RecAI adopts the last response
    short, client2 = make_system(
        resources,
        reflection_limit=1,
        rules={"interecagent.planner": _planner([]), "interecagent.critic": lambda r: bad},
    )
    await short.respond(opening("Popular films?"))
    assert roles(client2) == ONE_ATTEMPT * 2


async def test_an_unreadable_verdict_ends_reflection(resources: ToolResources) -> None:
    system, client = make_system(resources, rules={"interecagent.critic": lambda r: "hmm"})
    turn = await system.respond(opening("I want a Comedy movie."))
    assert (
        roles(client)
        == ["interecagent.planner", "interecagent.reply"] + ["interecagent.critic"] * 3
    )  # the first try and two repairs
    attempt = turn.explain["attempts"][0]
    assert attempt["verdict"] is None and attempt["reverted"] is False
    assert attempt["critic_error"].startswith("CriticOutput (interecagent.critic)")

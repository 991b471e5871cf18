"""The dialogue window: the last K exchanges stay in the prompts, the ones that leave it are
summarised (one call) into the long-term profile, which the tools then use."""

from __future__ import annotations

import pytest

from macrs_sim.agents.interecagent.options import InteRecAgentOptions
from macrs_sim.agents.interecagent.schemas import ProfileSummary
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedRequest
from macrs_sim.protocol import DialogueState, Exchange, SystemTurn, UserTurn
from macrs_sim.tools import ToolResources
from tests.agents.interecagent.helpers import make_system, roles


def _state(*texts: str) -> DialogueState:
    """Alternating user / system texts, ending with the user's latest message."""
    exchanges = tuple(
        Exchange(turn=n + 1, system=SystemTurn(act="chat", text=texts[2 * n + 1]),
                 user=UserTurn(text=texts[2 * n + 2]))
        for n in range((len(texts) - 1) // 2)
    )  # fmt: skip
    return DialogueState(dialogue_id="d1", opening=UserTurn(text=texts[0]), exchanges=exchanges)


def test_the_default_keeps_the_whole_dialogue() -> None:
    assert InteRecAgentOptions().dialogue_window is None
    with pytest.raises(ValueError, match="greater than or equal to 1"):
        InteRecAgentOptions(dialogue_window=0)


async def test_turns_leaving_the_window_are_summarised_once(resources: ToolResources) -> None:
    summaries: list[str] = []

    def profile(req: ScriptedRequest) -> ProfileSummary:
        summaries.append(message_text(req.messages[-1]))
        return ProfileSummary(like=["Heat (1995)"], dislike=["Galaxy Kids"])

    system, client = make_system(
        resources, reflection=False, dialogue_window=1,
        rules={"interecagent.profile": profile},
    )  # fmt: skip
    texts = ["u0", "s1", "u1", "s2", "I want a Comedy movie."]
    turn = await system.respond(_state(*texts))
    assert roles(client) == [
        "interecagent.profile", "interecagent.planner", "interecagent.reply",
    ]  # fmt: skip
    assert summaries == ["Conversation:\nUser: u0\nAssistant: s1"]
    planner = message_text(client.calls[1].messages[-1])
    assert "Conversation so far:\nUser: u1\nAssistant: s2\n\n" in planner
    assert "earlier in the dialogue: like: Heat (1995); dislike: Galaxy Kids" in planner
    # Comedy: 7, 2, 5; Galaxy Kids (7) is disliked: preference 2 (.6), 5 (.4).
    assert [i.item_id for i in turn.items] == ["2", "5"]
    assert turn.explain["window_summary"] == {
        "utterances": 2, "llm_calls": 1,
        "summary": {"like": ["Heat (1995)"], "dislike": ["Galaxy Kids"]},
    }  # fmt: skip
    assert turn.explain["llm_calls"] == 3
    # Next turn: only the exchange that has just left the window is summarised.
    await system.respond(_state(*texts, "s3", "Thanks!"))
    assert summaries[1] == "Conversation:\nUser: u1\nAssistant: s2"
    assert system.memory.summary_like == ["Heat (1995)"]


async def test_a_new_like_takes_an_item_out_of_the_dislikes(resources: ToolResources) -> None:
    answers = iter([ProfileSummary(dislike=["Heat"]), ProfileSummary(like=["Heat"])])
    system, _ = make_system(
        resources, reflection=False, dialogue_window=1,
        rules={"interecagent.profile": lambda r: next(answers)},
    )  # fmt: skip
    await system.respond(_state("a", "b", "c", "d", "hi"))
    assert system.memory.summary_dislike == ["Heat"]
    await system.respond(_state("a", "b", "c", "d", "hi", "e", "hi"))
    assert (system.memory.summary_like, system.memory.summary_dislike) == (["Heat"], [])


async def test_without_a_window_no_summary_is_asked(resources: ToolResources) -> None:
    system, client = make_system(resources, reflection=False)
    await system.respond(_state("u0", "s1", "u1", "s2", "Thanks!"))
    assert "interecagent.profile" not in roles(client)
    assert "User: u0\nAssistant: s1\nUser: u1\nAssistant: s2" in message_text(
        client.calls[0].messages[-1]
    )

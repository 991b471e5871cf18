"""A plan with no tool is chit-chat answered from the model's knowledge (paper Figure 6a); a
failed plan gets a clarifying question, the failure only in `explain`, never in the text."""

from __future__ import annotations

from macrs_sim.agents.interecagent import prompts as pb
from macrs_sim.agents.interecagent.schemas import PlanOutput, PlanStep
from macrs_sim.llm.base import message_text
from macrs_sim.llm.scripted import ScriptedRequest
from macrs_sim.prompts import PromptLibrary
from macrs_sim.tools import ToolResources
from tests.agents.interecagent.helpers import make_system, opening, roles

CLARIFY = (
    "You are a conversational movie recommendation assistant. You could not work out what the "
    "user wants from their latest message. Ask the user one short, friendly question about the "
    "movies they would like (a genre, a mood, a movie they enjoyed). Reply with the question only."
)
FALLBACK = (
    "Could you tell me a bit more about the movie you would like, such as a genre or a film "
    "you enjoyed?"
)


def _echo(req: ScriptedRequest) -> str:
    """A model that repeats its whole prompt: whatever internal text it got, the user sees."""
    return " ".join(message_text(m) for m in req.messages)


def test_chat_messages_exact() -> None:
    p = pb.InteRecPrompts.load(PromptLibrary())
    chat = pb.chat_messages(p, "User: hi", "Who directed Heat?", clarify=False)
    assert chat[0].content == (
        "You are a conversational movie recommendation assistant. The user's latest message "
        "needs no tool. Human requests typically fall under chit-chat, movie info, or movie "
        "recommendations. For chit-chat, respond with your knowledge. For movie recommendations "
        "without information about the user's preference, chat with the user for more "
        "information. Answer in one to three friendly sentences."
    )
    assert chat[1].content == (
        "Conversation so far:\nUser: hi\n\nThe user's latest message: Who directed Heat?"
    )
    assert pb.chat_messages(p, "(none)", "x", clarify=True)[0].content == CLARIFY


async def test_chit_chat_is_answered_from_the_models_knowledge(resources: ToolResources) -> None:
    answer = "Heat (1995) was directed by Michael Mann."
    system, client = make_system(
        resources,
        reflection=False,
        rules={
            "interecagent.planner": lambda r: PlanOutput(),
            "interecagent.reply": lambda r: answer,
        },
    )
    turn = await system.respond(opening("Who directed Heat?"))
    assert roles(client) == ["interecagent.planner", "interecagent.reply"]
    reply_call = client.calls[1].messages
    assert str(reply_call[0].content).startswith("You are a conversational movie recommendation")
    assert "For chit-chat, respond with your knowledge." in str(reply_call[0].content)
    assert (turn.act, turn.text, turn.items) == ("chat", answer, ())
    assert turn.explain["plan_failure"] is None


async def test_scripted_chit_chat_runs_no_tool(resources: ToolResources) -> None:
    system, client = make_system(resources, reflection=False)
    turn = await system.respond(opening("Thanks!"))
    assert turn.explain["attempts"][0]["tools"] == [] and turn.items == ()
    assert "For chit-chat" in message_text(client.calls[1].messages[0])


async def test_unreadable_plan_asks_a_question_and_hides_the_failure(
    resources: ToolResources,
) -> None:
    system, client = make_system(
        resources,
        reflection=False,
        rules={"interecagent.planner": lambda r: "no idea", "interecagent.reply": _echo},
    )
    turn = await system.respond(opening("Hello there"))
    assert roles(client) == ["interecagent.planner"] * 3 + ["interecagent.reply"]
    assert (
        turn.text
        == CLARIFY + " Conversation so far:\n(none)\n\nThe user's latest message: Hello there"
    )
    assert "plan" not in turn.text.lower() and "tool" not in turn.text.lower()
    assert turn.explain["plan_failure"].startswith(
        "no readable plan: PlanOutput (interecagent.planner): no valid reply"
    )
    assert turn.explain["attempts"][0]["plan_failure"] == turn.explain["plan_failure"]


async def test_a_plan_where_no_step_ran_asks_a_question(resources: ToolResources) -> None:
    plan = PlanOutput(plan=[PlanStep(tool="teleport", input={"to": "Mars"})])
    system, client = make_system(
        resources,
        reflection=False,
        rules={"interecagent.planner": lambda r: plan, "interecagent.reply": lambda r: ""},
    )
    turn = await system.respond(opening("Something good."))
    # The clarifying call answered nothing (twice): the fixed question from the prompt file.
    assert (turn.act, turn.text, turn.items) == ("ask", FALLBACK, ())
    assert turn.explain["plan_failure"] == (
        "no step ran: teleport: unknown tool 'teleport'; tools: store_candidates, query_info, "
        "hard_filter, soft_filter, rank_candidates, fetch_candidates"
    )
    assert str(client.calls[1].messages[0].content) == CLARIFY

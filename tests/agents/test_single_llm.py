"""The single-LLM baseline: the paper's "same prompt as our model", and recommend = an item."""

from __future__ import annotations

from macrs_sim.agents.single_llm import SingleLLMRecommender, single_llm_messages
from macrs_sim.llm.scripted import ScriptedChatCompletionClient, ScriptedRequest
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState, Exchange, ItemRef, SystemTurn, UserTurn

SYSTEM = (
    "You are a conversational movie recommender system. In each turn choose one of three "
    "dialogue acts: recommending, asking, and chit-chatting.\n"
    "Asking: You should elicit user preferences by asking questions.\n"
    "Chit-chatting: You should chit-chat with the user to learn about their preferences. "
    "You can express your admiration for certain item elements to guide the conversation "
    "towards them, thereby gaining insights into the user preferences regarding those "
    "elements.\n"
    "Recommending: You should recommend an item to user and generate an engaging "
    "description about the item.\n"
    "Reason in three steps.\n"
    "Step 1: Review past acts in the dialogue act history and avoid the repetition of the "
    "same act across multiple turns.\n"
    "Step 2: Determine whether the available user preferences are sufficient based on the "
    "dialogue history. If so, the recommending act is a suitable choice.\n"
    "Step 3: If the available user preferences are insufficient, determine which act is "
    "more appropriate or can yield greater user information gain."
)
STEPS = '"step1": "s1", "step2": "s2", "step3": "s3"'


def state_after(*acts: str) -> DialogueState:
    exchanges = tuple(
        Exchange(turn=i, system=SystemTurn(act=a, text=f"sys{i}"), user=UserTurn(text=f"u{i}"))
        for i, a in enumerate(acts, 1)
    )
    return DialogueState(dialogue_id="d", opening=UserTurn(text="hi"), exchanges=exchanges)


def test_prompt_holds_the_planner_steps_and_the_act_history(prompts: PromptLibrary) -> None:
    system, user = single_llm_messages(prompts.get("single_llm"), state_after("ask", "chat"))
    assert system.content == SYSTEM
    assert user.content == (
        "Dialogue history:\nUser: hi\nAssistant: sys1\nUser: u1\nAssistant: sys2\nUser: u2\n\n"
        "Dialogue act history: ask, chat\n\n"
        'Reply in JSON with "step1", "step2", "step3" (one short sentence each, following the '
        'three steps), "act" (one of "ask", "chat", "recommend"), "item_title" (the '
        'recommended movie\'s title and year when the act is "recommend", otherwise "") and '
        '"response" (your message to the user in one or two sentences).'
    )
    _, first = single_llm_messages(prompts.get("single_llm"), state_after())
    assert "Dialogue act history: (none)" in str(first.content)


def _system(replies: list[str]) -> tuple[SingleLLMRecommender, ScriptedChatCompletionClient]:
    it = iter(replies)

    def rule(req: ScriptedRequest) -> str:
        return next(it)

    client = ScriptedChatCompletionClient({"single_llm.respond": rule})
    return SingleLLMRecommender("S", client, PromptLibrary(), dialogue_id="d"), client


async def test_recommend_without_an_item_is_repaired() -> None:
    system, client = _system(
        [
            "{" + STEPS + ', "act": "recommend", "item_title": "", "response": "Got one!"}',
            "{" + STEPS + ', "act": "recommend", "item_title": "Heat (1995)", "response": "Heat!"}',
        ]
    )
    turn = await system.respond(state_after())
    assert (turn.act, turn.text, turn.items) == (
        "recommend",
        "Heat!",
        (ItemRef(title="Heat (1995)"),),
    )
    assert turn.explain == {"reasoning": {"step1": "s1", "step2": "s2", "step3": "s3"}}
    assert len(client.calls) == 2
    repair = str(client.calls[1].messages[-1].content)
    assert repair.startswith(
        "Your reply was not valid JSON for the schema: (top level): Value error, item_title "
        'must name the movie when act is "recommend".'
    )


async def test_other_acts_show_no_item() -> None:
    system, _ = _system(
        ["{" + STEPS + ', "act": "ask", "item_title": "Heat (1995)", "response": "Seen it?"}']
    )
    turn = await system.respond(state_after())
    assert (turn.act, turn.items) == ("ask", ())


async def test_final_list_follow_up_names_what_was_given() -> None:
    client = ScriptedChatCompletionClient({"final_list": lambda r: '{"titles": ["Up", "Alien"]}'})
    system = SingleLLMRecommender("S", client, PromptLibrary(), dialogue_id="d")
    items = await system.final_list(state_after(), 1, given=[ItemRef(title="Heat (1995)")])
    assert [i.title for i in items] == ["Up"]  # never more than asked for
    text = str(client.calls[0].messages[-1].content)
    assert "You have already recommended these movies: Heat (1995)\nRecommend 1 more" in text
    assert "Current demand: (none)\nBrowsing history: (none)" in text

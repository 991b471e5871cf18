"""Where a role's prompt puts the dialogue: the paper's transcript or chat messages."""

from __future__ import annotations

import json
from pathlib import Path

from autogen_core.models import AssistantMessage, SystemMessage, UserMessage

from macrs_sim.agents.macrs.memory import UserProfile
from macrs_sim.agents.macrs.messages import RespondRequest
from macrs_sim.agents.macrs.prompts import responder_messages
from macrs_sim.agents.prompt_layout import IN_MESSAGES, dialogue_messages
from macrs_sim.config import EmbeddedModel, OpenAIModel, Scenario
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState, Exchange, SystemTurn, UserTurn, Utterance

HISTORY = [
    Utterance(speaker="user", text="Hi! I want an uplifting drama."),
    Utterance(speaker="system", text="Do you like older films?"),
    Utterance(speaker="user", text="Yes, from the nineties."),
]


def _render(transcript: str) -> str:
    return f"Dialogue:\n{transcript}\nReply now."


def test_paper_layout_flattens_the_dialogue_into_one_user_message() -> None:
    messages = dialogue_messages("paper", "SYS", _render, HISTORY, me="system")
    assert messages == [
        SystemMessage(content="SYS"),
        UserMessage(
            content="Dialogue:\nUser: Hi! I want an uplifting drama.\n"
            "Assistant: Do you like older films?\nUser: Yes, from the nineties.\nReply now.",
            source="user",
        ),
    ]


def test_chat_layout_puts_instructions_in_the_system_message_and_turns_as_messages() -> None:
    messages = dialogue_messages("chat", "SYS", _render, HISTORY, me="system")
    assert messages == [
        SystemMessage(content=f"SYS\n\nDialogue:\n{IN_MESSAGES}\nReply now."),
        UserMessage(content="Hi! I want an uplifting drama.", source="user"),
        AssistantMessage(content="Do you like older films?", source="assistant"),
        UserMessage(content="Yes, from the nineties.", source="user"),
    ]


def test_chat_layout_for_the_simulated_user_makes_its_own_turns_the_assistants() -> None:
    history = HISTORY[:2]
    messages = dialogue_messages("chat", "SYS", _render, history, me="user")
    assert messages[1:] == [
        AssistantMessage(content="Hi! I want an uplifting drama.", source="assistant"),
        UserMessage(content="Do you like older films?", source="user"),
    ]


def test_an_empty_dialogue_is_sent_the_papers_way_in_both_layouts() -> None:
    paper = dialogue_messages("paper", "SYS", _render, [], me="user")
    chat = dialogue_messages("chat", "SYS", _render, [], me="user")
    assert (
        chat
        == paper
        == [
            SystemMessage(content="SYS"),
            UserMessage(content="Dialogue:\n(none)\nReply now.", source="user"),
        ]
    )


def test_library_views_carry_the_layout_and_share_what_was_loaded() -> None:
    library = PromptLibrary()
    chat = library.with_layout("chat")
    assert chat.get("responder_chat").layout == "chat"
    assert library.get("responder_chat").layout == "paper"
    assert chat.get("planner").sha256 == library.get("planner").sha256
    assert set(library.hashes()) == {"responder_chat", "planner"}


def test_macrs_responder_follows_its_templates_layout() -> None:
    req = RespondRequest(turn=2, dialogue_history=HISTORY, profile=UserProfile(), suggestion="")
    template = PromptLibrary().with_layout("chat").get("responder_chat")
    messages = responder_messages(template, req)
    assert isinstance(messages[0], SystemMessage)
    assert "You are the Chit-chatting Agent" in messages[0].content
    assert f"Dialogue history:\n{IN_MESSAGES}" in messages[0].content
    assert [type(m).__name__ for m in messages[1:]] == [
        "UserMessage", "AssistantMessage", "UserMessage"
    ]  # fmt: skip


def test_auto_layout_is_chat_for_the_embedded_model_and_paper_for_a_server() -> None:
    scenario = Scenario(name="s", systems=[{"name": "m", "kind": "macrs"}])
    served = OpenAIModel(model="m", base_url="http://127.0.0.1:1/v1")
    assert scenario.layout_for(EmbeddedModel()) == "chat"
    assert scenario.layout_for(served) == "paper"
    pinned = scenario.model_copy(update={"prompt_layout": "paper"})
    assert pinned.layout_for(EmbeddedModel()) == "paper"


async def test_a_campaign_records_each_roles_layout_and_sends_it(tmp_path: Path) -> None:
    """Over HTTP to the fake OpenAI server, layout pinned to chat: the store records it, and
    every request after a turn's first carries the turns as chat messages."""
    from macrs_sim.campaign.runner import run_campaign_async
    from macrs_sim.config import parse_scenario
    from macrs_sim.llm.fake_openai_server import FakeOpenAIServer
    from macrs_sim.store import RunStore

    async with FakeOpenAIServer() as srv:
        model = {"backend": "openai", "model": "fake", "base_url": srv.base_url,
                 "api_key_env": None, "structured_outputs": "openai"}  # fmt: skip
        sc = parse_scenario(
            {"name": "layout", "model": model, "data": {"n_samples": 1},
             "protocol": {"max_turns": 2}, "prompt_layout": "chat",
             "cache": {"enabled": False}, "systems": [{"name": "M", "kind": "single_llm"}]}
        )  # fmt: skip
        result = await run_campaign_async(sc, output_dir=tmp_path, progress=False, report=False)
        bodies = srv.chat_bodies()
    with RunStore.open(result.store_path) as store:
        layouts = json.loads(str(store.get_meta("prompt_layouts")))
    assert layouts == {"M": "chat", "(simulator)": "chat"}
    shapes = {tuple(m["role"] for m in b["messages"]) for b in bodies}
    # single-LLM in turn 1 (the opening) and 2; the simulator's opening and its reply.
    assert ("system", "user") in shapes  # an opening: nothing to lay out yet
    assert ("system", "user", "assistant", "user") in shapes  # single-LLM, turn 2
    assert ("system", "assistant", "user") in shapes  # the simulated user, replying


def test_interecagent_reply_and_chit_chat_follow_the_layout() -> None:
    """The user-facing InteRecAgent roles; its planner and critic read the dialogue as one of
    several fields (the paper's prompt), so they keep the paper's layout."""
    from macrs_sim.agents.interecagent import prompts as pb

    view = pb.window_request(
        DialogueState(
            dialogue_id="d",
            opening=UserTurn(text=HISTORY[0].text),
            exchanges=(
                Exchange(
                    turn=1,
                    system=SystemTurn(act="ask", text=HISTORY[1].text),
                    user=UserTurn(text=HISTORY[2].text),
                ),
            ),
        ),
        None,
    )
    assert (view.history, view.request) == (
        "User: Hi! I want an uplifting drama.\nAssistant: Do you like older films?",
        "Yes, from the nineties.",
    )
    assert view.turns == tuple(HISTORY)
    paper = pb.InteRecPrompts.load(PromptLibrary())
    chat = pb.InteRecPrompts.load(PromptLibrary().with_layout("chat"))
    for prompts, shape in ((paper, ["system", "user"]),
                           (chat, ["system", "user", "assistant", "user"])):  # fmt: skip
        reply = pb.reply_messages(prompts, view.history, view.request, "P", "R", view.turns)
        talk = pb.chat_messages(prompts, view.history, view.request, clarify=False,
                                turns=view.turns)  # fmt: skip
        for messages in (reply, talk):
            assert [m.type.removesuffix("Message").lower() for m in messages] == shape
    chat_reply = pb.reply_messages(chat, view.history, view.request, "P", "R", view.turns)
    assert f"Conversation so far:\n{IN_MESSAGES}" in str(chat_reply[0].content)
    assert chat_reply[-1] == UserMessage(content="Yes, from the nineties.", source="user")

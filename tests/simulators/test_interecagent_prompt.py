"""The InteRecAgent simulator instruction (its Figure 4), selectable beside the MACRS one."""

from __future__ import annotations

from string import Template

from macrs_sim.data.catalog import Catalog
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import Sample, SystemTurn
from macrs_sim.simulators.llm_user import SIMULATOR_PROMPTS, LLMUserSimulator
from macrs_sim.simulators.target_profile import (
    TargetKeywords,
    prepare_sample,
    simulator_system_prompt,
)

INTERECAGENT = "user_simulator_interecagent"

EXPECTED_SYSTEM = (
    "You are a user chatting with a recommender for movie recommendation in turn. "
    "Your history is Heat (1995), Alien (1979). "
    "Here is the information about your target movie you could use: "
    "virtual reality, martial arts.\n"
    "\n"
    "You must follow the rules below during chat.\n"
    "\n"
    "If the recommender recommends your target movie, you should accept. "
    "If the recommender recommends other movies, you should refuse them and provide the "
    "information about your target movie. If the recommender asks for your preference, "
    "you should provide the information about your target movie.\n"
    "\n"
    "You could provide your history. Your output is only allowed to be the words from the "
    "user you act. If you think the conversation comes to an ending, output a <END>. "
    "You should never directly tell the target movie. Only use the provided "
    "information about the target. Never give many details about the target movie at one "
    "time. Less than 3 conditions is better."
)


def test_system_section_renders_exactly(
    prompts: PromptLibrary, catalog: Catalog, sample: Sample
) -> None:
    rendered = simulator_system_prompt(prompts, catalog, sample, template=INTERECAGENT)
    assert rendered == EXPECTED_SYSTEM
    # The default is still the MACRS paper's instruction.
    assert simulator_system_prompt(prompts, catalog, sample).startswith(
        "You are a user chatting with an assistant for movie recommendation in turn."
    )


def _placeholders(text: str) -> set[str]:
    return set(Template(text).get_identifiers())


def test_both_instructions_load_with_the_same_shape(prompts: PromptLibrary) -> None:
    assert SIMULATOR_PROMPTS == {"macrs": "user_simulator", "interecagent": INTERECAGENT}
    macrs, interec = (prompts.get(SIMULATOR_PROMPTS[k]) for k in ("macrs", "interecagent"))
    # The same sections, and the optional end marker only InteRecAgent's has (Figure 4).
    assert [n for n in interec.sections if n != "end_marker"] == list(macrs.sections)
    assert interec.sections["end_marker"] == "<END>"
    for name, body in macrs.sections.items():
        assert _placeholders(interec.sections[name]) == _placeholders(body), name
    assert _placeholders(interec.sections["system"]) == {"history", "target_profile"}
    assert _placeholders(interec.sections["reply"]) == {"dialogue_history", "situation"}
    assert set(prompts.hashes()) == {"user_simulator", INTERECAGENT}


async def test_llm_user_and_preparation_use_the_chosen_instruction(
    catalog: Catalog, sample: Sample
) -> None:
    client = ScriptedChatCompletionClient({"user": lambda r: "ok", "opening": lambda r: "Hi"})
    sim = LLMUserSimulator(
        sample,
        catalog,
        client,
        PromptLibrary(),
        dialogue_id="d",
        system_name="S",
        instruction=INTERECAGENT,
    )
    await sim.open()
    await sim.reply(SystemTurn(act="ask", text="Which era?"))
    assert client.calls[0].messages[0].content == EXPECTED_SYSTEM
    reply = str(client.calls[0].messages[-1].content)
    assert reply.startswith("Here is the previous conversation you have completed:\n")
    assert "If it asks for your preference, provide the information" in reply

    prepared_client = ScriptedChatCompletionClient(
        {
            "target_profile": lambda r: TargetKeywords(
                keywords=["virtual reality", "martial arts"]
            ),
            "opening": lambda r: "Something mind-bending.",
        }
    )
    raw = sample.model_copy(update={"opening": ""})
    out = await prepare_sample(
        prepared_client,
        PromptLibrary(),
        catalog,
        raw,
        retries=1,
        template=INTERECAGENT,
        people=False,
    )
    assert out.opening == "Something mind-bending."
    opening_call = prepared_client.calls[1].messages
    assert opening_call[0].content == EXPECTED_SYSTEM
    # Fig. 4's words: no "Do not name any movie", which contradicted "You could provide
    # your history" (the leak guard keeps the target's title out).
    assert opening_call[-1].content == "Now let's start, you first, act as a user."


async def test_end_marker_ends_the_session_and_is_not_kept(
    catalog: Catalog, sample: Sample
) -> None:
    """InteRecAgent's Figure 4: the user says <END> when the conversation comes to an
    ending; the MACRS instruction has no marker, so the same words never end it."""
    replies = iter(["No thanks, that's all. <END>", "<END>"])
    client = ScriptedChatCompletionClient({"user": lambda r: next(replies)})
    sim = LLMUserSimulator(sample, catalog, client, PromptLibrary(), dialogue_id="d",
                           system_name="S", instruction=INTERECAGENT)  # fmt: skip
    await sim.open()
    turn = await sim.reply(SystemTurn(act="ask", text="Anything else?"))
    assert (turn.text, turn.ended, turn.accepted) == ("No thanks, that's all.", True, False)
    bare = await sim.reply(SystemTurn(act="ask", text="Sure?"))
    assert (bare.text, bare.ended) == ("", True)

    macrs = ScriptedChatCompletionClient({"user": lambda r: "Bye <END>"})
    plain = LLMUserSimulator(sample, catalog, macrs, PromptLibrary(), dialogue_id="d",
                             system_name="S", instruction=SIMULATOR_PROMPTS["macrs"])  # fmt: skip
    await plain.open()
    kept = await plain.reply(SystemTurn(act="ask", text="Anything else?"))
    assert (kept.text, kept.ended) == ("Bye <END>", False)

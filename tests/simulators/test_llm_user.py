from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import ItemRef, Sample, SystemTurn
from macrs_sim.simulators.llm_user import LLMUserSimulator


def _sim(
    sample: Sample, catalog: Catalog, client: ScriptedChatCompletionClient, retries: int = 2
) -> LLMUserSimulator:
    return LLMUserSimulator(
        sample,
        catalog,
        client,
        PromptLibrary(),
        dialogue_id="d1",
        system_name="S",
        max_leak_retries=retries,
    )


def _rec(catalog: Catalog, title: str) -> SystemTurn:
    return SystemTurn(
        act="recommend", text=f"Try {title}", items=(Grounder(catalog).ground(title),)
    )


async def test_accepts_only_the_grounded_target(catalog: Catalog, sample: Sample) -> None:
    client = ScriptedChatCompletionClient({"user": lambda r: "ok"})
    sim = _sim(sample, catalog, client)
    opening = await sim.open()
    assert opening.text == sample.opening and not opening.accepted
    assert not (await sim.reply(_rec(catalog, "Heat (1995)"))).accepted
    assert (await sim.reply(_rec(catalog, "the matrix"))).accepted  # target m2, normalised match
    ungrounded = SystemTurn(act="recommend", text="x", items=(ItemRef(title="The Matrix"),))
    assert not (await sim.reply(ungrounded)).accepted  # no catalog id: never accepted


async def test_prompt_tells_the_llm_which_situation(catalog: Catalog, sample: Sample) -> None:
    client = ScriptedChatCompletionClient({"user": lambda r: "ok"})
    sim = _sim(sample, catalog, client)
    await sim.open()
    await sim.reply(SystemTurn(act="ask", text="Which era?"))
    await sim.reply(_rec(catalog, "Heat (1995)"))
    await sim.reply(_rec(catalog, "The Matrix (1999)"))
    system_prompt = client.calls[0].messages[0].content
    assert isinstance(system_prompt, str)
    assert "Your browsing history: Heat (1995), Alien (1979)" in system_prompt
    assert "[target movie information]: virtual reality, martial arts" in system_prompt
    assert "Matrix" not in system_prompt
    texts = [str(c.messages[-1].content) for c in client.calls]
    assert "Answer the assistant's latest message." in texts[0]
    assert "The assistant recommended Heat (1995). That is not the movie" in texts[1]
    assert "The assistant recommended The Matrix (1999). That is the movie" in texts[2]
    assert "User: I want a mind-bending action film.\nAssistant: Which era?\nUser: ok" in texts[1]


async def test_leak_guard_regenerates_then_redacts(catalog: Catalog, sample: Sample) -> None:
    replies = iter(["I want The Matrix!", "Like the matrix", "Something with kung fu"])
    client = ScriptedChatCompletionClient({"user": lambda r: next(replies)})
    sim = _sim(sample, catalog, client)
    await sim.open()
    turn = await sim.reply(SystemTurn(act="ask", text="What do you want?"))
    assert (turn.text, turn.leak_retries, turn.redacted) == ("Something with kung fu", 2, False)
    assert "Write it again without its title." in str(client.calls[-1].messages[-1].content)

    always = ScriptedChatCompletionClient({"user": lambda r: "Just The Matrix please"})
    sim2 = _sim(sample, catalog, always, retries=1)
    await sim2.open()
    turn2 = await sim2.reply(SystemTurn(act="ask", text="What do you want?"))
    assert (turn2.text, turn2.leak_retries, turn2.redacted) == ("Just that movie please", 1, True)


async def test_accepting_reply_may_name_the_target(catalog: Catalog, sample: Sample) -> None:
    client = ScriptedChatCompletionClient({"user": lambda r: "Yes, The Matrix is it!"})
    sim = _sim(sample, catalog, client)
    await sim.open()
    turn = await sim.reply(_rec(catalog, "The Matrix (1999)"))
    assert turn.accepted and turn.text == "Yes, The Matrix is it!" and turn.leak_retries == 0
    assert len(client.calls) == 1

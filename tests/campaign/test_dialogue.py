"""The dialogue loop of DESIGN.md §2: stop on acceptance, else fallback list at max_turns + 1."""

from __future__ import annotations

from macrs_sim.campaign.dialogue import run_dialogue
from macrs_sim.config import ProtocolConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState, ItemRef, Sample, SystemTurn
from macrs_sim.simulators.llm_user import LLMUserSimulator


class ListRecommender:
    """Recommends the given titles in order, one per turn; the fallback list is fixed."""

    name = "list"

    def __init__(self, titles: list[str], final: list[str], fail_at: int | None = None) -> None:
        self.titles, self.final, self.fail_at = titles, final, fail_at
        self.closed = False
        self.final_calls: list[tuple[int, int]] = []

    async def respond(self, state: DialogueState) -> SystemTurn:
        if state.turn == self.fail_at:
            raise RuntimeError("model went away\nsecond line")
        title = self.titles[state.turn - 1]
        return SystemTurn(act="recommend", text=f"Try {title}", items=(ItemRef(title=title),))

    async def final_list(self, state: DialogueState, k: int) -> list[ItemRef]:
        self.final_calls.append((state.turn, k))
        return [ItemRef(title=t) for t in self.final[:k]]

    async def close(self) -> None:
        self.closed = True


def _sim(sample: Sample, catalog: Catalog) -> LLMUserSimulator:
    client = ScriptedChatCompletionClient({"user": lambda r: "no thanks"})
    return LLMUserSimulator(
        sample, catalog, client, PromptLibrary(), dialogue_id="d", system_name="list"
    )


async def _run(rec: ListRecommender, sample: Sample, catalog: Catalog, max_turns: int = 3):  # type: ignore[no-untyped-def]
    return await run_dialogue(
        rec,
        _sim(sample, catalog),
        Grounder(catalog),
        dialogue_id="d",
        sample=sample,
        protocol=ProtocolConfig(max_turns=max_turns, final_list_k=2),
    )


async def test_success_stops_the_dialogue(catalog: Catalog, sample: Sample) -> None:
    rec = ListRecommender(["Heat", "The Matrix (1999)", "Up"], ["Up"])
    result = await _run(rec, sample, catalog)
    assert (result.status, result.success_turn, result.turns_taken) == ("success", 2, 2)
    assert len(result.exchanges) == 2 and result.final_list == () and rec.final_calls == []
    assert result.exchanges[1].system.items[0].item_id == "m2"  # grounded by the loop
    assert rec.closed


async def test_failure_gets_fallback_list_at_turn_after_max(
    catalog: Catalog, sample: Sample
) -> None:
    rec = ListRecommender(["Heat", "Up", "Alien"], ["Toy Story", "the matrix", "Heat"])
    result = await _run(rec, sample, catalog)
    assert result.status == "failure" and result.turns_taken == 4  # max_turns + 1
    assert rec.final_calls == [(4, 2)]  # asked at turn 4 for k = 2
    assert [i.item_id for i in result.final_list] == ["m5", "m2"]


async def test_fault_costs_the_dialogue_with_its_cause(catalog: Catalog, sample: Sample) -> None:
    rec = ListRecommender(["Heat", "Up", "Alien"], [], fail_at=2)
    result = await _run(rec, sample, catalog)
    assert result.status == "error"
    assert result.error == "RuntimeError: model went away"
    assert len(result.exchanges) == 1 and rec.closed

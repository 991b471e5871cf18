"""The dialogue loop of DESIGN.md §2: stop on acceptance, else fallback list at max_turns + 1."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from macrs_sim.campaign.dialogue import EMPTY_RECOMMEND, run_dialogue
from macrs_sim.config import ProtocolConfig
from macrs_sim.data.catalog import Catalog
from macrs_sim.data.grounding import Grounder
from macrs_sim.llm.scripted import ScriptedChatCompletionClient
from macrs_sim.prompts import PromptLibrary
from macrs_sim.protocol import DialogueState, ItemRef, Sample, SystemTurn
from macrs_sim.simulators.llm_user import LLMUserSimulator
from macrs_sim.store import RunStore


class ListRecommender:
    """Recommends the given titles in order, one per turn; the fallback lists are fixed:
    `final` for the first request, `more` for the follow-up (the loop's second call)."""

    name = "list"

    def __init__(
        self,
        titles: list[str],
        final: list[str],
        fail_at: int | None = None,
        more: list[str] | None = None,
    ) -> None:
        self.titles, self.final, self.fail_at, self.more = titles, final, fail_at, more or []
        self.closed = False
        self.final_calls: list[tuple[int, int]] = []
        self.given: list[tuple[str, ...]] = []

    async def respond(self, state: DialogueState) -> SystemTurn:
        if state.turn == self.fail_at:
            raise RuntimeError("model went away\nsecond line")
        title = self.titles[state.turn - 1]
        return SystemTurn(act="recommend", text=f"Try {title}", items=(ItemRef(title=title),))

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        self.final_calls.append((state.turn, k))
        self.given.append(tuple(ref.title for ref in given))
        return [ItemRef(title=t) for t in (self.more if given else self.final)]

    async def close(self) -> None:
        self.closed = True


def _sim(sample: Sample, catalog: Catalog) -> LLMUserSimulator:
    client = ScriptedChatCompletionClient({"user": lambda r: "no thanks"})
    return LLMUserSimulator(
        sample, catalog, client, PromptLibrary(), dialogue_id="d", system_name="list"
    )


async def _run(  # type: ignore[no-untyped-def]
    rec: ListRecommender, sample: Sample, catalog: Catalog, max_turns: int = 3, k: int = 2
):
    return await run_dialogue(
        rec,
        _sim(sample, catalog),
        Grounder(catalog),
        dialogue_id="d",
        sample=sample,
        protocol=ProtocolConfig(max_turns=max_turns, final_list_k=k),
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


# --- the fallback list: k distinct grounded items (fixture catalog: tests/conftest.py) ------


async def test_fallback_list_drops_repeats_and_asks_once_for_the_missing(
    catalog: Catalog, sample: Sample
) -> None:
    rec = ListRecommender(
        ["Up", "Alien", "Toy Story"],
        # m1 twice (exact, then normalised), m2 twice, one unknown film twice (by title).
        ["Heat (1995)", "heat (1995)", "The Matrix", "the matrix (1999)", "Nowhere", "NOWHERE"],
        # The follow-up repeats m1 again, then the 1986 remake of Heat (m7), then Alien.
        more=["Heat (1995)", "Heat (1986)", "Alien"],
    )
    result = await _run(rec, sample, catalog, k=4)
    # Asked for 4, kept 3 distinct; asked once more for the missing 1, naming what it has.
    assert rec.final_calls == [(4, 4), (4, 1)]
    assert rec.given == [(), ("Heat (1995)", "The Matrix", "Nowhere")]
    assert [(i.title, i.item_id) for i in result.final_list] == [
        ("Heat (1995)", "m1"),
        ("The Matrix", "m2"),
        ("Nowhere", None),
        ("Heat (1986)", "m7"),  # a remake is another item: its own id
    ]


async def test_fallback_list_of_one_title_five_times_stays_short(
    catalog: Catalog, sample: Sample
) -> None:
    rec = ListRecommender(["Up", "Alien", "Toy Story"], ["Up"] * 5, more=["up", "Up (2009)"])
    result = await _run(rec, sample, catalog, k=5)
    assert rec.final_calls == [(4, 5), (4, 4)]  # one follow-up, never a third request
    assert [i.item_id for i in result.final_list] == ["m3"]


async def test_full_first_list_needs_no_follow_up_and_is_cut_at_k(
    catalog: Catalog, sample: Sample
) -> None:
    rec = ListRecommender(["Up", "Alien", "Toy Story"], ["Alien", "Up", "Heat (1995)", "Amélie"])
    result = await _run(rec, sample, catalog, k=3)
    assert rec.final_calls == [(4, 3)]
    assert [i.item_id for i in result.final_list] == ["m4", "m3", "m1"]


async def test_hit_at_k_reads_the_first_k_items_given(catalog: Catalog, sample: Sample) -> None:
    # Target m2. Raw answer: Heat four times, Alien; the follow-up brings The Matrix third.
    rec = ListRecommender(
        ["Up", "Alien", "Toy Story"], ["Heat (1995)"] * 4 + ["Alien"], more=["The Matrix", "Up"]
    )
    result = await _run(rec, sample, catalog, k=5)
    ids = [i.item_id for i in result.final_list]
    assert ids == ["m1", "m4", "m2", "m3"]
    hit = {k: sample.target_id in ids[:k] for k in (2, 3, 5)}
    assert hit == {2: False, 3: True, 5: True}


# --- the recorded act: "recommend" exactly when items are shown ------------------------


class TurnsRecommender:
    """Says the given turns in order; never finds the target."""

    name = "turns"

    def __init__(self, turns: list[SystemTurn]) -> None:
        self.turns = turns

    async def respond(self, state: DialogueState) -> SystemTurn:
        return self.turns[state.turn - 1]

    async def final_list(
        self, state: DialogueState, k: int, given: Sequence[ItemRef] = ()
    ) -> list[ItemRef]:
        return [ItemRef(title="Alien")]

    async def close(self) -> None:
        pass


async def test_act_is_recommend_exactly_when_items_are_shown(
    catalog: Catalog, sample: Sample, tmp_path: Path
) -> None:
    heat = (ItemRef(title="Heat (1995)"),)
    turns = [
        SystemTurn(act="recommend", text="Try Heat.", items=heat),
        SystemTurn(act="ask", text="Seen Heat?", items=heat),  # shows an item: a recommendation
        SystemTurn(act="recommend", text="I have just the film!"),  # shows nothing
        SystemTurn(act="chat", text="I love heists."),
    ]
    result = await run_dialogue(
        TurnsRecommender(turns),
        _sim(sample, catalog),
        Grounder(catalog),
        dialogue_id="d",
        sample=sample,
        protocol=ProtocolConfig(max_turns=4, final_list_k=1),
    )
    recorded = [(ex.system.act, ex.system.reported_act) for ex in result.exchanges]
    assert recorded == [
        ("recommend", "recommend"),
        ("recommend", "ask"),
        (EMPTY_RECOMMEND, "recommend"),
        ("chat", "chat"),
    ]
    assert "reported_act" not in result.exchanges[0].system.explain  # kept only where it differs
    # The run store keeps both (the reported act travels in explain).
    with RunStore.create(tmp_path / "run.sqlite") as store:
        store.write_dialogue(result, [])
        (back,) = store.read_results()
    assert [(ex.system.act, ex.system.reported_act) for ex in back.exchanges] == recorded


async def test_leaks_count_the_opening(catalog: Catalog, sample: Sample) -> None:
    leaky = sample.model_copy(update={"opening_leak_retries": 2, "opening_redacted": True})
    rec = ListRecommender(["Up", "Alien", "Toy Story"], ["Alien"])
    result = await _run(rec, leaky, catalog)
    assert (result.opening.leak_retries, result.opening.redacted) == (2, True)
    assert result.leaks == 3  # the replies ("no thanks") never leaked


class ManyItemsRecommender(ListRecommender):
    """Shows `per_turn` titles a turn (as InteRecAgent shows several), the target third."""

    def __init__(self, titles: list[str], per_turn: int) -> None:
        super().__init__(titles, final=["Up"])
        self.per_turn = per_turn

    async def respond(self, state: DialogueState) -> SystemTurn:
        shown = tuple(ItemRef(title=t) for t in self.titles[: self.per_turn])
        return SystemTurn(act="recommend", text="Some ideas", items=shown)


async def test_items_past_the_limit_are_dropped_before_grounding_and_counted(
    catalog: Catalog, sample: Sample
) -> None:
    # The target (m2, "The Matrix") is the second title: under the default limit of one
    # item a turn it is never shown, so the user cannot accept it.
    rec = ManyItemsRecommender(["Heat", "The Matrix (1999)", "Up"], per_turn=3)
    result = await _run(rec, sample, catalog, max_turns=2, k=1)
    assert result.status == "failure"
    for ex in result.exchanges:
        assert [i.title for i in ex.system.items] == ["Heat"]
        assert ex.system.items[0].item_id == "m1"
        assert ex.system.items_over_limit == 2
    # Raised for every system alike, the second item is shown and accepted in turn 1.
    result = await run_dialogue(
        ManyItemsRecommender(["Heat", "The Matrix (1999)", "Up"], per_turn=3),
        _sim(sample, catalog),
        Grounder(catalog),
        dialogue_id="d",
        sample=sample,
        protocol=ProtocolConfig(max_turns=2, final_list_k=1, max_items_per_turn=2),
    )
    assert (result.status, result.success_turn) == ("success", 1)
    assert result.exchanges[0].system.items_over_limit == 1


async def test_a_turn_within_the_limit_is_kept_as_it_was(catalog: Catalog, sample: Sample) -> None:
    rec = ListRecommender(["Heat", "Up", "Heat"], ["Up"])
    result = await _run(rec, sample, catalog)
    assert all("items_over_limit" not in ex.system.explain for ex in result.exchanges)
    assert all(ex.system.items_over_limit == 0 for ex in result.exchanges)


async def test_a_user_who_ends_the_session_gets_no_further_turn_and_no_list(
    catalog: Catalog, sample: Sample
) -> None:
    """InteRecAgent's simulator may say <END> (its Figure 4): the dialogue stops there,
    a failure, with no fallback list for a user who has gone."""
    replies = iter(["Not that one.", "Never mind, bye. <END>"])
    client = ScriptedChatCompletionClient({"user": lambda r: next(replies)})
    sim = LLMUserSimulator(
        sample, catalog, client, PromptLibrary(), dialogue_id="d", system_name="list",
        instruction="user_simulator_interecagent",
    )  # fmt: skip
    rec = ListRecommender(["Heat", "Up", "Alien"], ["Toy Story"])
    result = await run_dialogue(rec, sim, Grounder(catalog), dialogue_id="d", sample=sample,
                                protocol=ProtocolConfig(max_turns=3, final_list_k=2))  # fmt: skip
    assert (result.status, len(result.exchanges), result.final_list) == ("failure", 2, ())
    assert rec.final_calls == [] and result.turns_taken == 4
    assert [ex.user.ended for ex in result.exchanges] == [False, True]
    assert result.exchanges[1].user.text == "Never mind, bye."
